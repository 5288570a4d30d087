/**
 * The request-validation check (a body breaking a constraint of the request schema gets 400 and the
 * error body: specification, Errors, and "Enum values and ranges are exact") run alone against the
 * sandbox, with a fault planted on one route: the honest routes pass, the faulty one fails naming
 * what it answered. The whole run's assertions are in one test, so that a mutant of the check runs
 * against the test that reached it (a run in a beforeAll would count for no test, and Stryker would
 * run each of its mutants against every test).
 *
 * The description is a variant whose `POST /v1/posts` documents no 400 response, and whose negative
 * cases for `POST /v1/uploads` hold a constraint no small edit of the examples breaks.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import { negativeResult, requestValidation } from "../../conformance/checks/request-validation.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import { runConformance } from "../../conformance/run.ts";
import type { NegativeCase, NegativeCaseSet } from "../../contract/bodies/negative-cases.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { loadBundle } from "../../model/document.ts";
import { startSandbox } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";
import { checkSession } from "./support/check-session.ts";

/** A rule of the uploads body that, in this variant, no small edit of the examples breaks. */
const UNCOVERED = "maxLength on file (#/properties/file)";

class Variant extends Contract {
  override negativeCases(op: ContractOperation): NegativeCaseSet {
    const set = super.negativeCases(op);
    return op.route === "POST /v1/uploads" ? { ...set, uncovered: [...set.uncovered, { rule: UNCOVERED }] } : set;
  }
}

const doc = structuredClone(loadBundle());
const postsResponses = doc.paths["/v1/posts"]?.post?.responses as Record<string, unknown> | undefined;
if (!postsResponses?.["400"]) throw new Error("the description documents no 400 for POST /v1/posts");
delete postsResponses["400"];
const contract = new Variant(doc);

const declared = sandboxDeclaration(contract);
const defaults = sandboxDefaults();

const byRoute = (route: string): ContractOperation => {
  const op = contract.operations.find((candidate) => candidate.route === route);
  if (!op) throw new Error(`the description has no ${route}`);
  return op;
};
const byLabel = (label: string): ContractOperation => {
  const op = contract.operations.find((candidate) => candidate.create?.label === label);
  if (!op) throw new Error(`the description has no create route of ${label}`);
  return op;
};
const COST = byRoute("POST /v1/cost");
const POSTS = byRoute("POST /v1/posts");
const UPLOADS = byRoute("POST /v1/uploads");
/** The music-from-video create, whose path the description does not show (x-not-shown path). */
const MUSIC = byLabel("A-A");
const IMAGE = byLabel("I-A");

/** A negative case breaking `rule` on `field`. */
const negative = (rule: string, field: string, keyword: string, alsoBreaks?: string): NegativeCase => ({
  constraint: { keyword, schemaPath: ["properties", field, keyword], instancePath: [field], node: {}, conditions: [] },
  rule,
  body: {},
  ...(alsoBreaks ? { alsoBreaks } : {}),
});

describe("the request-validation check", () => {
  it("is summed up in conformance/README.md's table of check groups as in --help", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(
      `| \`request-validation\` | ${requestValidation.summary} |`,
    );
  });

  it("names each result by the rule the body breaks, and the others it breaks where it cannot break it alone", () => {
    const alone = negative("enum on license (#/properties/license)", "license", "enum");
    expect(negativeResult(POSTS, alone, true)).toEqual({
      name: "rejects a body breaking enum on license (#/properties/license)",
      unstated: null,
    });
    const among = negative("type on video (#/properties/video)", "video", "type", "required (#/required)");
    expect(negativeResult(MUSIC, among, true)).toEqual({
      name: "rejects a body breaking type on video (#/properties/video) (the body also breaks required (#/required))",
      unstated: null,
    });
    // Without describedShapes, a route whose path is a placeholder may be served elsewhere.
    expect(negativeResult(MUSIC, among, false).unstated).toMatch(/^the description does not show this route's path \(/);
  });

  it("computes each selected operation's negative bodies in prepare, before the target is needed", () => {
    const asked: string[] = [];
    const counting = Object.create(contract, {
      negativeCases: {
        value: (op: ContractOperation): NegativeCaseSet => {
          asked.push(op.route);
          return { cases: [], uncovered: [] };
        },
      },
    }) as Contract;
    const session = checkSession({
      contract: counting,
      config: { ...declared, areas: ["images", "posts"] },
      apiKey: declared.apiKey as string,
      deadlineMs: 60_000,
    });
    requestValidation.prepare?.(session);
    expect(asked).toEqual(session.selected().map((op) => op.route));
    expect(asked).toContain(POSTS.route);
    expect(asked.filter((route) => route.startsWith("POST /v1/images/")).length).toBeGreaterThan(1);
  });

  it("passes the sandbox's 400s, fails a 422, skips a 404 where the route's path is not shown (without describedShapes), and skips an operation without a documented 400 and a rule no edit breaks", async () => {
    // Cost's refusals turned into 422; every request to the music route answered 404.
    const sandbox = await startSandbox({
      config: fastSandboxConfig(defaults),
      hooks: {
        answer: (answer, call) => {
          if (call?.op.operationId === COST.facts.operationId && answer.status === 400)
            return { ...answer, status: 422 };
          if (call?.op.operationId === MUSIC.facts.operationId) return { ...answer, status: 404 };
          return answer;
        },
      },
    });
    let results: Awaited<ReturnType<typeof runConformance>>["results"];
    try {
      const config: TargetConfig = {
        ...declared,
        describedShapes: false,
        models: ["I-A", "A-A"],
        skipGroups: CHECK_GROUPS.filter((group) => group !== requestValidation.group),
      };
      results = (await runConformance({ target: sandbox.url, config, contract })).results.filter(
        (result) => result.group === requestValidation.group,
      );
    } finally {
      await sandbox.close();
    }
    const on = (op: ContractOperation) => results.filter((result) => result.route === op.route);

    // Operations without a request body have no negative cases.
    for (const op of contract.operations.filter((candidate) => !candidate.requestSchema))
      expect(on(op), op.route).toEqual([]);

    // I-A's bodies are all refused with 400 and the error body, the one beyond the listed fields
    // (which, without describedShapes, a target could ignore) included.
    const image = on(IMAGE);
    expect(image).toHaveLength(contract.negativeCases(IMAGE).cases.length);
    expect(image.filter((result) => result.outcome !== "pass")).toEqual([]);
    expect(image.map((result) => result.name)).toContain("rejects a body breaking additionalProperties (#/)");

    // A 422 is no 400.
    expect(on(COST)).toEqual([
      expect.objectContaining({
        name: "rejects a body breaking type (#/)",
        outcome: "fail",
        detail: "answered 422, not 400, to a body breaking this rule",
      }),
    ]);

    // The music route's path is a placeholder: its 404s are skipped with the reason.
    const music = on(MUSIC);
    expect(music).toHaveLength(contract.negativeCases(MUSIC).cases.length);
    for (const result of music) {
      expect(result.outcome, result.name).toBe("skip");
      expect(result.detail, result.name).toMatch(
        /^the target answered 404, which the description allows: the description does not show this route's path \(/,
      );
    }

    expect(on(POSTS)).toMatchObject([
      {
        group: "request-validation",
        route: POSTS.route,
        name: "invalid bodies rejected",
        outcome: "skip",
        detail: "the description documents no 400 response for this operation",
      },
    ]);
    expect(on(UPLOADS)).toMatchObject([
      {
        group: "request-validation",
        route: UPLOADS.route,
        name: `rejects a body breaking ${UNCOVERED}`,
        outcome: "skip",
        detail: "no small edit of the examples breaks this constraint",
      },
    ]);
  });
});
