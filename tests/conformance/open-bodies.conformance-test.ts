/**
 * The description closes the request schemas whose fields the specification lists all of
 * (`additionalProperties: false`), but the specification never says a field beyond them is refused.
 * An honest implementation that ignores such a field must not fail the suite: the request-validation
 * check reports the acceptance as a skip naming why (conformance/unstated.ts), and the jobs the
 * accepted bodies start (marked to fail) run as the account's charges, never beside the billing
 * check's measurement, so billing passes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import { Contract } from "../../contract/contract.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { runConformance } from "../../conformance/run.ts";
import { DEFAULT_CONFIG_FILE } from "../../sandbox/config.ts";
import { createSchemaRegistry } from "../../model/schema-registry.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import type { RequestSchema, ServiceState } from "../../behaviour/state.ts";
import { wrap } from "./faults/support.ts";
import { readFileSync } from "node:fs";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";

const GROUP = "request-validation";
const contract = new Contract();
const declared = sandboxDeclaration(contract);
const config: TargetConfig = {
  ...declared,
  // This target does not take requests exactly as the description shapes them: it ignores unlisted fields.
  describedShapes: false,
  skipGroups: CHECK_GROUPS.filter((group) => ![GROUP, "billing", "generated-requests"].includes(group)),
};

/** The request schemas without `additionalProperties: false` at their top. */
function openSchemas(state: ServiceState): ReadonlyMap<string, RequestSchema> {
  const registry = createSchemaRegistry(state.model.doc);
  return new Map(
    [...state.requestSchemas].map(([operationId, request]) => {
      const { additionalProperties: _closed, ...schema } = request.schema;
      return [operationId, { ...request, schema, validate: registry.compile(schema) }];
    }),
  );
}

let sandbox: RunningSandbox;
let results: CheckResult[];
beforeAll(async () => {
  let open: ReadonlyMap<string, RequestSchema> | undefined;
  sandbox = await startSandbox({
    config: fastSandboxConfig(
      JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, "utf8")) as { jobs?: object; limits?: object },
    ),
    port: 0,
    hooks: {
      // Validated against the open schemas, then the fields beyond the listed ones are dropped, unread.
      rules: wrap("request-body", (original) => (call, state) => {
        const refused = original(
          call,
          Object.assign(Object.create(state) as ServiceState, { requestSchemas: (open ??= openSchemas(state)) }),
        );
        const listed = state.requestSchemas.get(call.op.operationId)?.schema.properties as object | undefined;
        if (refused || typeof call.body !== "object" || call.body === null || Array.isArray(call.body) || !listed)
          return refused;
        call.body = Object.fromEntries(Object.entries(call.body).filter(([field]) => field in listed));
        return undefined;
      }),
    },
  });
  results = (await runConformance({ target: sandbox.url, config, contract, apiKey: declared.apiKey! })).results;
}, 120_000);
afterAll(() => sandbox?.close());

describe("a target that ignores fields beyond the listed ones", () => {
  it("fails nothing, and each accepted unknown field is a skip that says the specification does not refuse it", () => {
    expect(
      results
        .filter((result) => result.outcome === "fail")
        .map((result) => `${result.route} ${result.name}: ${result.detail}`),
    ).toEqual([]);
    const skipped = results.filter(
      (result) => result.group === GROUP && result.outcome === "skip" && /additionalProperties/.test(result.name),
    );
    expect(skipped.length).toBeGreaterThan(10);
    for (const skip of skipped) expect(skip.detail).toMatch(/does not say that a field beyond them is refused/);
  });

  it("passes billing beside the jobs its accepted bodies start", () => {
    const billing = results.filter((result) => result.group === "billing");
    expect(billing.filter((result) => result.outcome === "pass").map((result) => result.name)).toEqual(
      expect.arrayContaining([
        "a held price is reserved when the job is created",
        "a succeeded job is charged exactly its quote",
        "a failed job is charged nothing",
      ]),
    );
  });
});
