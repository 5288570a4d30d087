import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Contract } from "../../contract/contract.ts";
import { firstRequestExample } from "../support/description.ts";
import { startMock, type RunningPrism } from "../../mock/prism.ts";
import { retryAfterFor } from "../../contract/retry-after.ts";
import { runConformance } from "../../conformance/run.ts";
import { pricedPathOf } from "../client/labels.ts";

const contract = new Contract();
/** I-A's create route, with this build's slug. */
const IA = pricedPathOf("I-A");
let mock: RunningPrism;

beforeAll(async () => {
  mock = await startMock({ snapshot: contract.doc });
});
afterAll(async () => {
  await mock?.stop();
});

const post = (path: string, body: unknown, headers: Record<string, string> = { authorization: "Bearer any-key" }) =>
  fetch(mock.baseUrl + path, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("npm run conformance against the Prism mock", () => {
  it("passes every contract check, every error example of the description is selectable, and the stateful checks say why they are skipped", {
    timeout: 120_000,
  }, async () => {
    const lines: string[] = [];
    const { summary, results } = await runConformance({ contract, mock, progress: (line) => lines.push(line) });
    expect(results.filter((result) => result.outcome === "fail")).toEqual([]);
    const passed = (group: string, route: string): number =>
      results.filter((result) => result.group === group && result.route === route && result.outcome === "pass").length;
    for (const op of contract.operations) {
      const errorExamples = Object.entries(op.responses)
        .filter(([status]) => !status.startsWith("2"))
        .flatMap(([, response]) => contract.responseExamples(response));
      expect(passed("error-examples", op.route), op.route).toBe(errorExamples.length);
      if (op.create) expect(passed("lifecycle", op.route), op.route).toBe(op.requestExamples.length);
    }
    // The mock's front sends Retry-After per variant, so none of the 429 checks is skipped.
    expect(
      results.filter((result) => result.group === "rate-limits" && result.route !== "*" && result.outcome === "skip"),
    ).toEqual([]);
    const skipped = (group: string) =>
      results.find((result) => result.group === group && result.name === `group ${group}`)?.detail;
    expect(skipped("billing")).toBe("the target is stateless");
    expect(skipped("plan-gate")).toBe("the declaration gives no freePlanKey");
    expect(summary.spent).toBeUndefined();
    expect(
      lines.some((line) => /^\[ *\d+\.\ds\] lifecycle: done/.test(line)),
      lines.join("\n"),
    ).toBe(true);
  });
});

describe("the mock's front", () => {
  it("answers a Prefer example the operation does not document with 422 naming the valid choices, where Prism alone answers 500", async () => {
    const response = await post(IA, firstRequestExample(IA), {
      authorization: "Bearer k",
      prefer: "code=429, example=queue-ful",
    });
    expect(response.status).toBe(422);
    const message = ((await response.json()) as { error: { message: string } }).error.message;
    expect(message).toContain(`Prefer example=queue-ful: no 429 response of POST ${IA} has an example of that name`);
    expect(message).toContain('"code=429, example=queue-full"');
  });

  it("answers a Prefer status the operation does not document with 422 naming the documented ones", async () => {
    const response = await post(IA, firstRequestExample(IA), { authorization: "Bearer k", prefer: "code=418" });
    expect(response.status).toBe(422);
    expect(
      ((await response.json()) as { error: { message: string } }).error.message.startsWith(
        `Prefer code=418: POST ${IA} documents no 418 response (documented: 200, 400, 401, 403, 410, 429)`,
      ),
    ).toBe(true);
  });

  it("answers ten megabytes of [0,0,…] itself, with the 400 naming the bound, and keeps serving: Prism never reads them", async () => {
    const body = `[${Array(5_000_000).fill("0").join(",")}]`;
    const answer = await fetch(`${mock.baseUrl}/v1/cost`, {
      method: "POST",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body,
    });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toBe(
      "body: holds 5000000 array items and object members; a request holds at most 10000",
    );
    const credits = await fetch(`${mock.baseUrl}/v1/account/credits`, { headers: { authorization: "Bearer k" } });
    expect(credits.status).toBe(200);
  });

  it("finds the operation of a templated path (a poll) for the check", async () => {
    const response = await fetch(`${mock.baseUrl}/v1/images/img_x`, {
      headers: { authorization: "Bearer k", prefer: "example=nope" },
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain("GET /v1/images/{id}");
  });
});

describe("what the pinned Prism enforces", () => {
  it("reads the description's schemas as JSON Schema 2020-12 (jsonSchemaDialect), so a 2019-09/2020-12-only keyword is enforced", async () => {
    // Prism's http-spec stamps each schema with the document's jsonSchemaDialect and picks Ajv2020 by
    // that $schema; without it every schema is read as draft-07, where these keywords do not exist.
    expect(contract.doc.jsonSchemaDialect).toBe("https://json-schema.org/draft/2020-12/schema");
    const lateKeywords = new Set([
      "dependentRequired",
      "dependentSchemas",
      "prefixItems",
      "unevaluatedProperties",
      "unevaluatedItems",
    ]);
    const draft07 = new Ajv({ strict: false });
    const cases = contract.operations.flatMap((op) =>
      contract
        .negativeCases(op)
        .cases.filter((negative) => lateKeywords.has(negative.constraint.keyword) && !negative.alsoBreaks)
        .map((negative) => ({ op, negative })),
    );
    expect(cases.length).toBeGreaterThan(0);
    for (const { op, negative } of cases) {
      // Control: a draft-07 validator accepts the body, so only the 2020-12 keyword can reject it.
      // The schema with the document's components beside it, which its $refs (MediaUrl) point into.
      const schema = { ...(op.requestSchema as object), components: contract.doc.components };
      expect(draft07.validate(schema, negative.body), negative.rule).toBe(true);
      const response = await post(op.path, negative.body);
      expect(response.status, `${op.route} ${JSON.stringify(negative.body)}`).toBe(400);
      expect(response.headers.get("sl-violations") ?? "").toContain(negative.constraint.keyword);
    }
    // Counter-proof: the same description without jsonSchemaDialect lets Prism accept the body.
    const { jsonSchemaDialect: _dropped, ...withoutDialect } = contract.doc;
    const draft07Mock = await startMock({ snapshot: withoutDialect });
    try {
      const { op, negative } = cases[0] as (typeof cases)[number];
      const response = await fetch(draft07Mock.baseUrl + op.path, {
        method: "POST",
        headers: { authorization: "Bearer any-key", "content-type": "application/json" },
        body: JSON.stringify(negative.body),
      });
      expect(response.status).toBe(200);
    } finally {
      await draft07Mock.stop();
    }
  });

  it("checks only the scheme of the Authorization header: any bearer token is accepted, so unknown keys cannot be checked against the mock", async () => {
    const body = firstRequestExample(IA);
    expect((await post(IA, body, { authorization: "Bearer any-made-up-token" })).status).toBe(200);
    expect((await post(IA, body, {})).status).toBe(401);
    expect((await post(IA, body, { authorization: "Basic dXNlcjpwYXNz" })).status).toBe(401);
  });

  it("sends Retry-After on a 429 exactly where its variant's x-retry-after says (Prism alone sends it on all), and the cooldown's header agrees with its body", async () => {
    const body = firstRequestExample(IA);
    const tooMany = contract.byPath("post", IA)?.responses["429"];
    if (!tooMany) throw new Error(`POST ${IA} documents no 429`);
    const seen = new Set<boolean>();
    let secondsInBody = 0;
    for (const example of contract.responseExamples(tooMany)) {
      const response = await post(IA, body, { authorization: "Bearer k", prefer: `code=429, example=${example.name}` });
      expect(response.status, example.name).toBe(429);
      expect(await response.json(), example.name).toEqual(example.value);
      const verdict = retryAfterFor(contract, example.value);
      expect(typeof verdict.sends, example.name).toBe("boolean");
      expect(response.headers.has("retry-after"), example.name).toBe(verdict.sends);
      const field = verdict.matching[0]?.secondsField;
      if (field) {
        expect(response.headers.get("retry-after"), example.name).toBe(
          String((example.value as Record<string, unknown>)[field]),
        );
        secondsInBody += 1;
      }
      seen.add(response.headers.has("retry-after"));
    }
    // The cooldown's body carries its seconds, so the header was compared with a body at least once.
    expect(secondsInBody).toBeGreaterThan(0);
    // Both kinds occur, so the front neither strips every Retry-After nor keeps every one.
    expect([...seen].sort()).toEqual([false, true]);
  });
});
