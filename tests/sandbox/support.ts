/**
 * Shared set-up of the sandbox tests: an in-process sandbox on a config built per test (tiny limits,
 * a hand-driven clock) that checks every answer it sends to an operation of the description,
 * headers included, against the description, whoever sent the request (`send`, a raw socket, a
 * child process). A test file gets its sandboxes from `checkedSandboxes()`,
 * called at its top level: that call registers the file's own afterEach, which closes the test's
 * sandboxes and fails a test that received any invalid response. (Test files share their worker's
 * modules, so a hook registered when this module loads would guard only the first file a worker runs.)
 *
 * SANDBOX_TESTS_FLAG_EVERY_RESPONSE=1 makes the check flag every response, to see that every file
 * using it is guarded (tests/sandbox/guards.e2e.ts; tests/README.md).
 */
import { request as httpRequest } from "node:http";
import { afterEach } from "vitest";
import { Contract } from "../../contract/contract.ts";
import { responseProblems } from "../../conformance/response-check.ts";
import { loadServiceModel } from "../../model/service-model.ts";
import { ManualClock } from "../../sandbox/clock.ts";
import type { Call } from "../../behaviour/rules.ts";
import { startSandbox, type Answer, type RunningSandbox, type SandboxOptions } from "../../sandbox/server.ts";
import type { LooseJson } from "../support/loose.ts";

export const model = loadServiceModel();
export const contract = new Contract(model.doc);

export const KEY = "test-key";

/** One paid account with key KEY and plenty of credits; `overrides` replace its fields. */
export function configWith(
  account: Record<string, unknown> = {},
  rest: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    accounts: { main: { keys: [KEY], plan: "paid", credits: { monthlyLimit: 100_000, extra: 0 }, ...account } },
    ...rest,
  };
}

export interface Sent {
  status: number;
  headers: Headers;
  json: LooseJson;
  text: string;
}

export interface TestSandbox {
  readonly url: string;
  readonly clock: ManualClock;
  readonly running: RunningSandbox;
  send(method: string, path: string, options?: SendOptions): Promise<Sent>;
  /** Moves the sandbox clock on. */
  advance(ms: number): void;
}

/** What a test may set besides the config: a real clock (`clock`), the origins allowed, its own answer hook (run before the check). */
export type SandboxExtras = Pick<SandboxOptions, "clock" | "allowedOrigins" | "rules" | "hooks">;

export type StartSandbox = (config?: Record<string, unknown>, extras?: SandboxExtras) => Promise<TestSandbox>;

/**
 * Registers this test file's guard (afterEach: close the test's sandboxes, then fail the test if
 * any response did not match the description) and returns the file's way to start sandboxes: a
 * sandbox on a hand-driven clock (starting at a window boundary), closed after the test.
 */
export function checkedSandboxes(): StartSandbox {
  const open: RunningSandbox[] = [];
  const problems: string[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((running) => running.close()));
    const found = problems.splice(0);
    if (found.length > 0) throw new Error(`responses that do not match the description:\n${found.join("\n")}`);
  });
  return async (config = configWith(), extras = {}) => {
    const clock = new ManualClock(1_000 * 3600 * 24 * 365);
    const own = extras.hooks?.answer;
    const answer: NonNullable<SandboxOptions["hooks"]>["answer"] = (sent, call, state) => {
      const final = own ? own(sent, call, state) : sent;
      problems.push(...check(call, final));
      return final;
    };
    const running = await startSandbox({ clock, ...extras, config, model, hooks: { ...extras.hooks, answer } });
    open.push(running);
    return {
      url: running.url,
      clock,
      running,
      send: (method, path, options = {}) => send(running.url, method, path, options),
      advance: (ms) => clock.advance(ms),
    };
  };
}

/** A request's key (null: none), body, source address, content type, and Authorization header (by default, the key as a bearer token). */
interface SendOptions {
  key?: string | null;
  body?: unknown;
  from?: string;
  contentType?: string;
  authorization?: string;
}

/** One request over HTTP (from `from`, a loopback address, to test per-IP windows). */
function send(
  url: string,
  method: string,
  path: string,
  {
    key = KEY,
    body,
    from,
    contentType = "application/json",
    authorization = key === null ? undefined : `Bearer ${key}`,
  }: SendOptions = {},
): Promise<Sent> {
  const text = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  const headers: Record<string, string> = {};
  if (authorization !== undefined) headers.authorization = authorization;
  if (text !== undefined) headers["content-type"] = contentType;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url + path,
      { method, headers, ...(from ? { localAddress: from } : {}) },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const responseText = Buffer.concat(chunks).toString("utf8");
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers))
            if (typeof value === "string") responseHeaders.set(name, value);
          resolve({
            status: response.statusCode ?? 0,
            headers: responseHeaders,
            text: responseText,
            json: parse(responseText),
          });
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(text);
  });
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with an answer, as the sandbox sends it (a JSON body, its Content-Type), against the
 * description of the operation it answers; nothing for a request no operation was found for.
 */
function check(call: Call | undefined, answer: Answer): string[] {
  const op = call && contract.byOperationId(call.op.operationId);
  if (!op) return [];
  const text = JSON.stringify(answer.body);
  const headers = new Headers({ "content-type": "application/json" });
  for (const [name, value] of Object.entries(answer.headers)) headers.set(name, String(value));
  const found = responseProblems(contract, op, { status: answer.status, headers, text, json: answer.body });
  if (process.env.SANDBOX_TESTS_FLAG_EVERY_RESPONSE === "1") found.push("flagged by SANDBOX_TESTS_FLAG_EVERY_RESPONSE");
  return found.map((problem) => `${op.route} ${answer.status}: ${problem}`);
}

/** The description's first request example of a create route. */
export { firstRequestExample as example } from "../support/description.ts";

/** The one create route of the model with `predicate`. */
export function routeWhere(predicate: (route: (typeof model.createRoutes)[number]) => boolean) {
  const route = model.createRoutes.find(predicate);
  if (!route) throw new Error("no create route matches");
  return route;
}

export const areaOf = (areaId: string) => model.areas.find((area) => area.id === areaId)!;
