/**
 * Shared set-up of the sandbox tests: an in-process sandbox on a config built per test (tiny limits,
 * a hand-driven clock), and `send`, which makes one HTTP request and checks its response, headers
 * included, against the description (afterEach fails a test that received any invalid response).
 */
import { request as httpRequest } from "node:http";
import { afterEach, expect } from "vitest";
import { Contract } from "../../conformance/contract.ts";
import { responseProblems } from "../../conformance/response-check.ts";
import { loadServiceModel } from "../../model/service-model.ts";
import { ManualClock } from "../../sandbox/clock.ts";
import { Router } from "../../model/router.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";

export const model = loadServiceModel();
export const contract = new Contract(model.doc);
const router = new Router(model.operations);

export const KEY = "test-key";

/** One paid account with key KEY and plenty of credits; `overrides` replace its fields. */
export function configWith(account: Record<string, unknown> = {}, rest: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    accounts: { main: { keys: [KEY], plan: "paid", credits: { monthlyLimit: 100_000, extra: 0 }, ...account } },
    ...rest,
  };
}

export interface Sent {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

export interface TestSandbox {
  readonly url: string;
  readonly clock: ManualClock;
  readonly running: RunningSandbox;
  send(method: string, path: string, options?: { key?: string | null; body?: unknown; from?: string }): Promise<Sent>;
  /** Moves the sandbox clock on. */
  advance(ms: number): void;
}

const open: RunningSandbox[] = [];
const problems: string[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((sandbox) => sandbox.close()));
  const found = problems.splice(0);
  expect(found, "responses that do not match the description").toEqual([]);
});

/** A sandbox on a hand-driven clock (starting at a window boundary), closed after the test. */
export async function sandbox(config: Record<string, unknown> = configWith()): Promise<TestSandbox> {
  const clock = new ManualClock(1_000 * 3600 * 24 * 365);
  const running = await startSandbox({ config, clock, model });
  open.push(running);
  return {
    url: running.url,
    clock,
    running,
    send: (method, path, options = {}) => send(running.url, method, path, options),
    advance: (ms) => clock.advance(ms),
  };
}

/** One request over HTTP (from `from`, a loopback address, to test per-IP windows); the response is checked against the description. */
export function send(
  url: string,
  method: string,
  path: string,
  { key = KEY, body, from }: { key?: string | null; body?: unknown; from?: string } = {},
): Promise<Sent> {
  const text = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  const headers: Record<string, string> = {};
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (text !== undefined) headers["content-type"] = "application/json";
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url + path, { method, headers, ...(from ? { localAddress: from } : {}) }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const responseText = Buffer.concat(chunks).toString("utf8");
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (typeof value === "string") responseHeaders.set(name, value);
        const sent: Sent = { status: response.statusCode ?? 0, headers: responseHeaders, text: responseText, json: parse(responseText) };
        check(method, path, sent);
        resolve(sent);
      });
    });
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

function check(method: string, path: string, sent: Sent): void {
  const match = router.match(method, new URL(path, "http://x").pathname);
  const op = match && contract.byOperationId(match.op.operationId);
  if (!op) return;
  const exchange = { request: { method, path, headers: {} }, status: sent.status, headers: sent.headers, text: sent.text, json: sent.json, violations: [] };
  for (const problem of responseProblems(contract, op, exchange)) problems.push(`${method} ${path} ${sent.status}: ${problem}`);
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
