/**
 * The other direction: the conformance suite against a hostile target. fast-check draws how a
 * target answers each route (status, Content-Type, Retry-After and rate-limit headers, a body with
 * the caller's key echoed, escapes, CI commands, line breaks, a body past the answer bound, a
 * dripped or cut-off answer), a server on 127.0.0.1 answers so, and a whole run of the suite (the
 * image model I-A, the account routes) goes against it. Whatever the target does, the run must end
 * by itself, with a report or a one-line refusal, and nothing it prints or writes may hold a key,
 * the target's credentials, a control character or a line a CI runner reads as a command.
 * Seeded: a failure reports the seed and the shrunk answers.
 */
import { once } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { TARGET_DEFAULTS, type TargetConfig } from "../conformance/config.ts";
import { Contract } from "../contract/contract.ts";
import { TargetError } from "../conformance/http.ts";
import { formatConsole, junitXml } from "../conformance/report.ts";
import { runConformance } from "../conformance/run.ts";

const KEY = "sk-fuzz-main-0123456789";
const FREE_KEY = "sk-fuzz-free-9876543210";
const PASSWORD = "fuzz-target-pass";
const SECRETS = [KEY, FREE_KEY, PASSWORD, Buffer.from(`fuzz:${PASSWORD}`).toString("base64")];
/** The answer bound of the runs: small, so that a body past it costs little. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** How the target answers one route. */
export interface HostileAnswer {
  readonly status: number;
  readonly contentType?: string;
  readonly retryAfter?: string;
  readonly remaining?: string;
  /** The body's pieces; `key` is the Authorization header the request carried. */
  readonly body: ReadonlyArray<{ readonly text: string } | { readonly key: true } | { readonly padding: number }>;
  /** How the body goes out: whole, cut off after its first byte, or dripped past the request bound. */
  readonly delivery: "whole" | "cut" | "drip";
}

const HOSTILE_TEXTS = [
  "\u001b[31m",
  "\u001b]8;;https://evil.example\u0007",
  "\u001b[2J",
  "\r\n::error file=a.ts::pwned\n",
  "::set-output name=x::y",
  "\u202e",
  "\u0000",
  "\u009b31m",
  '"}',
  "\n",
  '{"error":{"type":"authentication_error"}}',
];

const answer: fc.Arbitrary<HostileAnswer> = fc.record(
  {
    status: fc.constantFrom(200, 201, 202, 204, 301, 400, 401, 403, 404, 410, 413, 429, 500, 503),
    contentType: fc.constantFrom(
      "application/json",
      "text/html",
      "text/plain; charset=utf-8",
      "application/json; charset=\u001b[31m",
      "",
    ),
    // No small positive wait: a run would sit it out. Past the run's deadline, the wait is a skip.
    retryAfter: fc.constantFrom("0", "-1", "abc", "99999999999", "1e308", ""),
    remaining: fc.constantFrom("0", "-5", "NaN", "999999999999999999999", ""),
    body: fc.array(
      fc.oneof(
        fc.constantFrom(...HOSTILE_TEXTS).map((text) => ({ text })),
        fc.string({ maxLength: 40 }).map((text) => ({ text })),
        fc.constant({ key: true as const }),
        fc.constantFrom(MAX_ANSWER_BYTES + 1, 10).map((padding) => ({ padding })),
      ),
      { maxLength: 6 },
    ),
    delivery: fc.constantFrom("whole", "whole", "whole", "cut", "drip"),
  },
  { requiredKeys: ["status", "body", "delivery"] },
);

/** How the target answers: mostly the start-up probe as the service does (so that the run goes on), and every route by a few drawn answers. */
export interface HostilePlan {
  readonly honestProbe: boolean;
  readonly answers: readonly HostileAnswer[];
}

export const hostilePlans: fc.Arbitrary<HostilePlan> = fc.record({
  honestProbe: fc.constantFrom(true, true, true, false),
  answers: fc.array(answer, { minLength: 1, maxLength: 4 }),
});

/** The plan's answer for a request: chosen by its method and path, so that the same request gets the same answer. */
function answerFor(plan: readonly HostileAnswer[], method: string, path: string): HostileAnswer {
  let hash = 0;
  for (const char of `${method} ${path.split("?")[0]}`) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return plan[hash % plan.length] as HostileAnswer;
}

function respond(response: ServerResponse, planned: HostileAnswer, authorization: string): void {
  const headers: Record<string, string> = {};
  if (planned.contentType) headers["content-type"] = planned.contentType;
  if (planned.retryAfter) headers["retry-after"] = planned.retryAfter;
  if (planned.remaining)
    Object.assign(headers, {
      "x-ratelimit-remaining": planned.remaining,
      "x-ratelimit-limit": "100",
      "x-ratelimit-reset": "60",
    });
  const body = planned.body
    .map((piece) => ("key" in piece ? authorization : "padding" in piece ? " ".repeat(piece.padding) : piece.text))
    .join("");
  // Header values must be sendable: a value Node refuses is left out, as a real server would fail to send it.
  try {
    response.writeHead(planned.status, headers);
  } catch {
    response.writeHead(planned.status);
  }
  if (planned.delivery === "whole") return void response.end(body);
  response.write(body.slice(0, 1) || " ");
  if (planned.delivery === "cut") return void response.socket?.destroy();
  const timer = setInterval(() => response.write(" "), 100);
  response.on("close", () => clearInterval(timer));
}

/** A server on 127.0.0.1 answering by `plan`. */
async function serve(plan: HostilePlan, creditsPath: string): Promise<{ url: string; stop(): Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    if (plan.honestProbe && request.url === creditsPath)
      return void response.writeHead(200, { "content-type": "application/json" }).end('{"total_available": 1000}');
    respond(
      response,
      answerFor(plan.answers, request.method ?? "GET", request.url ?? "/"),
      request.headers.authorization ?? "",
    );
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://fuzz:${PASSWORD}@127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The run's declaration: I-A and the account's routes, short polls and bounds, a time limit the run must not reach. */
const CONFIG: TargetConfig = {
  ...TARGET_DEFAULTS,
  apiKey: KEY,
  freePlanKey: FREE_KEY,
  areas: ["images", "account"],
  models: ["I-A"],
  poll: { intervalMs: 20, timeoutSeconds: 2, stablePolls: 0 },
  timeoutSeconds: 30,
  requestTimeoutSeconds: 0.5,
  maxAnswerBytes: MAX_ANSWER_BYTES,
  generated: { seed: 1, cases: 1 },
};

/** What is wrong with what a run printed or wrote: a secret, a control character, a CI command line. */
export function leaks(where: string, text: string): string[] {
  const problems = SECRETS.filter((secret) => text.includes(secret)).map(
    (secret) => `${where} holds a secret (${secret.slice(0, 6)}...)`,
  );
  const control = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.exec(text);
  if (control)
    problems.push(`${where} holds the control character U+${control[0].charCodeAt(0).toString(16).padStart(4, "0")}`);
  const command = text.split("\n").find((line) => line.trimStart().startsWith("::"));
  if (command !== undefined)
    problems.push(`${where} has a line a CI runner reads as a command: ${JSON.stringify(command.slice(0, 60))}`);
  return problems;
}

/** One run of the suite against a target answering by `plan`: the problems found, none when it held. */
export async function runAgainst(plan: HostilePlan, contract: Contract, ran?: () => void): Promise<string[]> {
  const target = await serve(plan, contract.byOperationId(contract.model.account.creditsOperationId)?.path ?? "");
  const lines: string[] = [];
  try {
    const { summary, results } = await runConformance({
      target: target.url,
      targetName: "--target",
      config: CONFIG,
      contract,
      progress: (line) => lines.push(line),
    });
    ran?.();
    const problems = [
      ...leaks("the console", [...lines, formatConsole(summary, results)].join("\n")),
      ...leaks("the JSON report", JSON.stringify({ summary, results })),
      ...leaks("the JUnit report", junitXml(summary, results)),
    ];
    if (summary.stopped) problems.push(`the run did not end by itself: ${summary.stopped}`);
    return problems;
  } catch (error) {
    if (!(error instanceof TargetError)) return [`the run failed with ${(error as Error).stack ?? String(error)}`];
    const problems = leaks("the refusal", error.message);
    if (error.message.includes("\n")) problems.push("the refusal is more than one line");
    return problems;
  } finally {
    await target.stop();
  }
}

export interface SuiteFuzzRun {
  readonly runs: number;
  readonly seed: number;
  readonly milliseconds: number;
  /** Runs that got past the start-up probe (the others were refused in one line). */
  readonly pastProbe: number;
  readonly failure?: { readonly plan: string; readonly problems: string };
}

/** `runs` whole runs of the suite against drawn hostile targets; seed defaults to a random one, always reported. */
export async function fuzzSuite({
  runs,
  seed = Date.now() ^ (Math.random() * 2 ** 31),
  contract = new Contract(),
  progress,
}: {
  runs: number;
  seed?: number;
  contract?: Contract;
  progress?: (line: string) => void;
}): Promise<SuiteFuzzRun> {
  progress?.(`fuzz suite: ${runs} runs against hostile targets, seed ${seed}`);
  const started = performance.now();
  let pastProbe = 0;
  const details = await fc.check(
    fc.asyncProperty(hostilePlans, async (plan) => {
      const problems = await runAgainst(plan, contract, () => pastProbe++);
      if (problems.length) throw new Error(problems.join("; "));
    }),
    { numRuns: runs, seed, endOnFailure: true },
  );
  const milliseconds = performance.now() - started;
  if (!details.failed || !details.counterexample) return { runs: details.numRuns, seed, milliseconds, pastProbe };
  const problems =
    details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  return {
    runs: details.numRuns,
    seed,
    milliseconds,
    pastProbe,
    failure: { plan: JSON.stringify(details.counterexample[0]), problems },
  };
}

/** Hostile requests of `npm run fuzz -- --runs N` that one run of the suite stands for: a run sends hundreds. */
const REQUESTS_PER_RUN = 50;

/** The runs of the suite `--runs N` asks for. */
export const suiteRuns = (runs: number): number => Math.max(1, Math.round(runs / REQUESTS_PER_RUN));

/** The run as lines to print, in the form of run.ts's report. */
export function reportSuite(run: SuiteFuzzRun): string[] {
  const head = `fuzz suite: ${run.runs} runs (${run.pastProbe} past the start-up probe) in ${(run.milliseconds / 1000).toFixed(1)} s, seed ${run.seed}`;
  if (!run.failure) return [`${head}: no problem found`];
  return [
    `${head}: FAILED`,
    `  problems: ${run.failure.problems}`,
    `  the target's answers: ${run.failure.plan}`,
    `  reproduce: npm run fuzz -- --server suite --seed ${run.seed} --runs ${run.runs * REQUESTS_PER_RUN}`,
  ];
}
