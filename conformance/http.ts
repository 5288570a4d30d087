/** Sends the suite's requests and keeps each exchange, so any failure can be replayed with curl. */
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

export interface RequestSpec {
  method: string;
  /** Path and query, e.g. `/v1/images/i-a`. */
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface Exchange {
  request: RequestSpec;
  /** Milliseconds since the epoch when the request was sent (the target saw it after). */
  sentAt: number;
  /** Milliseconds since the epoch when the answer arrived. */
  receivedAt: number;
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
  /** Prism proxy violations (`sl-violations`) when the request went through the validation proxy. */
  violations: ProxyViolation[];
}

/** A target that is no http(s) URL, or where no server answers: reported by its message alone. */
export class TargetError extends Error {}

/**
 * The base URL of `value`, given by `name` (a flag or a variable); throws TargetError unless it is an
 * http(s) URL with a host, and unless a server answers there (any HTTP answer will do).
 */
export async function checkTarget(name: string, value: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TargetError(`${name}: "${value}" is not a URL (expected http://HOST:PORT or https://...)`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") throw new TargetError(`${name}: "${value}" is not an http(s) URL with a host`);
  try {
    await httpExchange(value, { method: "GET", headers: {}, signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).name;
    throw new TargetError(`${name}: no server answers at ${value} (${code === "ECONNREFUSED" ? "connection refused: is it running?" : `${code}: ${(error as Error).message}`})`);
  }
  return value.replace(/\/$/, "");
}

/** A 2xx answer. */
export const accepted = (exchange: Exchange): boolean => exchange.status >= 200 && exchange.status < 300;

export interface ProxyViolation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

export interface Transport {
  /** The base URL positive requests are sent to: the Prism validation proxy when one runs, else the target. */
  sendUrl: string;
  /** The target's own base URL: other requests go here directly, and curl commands name it. */
  targetUrl: string;
  /** The keys curl commands print as variables instead of their values (`$CONFORMANCE_API_KEY`). */
  secrets: Record<string, string>;
}

export function bearer(apiKey: string): Record<string, string> {
  return { authorization: `Bearer ${apiKey}` };
}

// node:http with keep-alive agents rather than fetch: a run sends thousands of small requests, and
// fetch's per-request streams and abort signals cost over twice the CPU time.
const AGENTS = { "http:": new HttpAgent({ keepAlive: true }), "https:": new HttpsAgent({ keepAlive: true }) };

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

type ExchangeInit = { method: string; headers: Record<string, string>; body?: string | Buffer; signal?: AbortSignal };

/**
 * One HTTP request to `url` (http or https) and its whole answer; `content-length` is set from the body.
 * A kept-alive socket the server closed as idle just as the request went out fails with ECONNRESET
 * before the server read anything; such a request is sent once more on a new socket, as Node's
 * documentation advises.
 */
export async function httpExchange(url: string, init: ExchangeInit): Promise<HttpAnswer> {
  try {
    return await exchangeOnce(url, init);
  } catch (error) {
    if (!(error instanceof StaleSocketError)) throw error;
    // On a connection of its own: the pool may hold other sockets the server closed as idle.
    return exchangeOnce(url, init, false);
  }
}

class StaleSocketError extends Error {
  readonly code = "ECONNRESET";
}

function exchangeOnce(url: string, init: ExchangeInit, pooled = true): Promise<HttpAnswer> {
  const target = new URL(url);
  const protocol = target.protocol === "https:" ? "https:" : "http:";
  const headers = { ...init.headers };
  if (init.body !== undefined) headers["content-length"] = String(Buffer.byteLength(init.body));
  return new Promise((resolve, reject) => {
    const options = { method: init.method, headers, agent: pooled ? AGENTS[protocol] : false, ...(init.signal ? { signal: init.signal } : {}) };
    const outgoing = (protocol === "https:" ? httpsRequest : httpRequest)(target, options, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const answered = new Headers();
        const raw = response.rawHeaders;
        for (let index = 0; index < raw.length; index += 2) answered.append(raw[index]!, raw[index + 1]!);
        resolve({ status: response.statusCode ?? 0, headers: answered, body: Buffer.concat(chunks) });
      });
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) =>
      reject(outgoing.reusedSocket && error.code === "ECONNRESET" && !init.signal?.aborted ? new StaleSocketError(error.message) : error),
    );
    outgoing.end(init.body);
  });
}

/** Sends `request` to `baseUrl` (the target, or Prism's validation proxy in front of it). */
export async function send(baseUrl: string, request: RequestSpec, signal?: AbortSignal): Promise<Exchange> {
  const headers = { ...request.headers };
  if (request.body !== undefined) headers["content-type"] = "application/json";
  const sentAt = Date.now();
  const answer = await httpExchange(baseUrl + request.path, {
    method: request.method.toUpperCase(),
    headers,
    ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    ...(signal ? { signal } : {}),
  });
  const text = answer.body.toString("utf8");
  return {
    request,
    sentAt,
    receivedAt: Date.now(),
    status: answer.status,
    headers: answer.headers,
    text,
    json: parseJson(text),
    violations: parseViolations(answer.headers.get("sl-violations")),
  };
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseViolations(header: string | null): ProxyViolation[] {
  if (!header) return [];
  const parsed = parseJson(header);
  if (Array.isArray(parsed)) return parsed as ProxyViolation[];
  // Prism truncates a long list ("Too many violations! ..."): keep it as one violation.
  return [{ location: ["response"], severity: "Error", code: "truncated", message: header }];
}

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A curl command reproducing `request` against the target itself (never through the proxy); each
 * API key is left as its variable.
 */
export function curl(transport: Transport, request: RequestSpec): string {
  const parts = ["curl -sS -i", "-X", request.method.toUpperCase(), shellQuote(transport.targetUrl + request.path)];
  for (const [name, value] of Object.entries(request.headers)) {
    let shown = value;
    for (const [variable, secret] of Object.entries(transport.secrets)) if (secret) shown = shown.split(secret).join(`$${variable}`);
    // Double quotes so the shell expands the key's variable; the header text itself is plain.
    parts.push("-H", shown === value ? shellQuote(`${name}: ${shown}`) : `"${name}: ${shown}"`);
  }
  if (request.body !== undefined) {
    parts.push("-H", shellQuote("content-type: application/json"), "--data-raw", shellQuote(JSON.stringify(request.body)));
  }
  return parts.join(" ");
}
