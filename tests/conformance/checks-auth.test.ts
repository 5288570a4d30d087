/**
 * The auth check alone (the other groups skipped) against the sandbox: specification, Authentication,
 * 3: "Missing or invalid key: HTTP 401 with an Error body", for every request (1: "Every request
 * carries `Authorization: Bearer <API_KEY>`"). Each test is one sandbox run whose assertions read
 * its results, so that a mutant of the check runs against the test that reached it (a run in a
 * beforeAll would count for no test, and Stryker would run each of its mutants against every test):
 * routes answered honestly must pass, routes given a planted fault must fail, naming what went wrong.
 *
 * The description is a variant in which three stock searches declare other security: none (`[]`),
 * anonymous only (`[{}]`) and optional (`[{}, {bearerAuth: []}]`), none of which demands credentials
 * (OpenAPI's Security Requirement Object), and `GET /v1/models` names bearerAuth itself.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { auth } from "../../conformance/checks/auth.ts";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { runConformance } from "../../conformance/run.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { loadBundle } from "../../model/document.ts";
import type { Call } from "../../behaviour/rules.ts";
import { startSandbox, type Answer, type SandboxHooks } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";

const doc = loadBundle();
const STOCK_SECURITY: Record<string, Array<Record<string, string[]>>> = {
  "/v1/stock/images": [],
  "/v1/stock/music": [{}],
  "/v1/stock/sound-effects": [{}, { bearerAuth: [] }],
};
const variant = structuredClone(doc);
for (const [path, security] of Object.entries(STOCK_SECURITY)) {
  const operation = variant.paths[path]?.get;
  if (!operation) throw new Error(`the description has no GET ${path}`);
  operation.security = security;
}
const models = variant.paths["/v1/models"]?.get;
if (!models) throw new Error("the description has no GET /v1/models");
models.security = [{ bearerAuth: [] }];
const contract = new Contract(variant);

const declared = sandboxDeclaration(contract);
const defaults = sandboxDefaults();

const NO_HEADER = "401 for no Authorization header";
const BASIC = "401 for malformed Authorization header (Basic scheme)";
const BEARER_ONLY = "401 for malformed Authorization header (Bearer without a token)";
const UNKNOWN_KEY = "401 for unknown bearer key";
const CASES = [NO_HEADER, BASIC, BEARER_ONLY, UNKNOWN_KEY];

const byPath = (method: "get" | "post", path: string): ContractOperation => {
  const op = contract.byPath(method, path);
  if (!op) throw new Error(`the description has no ${method.toUpperCase()} ${path}`);
  return op;
};
const MODELS = byPath("get", "/v1/models");
const CREDITS = byPath("get", "/v1/account/credits");
const POSTS = byPath("post", "/v1/posts");
/** The music-from-video create, whose path the description does not show (x-not-shown path). */
const MUSIC = contract.operations.find((op) => op.create?.label === "A-A") as ContractOperation;
const UNSECURED = Object.keys(STOCK_SECURITY).map((path) => byPath("get", path).route);

/** The results of the auth group alone, run against the sandbox with `hooks` and the declaration changed by `declaration`. */
async function authResults(hooks: SandboxHooks, declaration: Partial<TargetConfig> = {}): Promise<CheckResult[]> {
  const sandbox = await startSandbox({ config: fastSandboxConfig(defaults), hooks });
  try {
    const config = { ...declared, ...declaration, skipGroups: CHECK_GROUPS.filter((group) => group !== auth.group) };
    return (await runConformance({ target: sandbox.url, config, contract })).results.filter(
      (result) => result.group === auth.group,
    );
  } finally {
    await sandbox.close();
  }
}

/** An answer hook changing the 401s to requests of `op` that `picks` (by the Authorization header sent). */
const on =
  (op: ContractOperation, picks: (authorization: string | null) => boolean, change: (answer: Answer) => Answer) =>
  (answer: Answer, call: Call | undefined): Answer =>
    call?.op.operationId === op.facts.operationId && answer.status === 401 && picks(call.authorization)
      ? change(answer)
      : answer;

const routeResults = (results: CheckResult[], route: string) => results.filter((result) => result.route === route);
const outcomesOn = (results: CheckResult[], route: string) =>
  Object.fromEntries(routeResults(results, route).map((result) => [result.name, result.outcome]));
const resultOf = (results: CheckResult[], route: string, name: string): CheckResult | undefined =>
  routeResults(results, route).find((result) => result.name === name);

describe("the auth check", () => {
  it("is summed up in conformance/README.md's table of check groups as in --help", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`auth\` | ${auth.summary} |`);
  });

  it("passes every secured operation's 401s, fails a 403 to a bad Authorization header, a 404 to none and a 401 without the error body, and leaves alone operations that demand no credentials", async () => {
    const faults = [
      // A bad Authorization header taken for a known caller without permission: 403, not 401.
      on(
        MODELS,
        (authorization) => Boolean(authorization),
        (answer) => ({ ...answer, status: 403 }),
      ),
      // No Authorization header at all answered as an unknown route.
      on(
        CREDITS,
        (authorization) => authorization === null,
        (answer) => ({ ...answer, status: 404 }),
      ),
      // The 401 with a body that is not the Error object.
      on(
        POSTS,
        () => true,
        (answer) => ({ ...answer, body: { message: "Unauthorized" } }),
      ),
    ];
    const results = await authResults({
      answer: (answer, call) => faults.reduce((changed, fault) => fault(changed, call), answer),
    });

    // Every request carries the bearer key: each operation that demands it gets the four cases, all 401s.
    const honest = contract.operations.filter(
      (op) => ![MODELS, CREDITS, POSTS].includes(op) && !UNSECURED.includes(op.route),
    );
    expect(honest.length).toBeGreaterThan(30);
    for (const op of honest)
      expect(outcomesOn(results, op.route), op.route).toEqual(Object.fromEntries(CASES.map((name) => [name, "pass"])));

    // Security [], [{}] and [{}, {bearerAuth: []}] demand no credentials: no 401 is asked for.
    for (const route of UNSECURED) expect(routeResults(results, route), route).toEqual([]);

    // 403 is "authenticated but not permitted": a malformed header or an unknown key is not authenticated.
    expect(outcomesOn(results, MODELS.route)).toEqual({
      [NO_HEADER]: "pass",
      [BASIC]: "fail",
      [BEARER_ONLY]: "fail",
      [UNKNOWN_KEY]: "fail",
    });
    for (const name of [BASIC, BEARER_ONLY, UNKNOWN_KEY])
      expect(resultOf(results, MODELS.route, name)?.detail, name).toBe("answered 403, not 401");

    // The credits route's path is shown: a 404 to a request without a key is no 401.
    expect(outcomesOn(results, CREDITS.route)).toEqual({
      [NO_HEADER]: "fail",
      [BASIC]: "pass",
      [BEARER_ONLY]: "pass",
      [UNKNOWN_KEY]: "pass",
    });
    expect(resultOf(results, CREDITS.route, NO_HEADER)?.detail).toBe("answered 404, not 401");

    // 401 "with an Error body".
    for (const name of CASES) {
      const result = resultOf(results, POSTS.route, name);
      expect(result?.outcome, name).toBe("fail");
      expect(result?.detail, name).toContain("body of 401 does not match its schema");
    }
  });

  it("without checksApiKey skips only the unknown key, and without describedShapes skips a 404 where the route's path is not shown, not where it is", async () => {
    const results = await authResults(
      {
        answer: (answer, call) =>
          [
            on(
              MUSIC,
              (authorization) => authorization === null,
              (changed) => ({ ...changed, status: 404 }),
            ),
            on(
              CREDITS,
              (authorization) => authorization === null,
              (changed) => ({ ...changed, status: 404 }),
            ),
          ].reduce((changed, fault) => fault(changed, call), answer),
      },
      // The areas of the two routes given a fault, and the model list.
      { checksApiKey: false, describedShapes: false, areas: [MUSIC.area, CREDITS.area, MODELS.area] },
    );

    const checked = contract.operations.filter((op) => [MUSIC.area, CREDITS.area, MODELS.area].includes(op.area));
    expect(checked).toEqual(expect.arrayContaining([MUSIC, CREDITS, MODELS]));
    for (const op of checked) {
      // A target that accepts any bearer token (the mock) cannot be asked to refuse an unknown one.
      expect(resultOf(results, op.route, UNKNOWN_KEY), op.route).toMatchObject({
        outcome: "skip",
        detail: "the target accepts any bearer token (Prism checks only the scheme)",
      });
      // The missing and malformed headers are still sent, and refused with 401.
      for (const name of [BASIC, BEARER_ONLY])
        expect(resultOf(results, op.route, name)?.outcome, `${op.route} ${name}`).toBe("pass");
      if (op !== MUSIC && op !== CREDITS)
        expect(resultOf(results, op.route, NO_HEADER)?.outcome, op.route).toBe("pass");
    }

    // The music-from-video route's path is a placeholder: a 404 there may be a target serving it elsewhere.
    const music = resultOf(results, MUSIC.route, NO_HEADER);
    expect(music?.outcome).toBe("skip");
    expect(music?.detail).toMatch(
      /^the target answered 404, which the description allows: the description does not show this route's path \(/,
    );
    // The credits route's path is shown: its 404 fails all the same.
    expect(resultOf(results, CREDITS.route, NO_HEADER)).toMatchObject({
      outcome: "fail",
      detail: "answered 404, not 401",
    });
  });
});
