/**
 * The console's calls: one request as the reader filled it in, and a created job followed at its
 * area's cadence to its terminal status, with the credits read before and after. The key goes only
 * into the Authorization header; nothing here logs.
 */
import type { ConsoleData, JobFollowing } from "./console-data.ts";

export interface Answer {
  method: string;
  url: string;
  status: number;
  statusText: string;
  headers: Array<[name: string, value: string]>;
  /** The body parsed as JSON, else its text. */
  body: unknown;
  elapsedMs: number;
}

export interface Call {
  baseUrl: string;
  apiKey: string;
  method: string;
  /** The path with its parameters filled in and its query appended. */
  path: string;
  /** The JSON body's text, or undefined for none. */
  body?: string;
  signal?: AbortSignal;
}

/** The concrete path: parameters filled in (URL-encoded), empty query fields left out. */
export function fillPath(template: string, pathParams: Record<string, string>, query: Record<string, string>): string {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathParams[name] ?? ""));
  const search = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== "")).toString();
  return search ? `${path}?${search}` : path;
}

export async function send(call: Call): Promise<Answer> {
  const url = `${call.baseUrl.replace(/\/+$/, "")}${call.path}`;
  const headers: Record<string, string> = { authorization: `Bearer ${call.apiKey}` };
  if (call.body !== undefined) headers["content-type"] = "application/json";
  const started = performance.now();
  const response = await fetch(url, {
    method: call.method.toUpperCase(),
    headers,
    body: call.body ?? null,
    signal: call.signal ?? null,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: shown as text.
  }
  return {
    method: call.method.toUpperCase(),
    url,
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers.entries()],
    body,
    elapsedMs: Math.round(performance.now() - started),
  };
}

export interface JobProgress {
  /** Every poll's answer so far. */
  polls: Answer[];
  status: string | null;
}

const wait = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    // Removed when the wait ends, so that a long job's polls do not pile listeners on one signal.
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });

const statusOf = (body: unknown): string | null =>
  typeof body === "object" && body !== null && typeof (body as { status?: unknown }).status === "string"
    ? (body as { status: string }).status
    : null;

/**
 * Polls the job one interval after its creation, then every interval, until its status is
 * terminal, a poll fails (not 200), or the signal aborts; `onPoll` sees each answer.
 */
export async function followJob(
  base: Omit<Call, "method" | "path" | "body">,
  job: JobFollowing,
  id: string,
  data: Pick<ConsoleData, "terminalStatuses">,
  onPoll: (progress: JobProgress) => void,
): Promise<JobProgress> {
  const signal = base.signal ?? new AbortController().signal;
  const progress: JobProgress = { polls: [], status: null };
  for (;;) {
    await wait(job.intervalMs, signal);
    const answer = await send({ ...base, method: "get", path: fillPath(job.pollPath, { id }, {}) });
    progress.polls.push(answer);
    progress.status = statusOf(answer.body);
    onPoll(progress);
    if (answer.status !== 200 || (progress.status !== null && data.terminalStatuses.includes(progress.status)))
      return progress;
  }
}

/** The numeric fields of a balance that changed between two readings: before - after (a charge is positive). */
export function balanceChange(before: unknown, after: unknown): Array<[field: string, change: number]> {
  if (typeof before !== "object" || before === null || typeof after !== "object" || after === null) return [];
  const changes: Array<[string, number]> = [];
  for (const [field, value] of Object.entries(before)) {
    const later = (after as Record<string, unknown>)[field];
    if (typeof value === "number" && typeof later === "number" && later !== value) changes.push([field, value - later]);
  }
  return changes;
}

/**
 * The result fields' URLs in a succeeded poll body (a field may hold a URL or a list of them), each
 * once: a 3D job's `files` lists the GLB that `model_url` names as well.
 */
export function resultUrls(body: unknown, fields: readonly string[]): string[] {
  if (typeof body !== "object" || body === null) return [];
  const urls: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === "string" && /^https?:\/\//.test(value)) urls.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(collect);
  };
  for (const field of fields) collect((body as Record<string, unknown>)[field]);
  return [...new Set(urls)];
}

/**
 * Why a call got no answer, for the reader: nothing listens at the base URL; or something answered
 * but the browser withheld it, which from the sandbox or the mock means they refuse this page's
 * origin (their terminal logs the refusal with the same flag); or the page's policy lets it call
 * only 127.0.0.1. `answered` is whether a request the browser does not need to show (no-cors) got
 * through; `origin` is the page's (`null` opened from disk).
 */
export function noAnswerAdvice(baseUrl: string, origin: string, answered: boolean, docsOrigin: string): string {
  let target: URL;
  try {
    target = new URL(baseUrl);
  } catch {
    return `The base URL ${JSON.stringify(baseUrl)} is not a URL: write the sandbox's address, e.g. http://127.0.0.1:4020.`;
  }
  if (target.protocol !== "http:" || target.hostname !== "127.0.0.1")
    return `This page may call only http://127.0.0.1 (its Content-Security-Policy): write the sandbox's address as http://127.0.0.1:${target.port || "PORT"}.`;
  const port = target.port ? ` --port ${target.port}` : "";
  if (!answered)
    return `Nothing answers at ${target.origin}: start the sandbox (npm run sandbox${port ? ` --${port}` : ""}), or write the address it listens on as the base URL.`;
  const fromDisk = origin === "null" ? " (opened from disk, this page's origin is null)" : "";
  return `${target.origin} answered, but the browser withheld its answer: the sandbox and the mock accept pages only from the docs at ${docsOrigin} and from the origins they are told of${fromDisk}. Restart it with: npm run sandbox --${port} --allow-origin ${origin} (its terminal names the same flag), or serve the docs at ${docsOrigin}.`;
}

/** Whether anything answers at the base URL, asked so that no answer needs to be shown (no-cors). */
export async function somethingAnswers(baseUrl: string): Promise<boolean> {
  try {
    await fetch(`${baseUrl.replace(/\/+$/, "")}/`, { mode: "no-cors", cache: "no-store" });
    return true;
  } catch {
    return false;
  }
}
