/**
 * The stock-results check (conformance/checks/stock-results.ts), which sends nothing of its own: it
 * reads the answered stock searches of the run. Specification: a stock search answers at most 20
 * results per page ("Stock search results: 20 per page"), and each result carries its credit line
 * (`attribution.text` and `attribution.html`). Its observer is shown the sandbox's honest pages (a
 * full page of 20 on each of the three stock routes), then pages written here that break one rule
 * each; its conclusion at the run's end must name what broke, route by route.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { stockResults } from "../../conformance/checks/stock-results.ts";
import { validRequests } from "../../conformance/requests.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { templateOf } from "../../conformance/rules.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { startSandbox } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";
import { checkSession, jsonExchange } from "./support/check-session.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const defaults = sandboxDefaults();
const byPath = (path: string) => contract.byPath("get", path) as ContractOperation;
// The specification's three stock searches, the Free plan's operations.
const IMAGES = byPath("/v1/stock/images");
const MUSIC = byPath("/v1/stock/music");
const SOUNDS = byPath("/v1/stock/sound-effects");
const CREDITS = byPath("/v1/account/credits");
const I_A = contract.operations.find((op) => op.create?.label === "I-A") as ContractOperation;

// Specification: 20 results per page.
const PAGE = "a page holds at most 20 results, each with its credit line";
const ANSWERED = "stock searches answered";

const sessionOf = (target = "http://127.0.0.1:9"): Session => {
  const session: Session = checkSession({
    contract,
    config: declared,
    target,
    apiKey: declared.apiKey as string,
    observe: (session, seen) => stockResults.observe?.(session, seen),
  });
  return session;
};

/** One result with its credit line. */
const result = (n: number) => ({
  id: `r${n}`,
  attribution: { text: `"Result ${n}" by someone`, html: `<a href="https://x.invalid/${n}">Result ${n}</a>` },
});
const results = (count: number) => Array.from({ length: count }, (_, index) => result(index + 1));

/** Shows the check an answer of `op` with `json` as its body. */
function answered(session: Session, op: ContractOperation, json: unknown, status = 200): void {
  const exchange = jsonExchange({ method: op.method.toUpperCase(), path: op.path, headers: {} }, status, json);
  stockResults.observe?.(session, { client: session.main, op, exchange, options: {} });
}

/** The check's conclusions after the answers `show` gives it. */
function concluded(show: (session: Session) => void): CheckResult[] {
  const session = sessionOf();
  show(session);
  stockResults.finish?.(session);
  return session.results.all;
}

/** The results in short, by route. */
const brief = (all: CheckResult[]) =>
  all
    .map(({ route, name, outcome, detail }) => ({ route, name, outcome, ...(detail ? { detail } : {}) }))
    .sort((a, b) => a.route.localeCompare(b.route));
const NOT_HELD = "no answered page held results: an empty page is lawful, and the result list's shape is not shown";

describe("the stock-results check on the sandbox's searches", () => {
  it("passes a full page of 20 results, each with attribution.text and attribution.html, on each stock route", async () => {
    const sandbox = await startSandbox({ config: fastSandboxConfig(defaults) });
    try {
      const session = sessionOf(sandbox.url);
      for (const op of [IMAGES, MUSIC, SOUNDS, CREDITS]) {
        const request = validRequests(session, op, session.main)[0]!;
        expect((await session.main.send(op, request.spec)).status).toBe(200);
      }
      stockResults.finish?.(session);
      expect(brief(session.results.all)).toEqual(
        [IMAGES, MUSIC, SOUNDS].map((op) => ({ route: op.route, name: PAGE, outcome: "pass" })),
      );
    } finally {
      await sandbox.close();
    }
  });

  it("names its results by templates of its rules (the page size, the credit line, the stock routes)", () => {
    expect(templateOf(stockResults, PAGE)).toBe("a page holds at most {count} results, each with its credit line");
    expect(stockResults.rules?.["a page holds at most {count} results, each with its credit line"]).toEqual([
      "limits.stock-page-size",
      "resources.stock-result.attribution",
      "route:routes.stock-*",
    ]);
    expect(templateOf(stockResults, ANSWERED)).toBe(ANSWERED);
  });

  it("is summed up in conformance/README.md's table of check groups as in --help", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`stock-results\` | ${stockResults.summary} |`);
  });
});

describe("the stock-results check fails a page that breaks the specification's rules", () => {
  it("fails a page of 21 results, more than 20", () => {
    expect(brief(concluded((session) => answered(session, IMAGES, { results: results(21) })))).toContainEqual({
      route: IMAGES.route,
      name: PAGE,
      outcome: "fail",
      detail: "a page of 21 results, more than 20",
    });
  });

  it("fails results without attribution.text or attribution.html, naming each result by its place on the page", () => {
    const page = [
      result(1),
      { id: "r2", attribution: { text: "Result 2" } },
      { id: "r3", attribution: { text: 3, html: "<b>Result 3</b>" } },
      { id: "r4", attribution: {} },
      { id: "r5", attribution: null },
    ];
    expect(brief(concluded((session) => answered(session, MUSIC, { data: { results: page } })))).toContainEqual({
      route: MUSIC.route,
      name: PAGE,
      outcome: "fail",
      detail:
        "result 2 has no attribution.html; result 3 has no attribution.text; result 4 has no attribution.text or attribution.html; result 5 has no attribution.text or attribution.html",
    });
  });

  it("states each problem once, and at most five", () => {
    const bare = Array.from({ length: 8 }, (_, index) => ({ id: `r${index + 1}`, attribution: { html: "<i>x</i>" } }));
    const all = concluded((session) => {
      answered(session, SOUNDS, { results: bare.slice(0, 2) });
      answered(session, SOUNDS, { results: bare });
    });
    expect(brief(all)).toContainEqual({
      route: SOUNDS.route,
      name: PAGE,
      outcome: "fail",
      detail: [1, 2, 3, 4, 5].map((n) => `result ${n} has no attribution.text`).join("; "),
    });
  });

  it("finds the results wherever the page holds them, in lists within lists", () => {
    const all = concluded((session) =>
      answered(session, IMAGES, { pages: [[result(1), { id: "r2", attribution: {} }]] }),
    );
    expect(brief(all)).toContainEqual({
      route: IMAGES.route,
      name: PAGE,
      outcome: "fail",
      detail: "result 2 has no attribution.text or attribution.html",
    });
  });
});

describe("what the stock-results check judges", () => {
  it("passes a route one of whose pages held results, and skips the stock routes none of whose pages did (an empty page is lawful)", () => {
    const all = concluded((session) => {
      answered(session, IMAGES, { results: results(20) });
      answered(session, MUSIC, { results: [] });
      // A list some of whose items carry no attribution is not a list of results.
      // Neither is a list of strings, nor one with a null among its items.
      answered(session, SOUNDS, { results: [result(1), { id: "r2" }], tags: ["a", "b"], gaps: [null, result(3)] });
    });
    expect(brief(all)).toEqual([
      { route: IMAGES.route, name: PAGE, outcome: "pass" },
      { route: MUSIC.route, name: PAGE, outcome: "skip", detail: NOT_HELD },
      { route: SOUNDS.route, name: PAGE, outcome: "skip", detail: NOT_HELD },
    ]);
  });

  it("judges only stock searches answered 200: not a refused search, not another route's page", () => {
    const all = concluded((session) => {
      answered(session, IMAGES, { results: results(25) }, 429);
      answered(session, I_A, { results: results(25) });
      answered(session, MUSIC, { results: results(3) });
    });
    expect(brief(all)).toEqual([
      { route: IMAGES.route, name: PAGE, outcome: "skip", detail: NOT_HELD },
      { route: MUSIC.route, name: PAGE, outcome: "pass" },
      { route: SOUNDS.route, name: PAGE, outcome: "skip", detail: NOT_HELD },
    ]);
  });

  it("skips the whole check when no stock search was answered 200 in the run", () => {
    const all = concluded((session) => {
      answered(session, IMAGES, { results: results(25) }, 429);
      answered(session, CREDITS, { results: results(25) });
    });
    expect(brief(all)).toEqual([
      { route: "*", name: ANSWERED, outcome: "skip", detail: "no stock search was answered 200 in this run" },
    ]);
  });
});
