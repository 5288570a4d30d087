/**
 * The operations check (every operation but the creates answers each named request example with a
 * documented 2xx and a valid response) run alone, through a session of its own against the sandbox:
 * which operations it sends and which it leaves to lifecycle, what it tells the cost estimate, and
 * that a priced search waits for the billing check's measurement (specification, Stock search: "10
 * credits per search", which moves the balance the billing check measures). Each test is one run
 * whose assertions read its results, so that a mutant of the check runs against the test that
 * reached it (a run in a beforeAll would count for no test, and Stryker would run each of its
 * mutants against every test).
 *
 * The description is a variant whose `POST /v1/posts` gives no named request example.
 */
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { operations } from "../../conformance/checks/operations.ts";
import type { Observed } from "../../conformance/client.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import type { CheckResult } from "../../conformance/results.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { loadBundle, type ResponseObject } from "../../model/document.ts";
import { startSandbox, type SandboxHooks } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";
import { checkSession } from "./support/check-session.ts";

const variant = structuredClone(loadBundle());
const postsBody = variant.paths["/v1/posts"]?.post?.requestBody as
  | { content: Record<string, { examples?: unknown; example?: unknown }> }
  | undefined;
const postsJson = postsBody?.content["application/json"];
if (!postsJson?.examples) throw new Error("the description gives POST /v1/posts no named request examples");
delete postsJson.examples;
const contract = new Contract(variant);

const declared = sandboxDeclaration(contract);
const defaults = sandboxDefaults();

const route = (method: string, path: string): string => {
  const op = contract.byPath(method, path);
  if (!op) throw new Error(`the description has no ${method.toUpperCase()} ${path}`);
  return op.route;
};
const STOCK = ["/v1/stock/images", "/v1/stock/sound-effects", "/v1/stock/music"].map((path) => route("get", path));
const POSTS = route("post", "/v1/posts");
/** The free operations other than creates and polls, by the name of the result each gets. */
const FREE = {
  [route("get", "/v1/account/credits")]: "valid request (no body) accepted",
  [route("get", "/v1/models")]: "valid request (no body) accepted",
  [route("post", "/v1/cost")]: 'valid request "with-seconds" accepted',
  [route("post", "/v1/uploads")]: "valid request (the declared uploadRequest) accepted",
};
const ofKind = (kind: string): ContractOperation[] => contract.operations.filter((op) => op.facts.kind === kind);
const FOLLOWED = "sent and followed by the lifecycle check";
const POLLED = "polled by the lifecycle check, with the ids of jobs the target created";

/** A session of the declaration (changed by `declaration`) against `url`, every response it sees going to `seen`. */
function sessionOf(url: string, declaration: Partial<TargetConfig> = {}, seen: Observed[] = []): Session {
  const stop = new AbortController();
  const config = { ...declared, ...declaration };
  return checkSession({
    contract,
    config,
    target: url,
    apiKey: config.apiKey as string,
    signal: stop.signal,
    deadlineMs: 60_000,
    observe: (_session, observed) => seen.push(observed),
  });
}

const context = (session: Session) => ({ session, stage: async () => undefined, status: () => undefined });

async function withSandbox<T>(hooks: SandboxHooks, work: (url: string) => Promise<T>): Promise<T> {
  const sandbox = await startSandbox({ config: fastSandboxConfig(defaults), hooks });
  try {
    return await work(sandbox.url);
  } finally {
    await sandbox.close();
  }
}

const onRoute = (results: CheckResult[], name: string) => results.filter((result) => result.route === name);

/** Waits (a deadline only turning a hang into a failure) until `done`. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !done(); await sleep(5))
    if (Date.now() > deadline) throw new Error(`never came: ${what}`);
}

describe("the operations check", () => {
  it("is summed up in conformance/README.md's table of check groups as in --help", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`operations\` | ${operations.summary} |`);
  });

  it("states as its spend the three stock searches at 10 credits each, the only priced requests it sends", () => {
    const spends = operations.spend?.(sessionOf("http://127.0.0.1:9")) ?? [];
    // Specification, Stock search: "10 credits per search" on each of the three routes.
    expect(spends.map(({ key, what, price }) => ({ key, what, credits: price.credits }))).toEqual(
      STOCK.map((stock) => ({ key: "main", what: `${stock} (no body)`, credits: 10 })),
    );
  });

  it("on a stateful target sends every other operation's named requests as positive ones, a priced search only once the billing measurement is over, and leaves creates and polls to lifecycle", async () => {
    const seen: Observed[] = [];
    await withSandbox({}, async (url) => {
      const session = sessionOf(url, {}, seen);
      const results = session.results.all;
      let release = (): void => undefined;
      const measuring = session.main.charges.measure(() => new Promise<void>((done) => (release = done)));
      const running = operations.run?.(context(session));
      await until(
        () => Object.keys(FREE).every((name) => onRoute(results, name).length > 0),
        "the free operations' results",
      );
      // The measurement holds the priced searches back, and only them: the free ones were sent and answered.
      expect(session.main.sent, "requests sent while the measurement is open").toBe(4);
      for (const stock of STOCK) expect(onRoute(results, stock), stock).toEqual([]);
      release();
      await measuring;
      await running;

      expect(session.main.sent).toBe(7);
      // Prism's validation proxy, where one runs, sees them: each is sent as a positive request.
      expect(seen.map((observed) => observed.options.positive)).toEqual(Array(7).fill(true));
      for (const [name, result] of Object.entries(FREE))
        expect(onRoute(results, name), name).toEqual([
          { group: "operations", route: name, name: result, outcome: "pass" },
        ]);
      for (const stock of STOCK)
        expect(onRoute(results, stock), stock).toEqual([
          { group: "operations", route: stock, name: "valid request (no body) accepted", outcome: "pass" },
        ]);
      expect(onRoute(results, POSTS)).toEqual([
        {
          group: "operations",
          route: POSTS,
          name: "valid request accepted",
          outcome: "skip",
          detail: "the description gives no named request example",
        },
      ]);
      for (const op of ofKind("create"))
        expect(onRoute(results, op.route), op.route).toEqual([
          { group: "operations", route: op.route, name: "valid requests accepted", outcome: "skip", detail: FOLLOWED },
        ]);
      for (const op of ofKind("poll"))
        expect(onRoute(results, op.route), op.route).toEqual([
          { group: "operations", route: op.route, name: "valid requests accepted", outcome: "skip", detail: POLLED },
        ]);
      expect(results).toHaveLength(contract.operations.length);
    });
  });

  it("on a stateless target (each poll answered with the description's example, as the mock does) sends the polls' example requests, and leaves only creates to lifecycle", async () => {
    const examples = new Map(
      ofKind("poll").map((op) => [
        op.facts.operationId,
        contract.responseExamples(contract.deref(op.responses["200"] as ResponseObject))[0]?.value,
      ]),
    );
    const results = await withSandbox(
      {
        answer: (answer, call) =>
          call && examples.has(call.op.operationId)
            ? { ...answer, status: 200, body: examples.get(call.op.operationId) }
            : answer,
      },
      async (url) => {
        const session = sessionOf(url, { stateful: false });
        await operations.run?.(context(session));
        return session.results.all;
      },
    );
    for (const op of ofKind("poll"))
      expect(onRoute(results, op.route), op.route).toEqual([
        { group: "operations", route: op.route, name: "valid request (no body) accepted", outcome: "pass" },
      ]);
    for (const op of ofKind("create"))
      expect(onRoute(results, op.route), op.route).toEqual([
        { group: "operations", route: op.route, name: "valid requests accepted", outcome: "skip", detail: FOLLOWED },
      ]);
    for (const name of [...Object.keys(FREE), ...STOCK])
      expect(
        onRoute(results, name).map((result) => result.outcome),
        name,
      ).toEqual(["pass"]);
  });
});
