/**
 * The spend-limit check (conformance/checks/spend-limit.ts) run on a session of the test's own
 * against a small `node:http` server that answers each create as the test says. Specification,
 * Errors: "Monthly spend limit reached: a limit the account owner set. Retrying does not clear it
 * ... No `Retry-After`." The check sends, with the key the declaration names (spendLimit), the
 * cheapest create of exact price above what the limit lets the account spend, outside the cooldown's
 * family, and again a little later. An honest refusal passes; each other answer fails the result of
 * the rule it breaks, the detail naming it.
 *
 * Prices, by hand from the specification: V-A text-to-video at its defaults (5 s at 768p, 105 per
 * second) 525 credits; D-A with detailed texture and detailed geometry 540 + 270 = 810; I-B's
 * single-image edit (medium at 2K) 100; I-E's three-image edit (40 per image) 120.
 */
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { spendLimit } from "../../conformance/checks/spend-limit.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import type { CheckResult } from "../../conformance/results.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { checkSession } from "./support/check-session.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const LIMIT = declared.spendLimit as { apiKey: string; credits: number };
const createOf = (label: string): ContractOperation =>
  contract.operations.find((op) => op.create?.label === label) as ContractOperation;
const V_A = createOf("V-A");

const REFUSED = "a create past the monthly spend limit is refused with the spend-limit 429";
const NO_RETRY_AFTER = "the spend-limit 429 carries no Retry-After";
const NOT_CLEARED = "retrying does not clear the spend limit";

interface Reply {
  readonly status: number;
  readonly body: unknown;
  /** Its headers besides Content-Type (the X-RateLimit-* headers by default). */
  readonly headers?: Record<string, string>;
}

const RATE_HEADERS = { "x-ratelimit-limit": "600", "x-ratelimit-remaining": "599", "x-ratelimit-reset": "42" };
/** The spend-limit 429: an ordinary error body (its code is not shown), no Retry-After. */
const SPEND_LIMIT: Reply = {
  status: 429,
  body: {
    error: { type: "billing_error", code: "spend_limit_reached", message: "The monthly spend limit is reached." },
  },
};
const ACCEPTED: Reply = { status: 200, body: { id: "job-1", status: "pending" } };
/** An answer longer than the 200 characters a detail quotes of it. */
const LONG = { error: { message: "The service is busy. ".repeat(12) } };
/** The cooldown's 429, which its retry_after_seconds tells from the spend limit's. */
const COOLDOWN: Reply = {
  status: 429,
  body: { error: { type: "rate_limit_error", code: "cooldown", message: "Paused.", retry_after_seconds: 600 } },
};

/** A target answering the n-th create with `replies[n]` (the last one after that). */
async function startTarget(replies: Reply[]) {
  const requests: Array<{ method: string; path: string; authorization: string; body: unknown }> = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      requests.push({
        method: request.method ?? "",
        path: request.url ?? "",
        authorization: String(request.headers.authorization),
        body: text ? JSON.parse(text) : undefined,
      });
      const reply = replies[Math.min(requests.length, replies.length) - 1] as Reply;
      response
        .writeHead(reply.status, { "content-type": "application/json", ...(reply.headers ?? RATE_HEADERS) })
        .end(JSON.stringify(reply.body));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const sessionOf = (config: Partial<TargetConfig> = {}, target?: string): Session =>
  checkSession({
    contract,
    config: { ...declared, ...config },
    ...(target ? { target } : {}),
    apiKey: declared.apiKey as string,
  });

interface LimitRun {
  readonly results: CheckResult[];
  readonly requests: Awaited<ReturnType<typeof startTarget>>["requests"];
  /** The creates and the waits between them, in order. */
  readonly events: string[];
  /** What the check told of its progress, in order. */
  readonly statuses: string[];
}

/** The check run against a target answering its creates with `replies`; its wait is recorded, not slept. */
async function limitRun(...replies: Reply[]): Promise<LimitRun> {
  const target = await startTarget(replies);
  try {
    const session = sessionOf({}, target.url);
    const events: string[] = [];
    const statuses: string[] = [];
    session.sleep = async (ms) => void events.push(`wait ${ms}`);
    session.observe = (seen) => void events.push(`${seen.op.route} ${seen.exchange.status}`);
    await spendLimit.run?.({ session, stage: async () => {}, status: (text) => void statuses.push(text) });
    return { results: session.results.all, requests: target.requests, events, statuses };
  } finally {
    await target.close();
  }
}

const outcomes = (results: CheckResult[]) =>
  results.map(({ route, name, outcome, detail }) => ({ route, name, outcome, ...(detail ? { detail } : {}) }));
const pass = (name: string) => ({ route: V_A.route, name, outcome: "pass" });
const fail = (name: string, detail: string) => ({ route: V_A.route, name, outcome: "fail", detail });

describe("the spend-limit check against a target that keeps the limit", () => {
  let run: LimitRun;
  beforeAll(async () => {
    run = await limitRun(SPEND_LIMIT);
  });

  it("passes the refusal, its missing Retry-After, and the refusal of the retry", () => {
    expect(outcomes(run.results)).toEqual([pass(REFUSED), pass(NO_RETRY_AFTER), pass(NOT_CLEARED)]);
  });

  it("tells that it sends a create past the spend limit", () => {
    expect(run.statuses).toEqual(["sending a create past the spend limit"]);
  });

  it("sends the cheapest create above the limit's 500 credits (V-A's text-to-video, 525) with the spend-limit key, then again 1.5 s later", () => {
    expect(run.events).toEqual([`${V_A.route} 429`, "wait 1500", `${V_A.route} 429`]);
    const text = V_A.requestExamples.find((example) => example.name === "text-to-video")?.value;
    expect(run.requests).toEqual(
      [0, 1].map(() => ({ method: "POST", path: V_A.path, authorization: `Bearer ${LIMIT.apiKey}`, body: text })),
    );
  });
});

describe("the spend-limit check fails what breaks the rule", () => {
  it("fails a create past the limit that is accepted, and sends no retry", async () => {
    const run = await limitRun({ status: 201, body: LONG });
    expect(outcomes(run.results)).toEqual([
      fail(REFUSED, `answered 201, not the spend-limit 429: ${JSON.stringify(LONG).slice(0, 200)}`),
    ]);
    expect(run.requests).toHaveLength(1);
  });

  it("fails another refusal: a 400, or the cooldown's 429", async () => {
    const invalid = { error: { type: "invalid_request_error", code: "invalid_request", message: "No." } };
    const [refused, cooled] = await Promise.all([limitRun({ status: 400, body: invalid }), limitRun(COOLDOWN)]);
    expect(outcomes(refused.results)).toEqual([
      fail(REFUSED, `answered 400, not the spend-limit 429: ${JSON.stringify(invalid)}`),
    ]);
    expect(outcomes(cooled.results)).toEqual([
      fail(REFUSED, `answered 429, not the spend-limit 429: ${JSON.stringify(COOLDOWN.body)}`),
    ]);
  });

  it("fails a spend-limit 429 that breaks its documented response (no X-RateLimit-* headers), and goes on", async () => {
    const run = await limitRun({
      ...SPEND_LIMIT,
      headers: {},
    });
    expect(run.results[0]).toMatchObject({ name: REFUSED, outcome: "fail" });
    expect(run.results[0]?.detail).toContain("X-RateLimit-Limit");
    expect(outcomes(run.results.slice(1))).toEqual([pass(NO_RETRY_AFTER), pass(NOT_CLEARED)]);
  });

  it("fails a spend-limit 429 carrying Retry-After: no wait clears the limit", async () => {
    const run = await limitRun({ ...SPEND_LIMIT, headers: { ...RATE_HEADERS, "retry-after": "0" } });
    expect(outcomes(run.results)).toEqual([
      pass(REFUSED),
      fail(NO_RETRY_AFTER, "Retry-After: 0, though no wait clears the limit"),
      pass(NOT_CLEARED),
    ]);
  });

  it("fails a retry that is accepted", async () => {
    const run = await limitRun(SPEND_LIMIT, ACCEPTED);
    expect(outcomes(run.results)).toEqual([
      pass(REFUSED),
      pass(NO_RETRY_AFTER),
      fail(NOT_CLEARED, "the same create sent again 1.5 s later was accepted"),
    ]);
  });

  it("fails a retry refused otherwise, naming its answer", async () => {
    const [failed, cooled] = await Promise.all([
      limitRun(SPEND_LIMIT, { status: 500, body: LONG }),
      limitRun(SPEND_LIMIT, COOLDOWN),
    ]);
    expect(outcomes(failed.results)[2]).toEqual(
      fail(NOT_CLEARED, `sent again, it answered 500, not the spend-limit 429: ${JSON.stringify(LONG).slice(0, 200)}`),
    );
    expect(outcomes(cooled.results)[2]).toEqual(
      fail(NOT_CLEARED, `sent again, it answered 429, not the spend-limit 429: ${JSON.stringify(COOLDOWN.body)}`),
    );
  });

  it("gives each failure the curl line of the create", async () => {
    const run = await limitRun(ACCEPTED);
    expect(run.results[0]?.curl).toContain(V_A.path);
  });
});

describe("what the spend-limit check needs and spends", () => {
  /** The route and example the check would send, with its price, as its estimate gives them. */
  const planned = (config: Partial<TargetConfig>) =>
    (spendLimit.spend?.(sessionOf(config)) ?? []).map((spend) => [spend.key, spend.what, spend.price.credits]);

  it("needs a stateful target, spendLimit, and a create of exact price above its credits", () => {
    const blocked = (config: Partial<TargetConfig>) => spendLimit.blockedBy?.(sessionOf(config));
    expect(blocked({ stateful: false })).toBe("the target is stateless");
    expect(blocked({ spendLimit: undefined })).toBe(
      "not declared: a key of an account whose monthly spend limit is nearly reached (spendLimit)",
    );
    // No image of exact price costs more than 500 credits.
    expect(blocked({ areas: ["images"] })).toBe(
      "no implemented create request has an exact standard price above spendLimit.credits (500)",
    );
    // DM-A's 600 is only a bound ("at most").
    expect(blocked({ areas: ["depth-maps"] })).toBe(
      "no implemented create request has an exact standard price above spendLimit.credits (500)",
    );
    expect(blocked({})).toBeNull();
  });

  it("estimates the create twice (its retry) on the spend-limit key: V-A's 525 above 500", () => {
    // The key is also the declaration's cooldown and retired-model key.
    expect(planned({})).toEqual(
      [0, 1].map(() => ["cooldown and retired model and spend limit", `${V_A.route} (spend limit)`, 525]),
    );
    expect(planned({ spendLimit: undefined })).toEqual([]);
    expect(planned({ areas: ["images"] })).toEqual([]);
  });

  it("takes the cheapest strictly above the limit: at 525, D-A's detailed model (810), not V-A's 525 nor a dearer video", () => {
    expect(planned({ spendLimit: { ...LIMIT, credits: 525 } })[0]?.slice(1)).toEqual([
      `${createOf("D-A").route} (spend limit)`,
      810,
    ]);
  });

  it("leaves out the cooldown's family: above 99, I-E's 120 rather than I-B's 100", () => {
    expect(planned({ areas: ["images"], spendLimit: { ...LIMIT, credits: 99 } })[0]?.slice(1)).toEqual([
      `${createOf("I-E").route} (spend limit)`,
      120,
    ]);
  });

  it("its summary is the check's row of conformance/README.md", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`spend-limit\` | ${spendLimit.summary} |`);
  });
});
