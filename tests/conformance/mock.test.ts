import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOCK_CONFIG } from "../../conformance/config.ts";
import { Contract } from "../../conformance/contract.ts";
import { negativeCases } from "../../conformance/negative-cases.ts";
import { startMock, type RunningPrism } from "../../conformance/prism.ts";
import { retryAfterFor, retryAfterVariants } from "../../conformance/retry-after.ts";
import { runSuite } from "../../conformance/suite.ts";

const contract = new Contract();
let mock: RunningPrism;

beforeAll(async () => {
  mock = await startMock({ snapshot: contract.doc });
});
afterAll(async () => {
  await mock?.stop();
});

const post = (path: string, body: unknown, headers: Record<string, string> = { authorization: "Bearer any-key" }) =>
  fetch(mock.baseUrl + path, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) });

const firstExample = (path: string): unknown => {
  const op = contract.operations.find((candidate) => candidate.path === path && candidate.method === "post");
  return op?.requestExamples[0]?.value;
};

describe("npm run conformance against the Prism mock", () => {
  it("passes every contract check, and every error example of the description is selectable", { timeout: 180_000 }, async () => {
    const results = await runSuite(contract, MOCK_CONFIG, { sendUrl: mock.baseUrl, targetUrl: mock.baseUrl, apiKey: "any-key" }, false);
    expect(results.failures).toEqual([]);
    const passed = (group: string, route: string): number =>
      results.all.filter((result) => result.group === group && result.route === route && result.outcome === "pass").length;
    for (const op of contract.operations) {
      if (!op.requestSchema || op.requestExamples.length > 0) expect(passed("operations", op.route), op.route).toBeGreaterThan(0);
      const errorExamples = Object.entries(op.responses)
        .filter(([status]) => !status.startsWith("2"))
        .flatMap(([, response]) => contract.responseExamples(response));
      expect(passed("error-examples", op.route), op.route).toBe(errorExamples.length);
    }
    // Every 429 variant's body shape was checked through the Prefer header.
    expect(results.all.filter((result) => result.group === "rate-limits" && result.outcome === "pass").length).toBeGreaterThan(0);
    // The mock's front sends Retry-After per variant, so none of those checks is skipped.
    expect(results.all.filter((result) => result.group === "rate-limits" && result.outcome === "skip")).toEqual([]);
  });
});

describe("what the pinned Prism enforces", () => {
  it("reads the description's schemas as JSON Schema 2020-12 (jsonSchemaDialect), so a 2019-09/2020-12-only keyword is enforced", async () => {
    // Prism's http-spec stamps each schema with the document's jsonSchemaDialect and picks Ajv2020 by
    // that $schema; without it every schema is read as draft-07, where these keywords do not exist.
    expect(contract.doc.jsonSchemaDialect).toBe("https://json-schema.org/draft/2020-12/schema");
    const lateKeywords = new Set(["dependentRequired", "dependentSchemas", "prefixItems", "unevaluatedProperties", "unevaluatedItems"]);
    const draft07 = new Ajv({ strict: false });
    const cases = contract.operations.flatMap((op) =>
      op.requestSchema
        ? negativeCases(op.requestSchema, op.requestExamples.map((example) => example.value), contract.registry)
            .cases.filter((negative) => lateKeywords.has(negative.constraint.keyword))
            .map((negative) => ({ op, negative }))
        : [],
    );
    expect(cases.length).toBeGreaterThan(0);
    for (const { op, negative } of cases) {
      // Control: a draft-07 validator accepts the body, so only the 2020-12 keyword can reject it.
      expect(draft07.validate(op.requestSchema as object, negative.body), negative.rule).toBe(true);
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
    const body = firstExample("/v1/images/i-a");
    expect((await post("/v1/images/i-a", body, { authorization: "Bearer any-made-up-token" })).status).toBe(200);
    expect((await post("/v1/images/i-a", body, {})).status).toBe(401);
    expect((await post("/v1/images/i-a", body, { authorization: "Basic dXNlcjpwYXNz" })).status).toBe(401);
  });

  it("sends Retry-After on a 429 exactly where its variant's x-retry-after says (Prism alone sends it on all)", async () => {
    const body = firstExample("/v1/images/i-a");
    const tooMany = contract.operations.find((candidate) => candidate.route === "POST /v1/images/i-a")?.responses["429"];
    if (!tooMany) throw new Error("POST /v1/images/i-a documents no 429");
    const examples = contract.responseExamples(tooMany);
    const seen = new Set<boolean>();
    for (const example of examples) {
      const response = await post("/v1/images/i-a", body, { authorization: "Bearer k", prefer: `code=429, example=${example.name}` });
      expect(response.status, example.name).toBe(429);
      expect(await response.json(), example.name).toEqual(example.value);
      const sends = retryAfterFor(contract, retryAfterVariants(contract), example.value).sends;
      expect(typeof sends, example.name).toBe("boolean");
      expect(response.headers.has("retry-after"), example.name).toBe(sends);
      seen.add(response.headers.has("retry-after"));
    }
    // Both kinds occur, so the front neither strips every Retry-After nor keeps every one.
    expect([...seen].sort()).toEqual([false, true]);
  });
});
