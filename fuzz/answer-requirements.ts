/**
 * What every answer to a hostile request must be. A request the router matches gets an answer its
 * operation documents (status, body and headers, X-RateLimit-* included, checked as the conformance
 * suite checks them), or one of the server's documented bounds (413, 503); any other answer carries
 * the error body `{ error: { type, code, message } }`; Node's own answers to protocol errors are a
 * plain 4xx. Never a 5xx of the server's own failing, a stack trace, or the key that was sent.
 */
import type { Contract } from "../contract/contract.ts";
import { responseProblems } from "../conformance/response-check.ts";
import { Router } from "../model/router.ts";
import { readTarget } from "../http-server/request-target.ts";
import { incomplete, type HostileRequest } from "./hostile-requests.ts";
import type { RawAnswer } from "./raw-http.ts";

export type FuzzedServer = "sandbox" | "mock";

/**
 * The server's own answers beside the description, each with the error body: the body bounds (413,
 * 503; sandbox/README.md) and the mock front's 422 to a Prefer selecting nothing (conformance/README.md).
 */
const BOUNDS: Readonly<Record<FuzzedServer, ReadonlySet<number>>> = {
  sandbox: new Set([413, 503]),
  mock: new Set([413, 422, 503]),
};

/** A stack frame, also as JSON writes one inside a string (`\n    at f (file.ts:1:2)`). */
const STACK_TRACE = /(\n|\\n)\s*at .+:\d+:\d+|node:internal/;

function errorBodyProblem(json: unknown): string | null {
  const error = (json as { error?: unknown } | undefined)?.error as Record<string, unknown> | undefined;
  const ok =
    typeof error === "object" &&
    error !== null &&
    ["type", "code", "message"].every((field) => typeof error[field] === "string");
  return ok ? null : "its body is not the error body { error: { type, code, message } }";
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

export class AnswerRequirements {
  private readonly router: Router;

  constructor(
    private readonly contract: Contract,
    private readonly server: FuzzedServer,
    /** Keys the server knows, which no answer may echo. */
    private readonly keys: readonly string[],
  ) {
    this.router = new Router(contract.model.operations);
  }

  /** The problems of `answer` to `request` (none: the answer is as it must be). */
  problems(request: HostileRequest, answer: RawAnswer | null): string[] {
    if (answer === null) return incomplete(request) ? [] : ["no answer to a complete request"];
    const text = answer.body.toString("utf8");
    const problems: string[] = [];
    if (STACK_TRACE.test(text)) problems.push("the body shows a stack trace");
    for (const key of this.keys) if (text.includes(key)) problems.push("the body echoes an API key");
    const type = answer.headers.get("content-type") ?? "";
    if (!/json/i.test(type)) {
      // Node's own answer to a request it could not parse: a plain 4xx, no body.
      if (answer.status >= 400 && answer.status < 500 && answer.body.length === 0) return problems;
      return [
        ...problems,
        `status ${answer.status} with a ${type || "missing"} Content-Type: neither the server's JSON nor Node's plain protocol answer`,
      ];
    }
    const json = parse(text);
    if (json === undefined && request.method !== "HEAD")
      return [...problems, `status ${answer.status}: the body is not JSON`];
    const bound = BOUNDS[this.server].has(answer.status);
    if (answer.status >= 500 && !bound)
      problems.push(`status ${answer.status}: the server failed (${text.slice(0, 200)})`);
    const op = this.operationOf(request);
    if (op && !bound) {
      const headers = new Headers([...answer.headers].filter(([, value]) => !/[^\t\x20-\xff]/.test(value)));
      const exchange = {
        request: { method: request.method, path: request.target, headers: {} },
        status: answer.status,
        headers,
        text,
        json,
        violations: [],
      };
      problems.push(...responseProblems(this.contract, op, exchange));
    } else if (request.method !== "HEAD") {
      const problem = errorBodyProblem(json);
      if (problem) problems.push(`status ${answer.status}: ${problem}`);
    }
    if (this.server === "sandbox") {
      const { rateLimitHeaders } = this.contract.model;
      const missing = [rateLimitHeaders.limit, rateLimitHeaders.remaining, rateLimitHeaders.reset].filter(
        (name) => !answer.headers.has(name.toLowerCase()),
      );
      if (missing.length) problems.push(`status ${answer.status} lacks ${missing.join(", ")}`);
    }
    return problems;
  }

  /** The operation the router matches for the request, as the servers read its target; undefined when none. */
  private operationOf(request: HostileRequest) {
    // Node hands the target over as latin1 characters of its bytes.
    const read = readTarget(Buffer.from(request.target, "utf8").toString("latin1"));
    if ("problem" in read) return undefined;
    const match = this.router.match(request.method, read.target.path);
    return match ? this.contract.byOperationId(match.op.operationId) : undefined;
  }
}
