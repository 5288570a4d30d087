import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import { Contract } from "../../contract/contract.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { runConformance } from "../../conformance/run.ts";
import type { JsonSchema } from "../../model/document.ts";
import { createSchemaRegistry } from "../../model/schema-registry.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import type { RequestSchema, ServiceState } from "../../behaviour/state.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { wrap } from "./faults/support.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";

const GROUP = "generated-requests";
const contract = new Contract();
const declared = sandboxDeclaration(contract);
// No outcome markers: before, no near miss of a create was sent without them.
const config: TargetConfig = {
  ...declared,
  outcomeMarkers: {},
  areas: ["images"],
  skipGroups: CHECK_GROUPS.filter((group) => group !== GROUP),
  generated: { seed: 7, cases: 1 },
};
const iB = contract.operations.find((op) => op.create?.label === "I-B")!;

/** The request schemas with I-B's aspect_ratio allowing every image model's values. */
function widened(state: ServiceState): ReadonlyMap<string, RequestSchema> {
  const registry = createSchemaRegistry(state.model.doc);
  const all = new Set(
    contract.operations
      .filter((op) => op.area === iB.area && op.create)
      .flatMap(
        (op) =>
          ((op.requestSchema?.properties as Record<string, JsonSchema> | undefined)?.aspect_ratio?.enum as
            | unknown[]
            | undefined) ?? [],
      ),
  );
  return new Map(
    [...state.requestSchemas].map(([operationId, request]) => {
      if (operationId !== iB.facts.operationId) return [operationId, request];
      const properties = request.schema.properties as Record<string, JsonSchema>;
      const schema = {
        ...request.schema,
        properties: { ...properties, aspect_ratio: { ...properties.aspect_ratio, enum: [...all] } },
      };
      return [operationId, { ...request, schema, validate: registry.compile(schema) }];
    }),
  );
}

let sandbox: RunningSandbox;
let results: CheckResult[];
const lines: string[] = [];
beforeAll(async () => {
  let wide: ReadonlyMap<string, RequestSchema> | undefined;
  sandbox = await startSandbox({
    config: fastSandboxConfig(sandboxDefaults()),
    port: 0,
    hooks: {
      rules: wrap(
        "request-body",
        (original) => (call, state) =>
          original(
            call,
            Object.assign(Object.create(state) as ServiceState, { requestSchemas: (wide ??= widened(state)) }),
          ),
      ),
    },
  });
  results = (
    await runConformance({
      target: sandbox.url,
      config,
      contract,
      apiKey: declared.apiKey!,
      progress: (line) => lines.push(line),
    })
  ).results;
}, 120_000);
afterAll(() => sandbox?.close());

describe("a target that accepts for I-B every image model's aspect_ratio, run without outcome markers", () => {
  it("fails the near-miss negatives of I-B on aspect_ratio, as a sibling model's value", () => {
    expect(iB.requestSchema?.properties).toHaveProperty("aspect_ratio");
    const failures = results.filter((result) => result.outcome === "fail");
    expect(failures.map((failure) => `${failure.route} ${failure.name}`)).toContain(
      `${iB.route} near-miss negative refused: sibling-value (aspect_ratio)`,
    );
    expect(failures.every((failure) => failure.route === iB.route)).toBe(true);
  });

  it("states in the estimate what the near misses could charge if the target wrongly accepted them all, none of them marked", () => {
    const [, creates, unmarked, credits] =
      /^ {2}near-miss negatives: (\d+) creates, which should all be refused; 0 carry the failed-outcome marker; a target wrongly accepting the other (\d+) could charge up to ([\d,]+) credits/m.exec(
        lines.join("\n"),
      ) ?? [];
    expect(Number(creates)).toBeGreaterThan(10);
    expect(unmarked).toBe(creates);
    expect(Number(credits?.replace(/,/g, ""))).toBeGreaterThan(0);
  });
});
