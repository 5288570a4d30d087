import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import { TARGET_DEFAULTS, readTargetConfig, type TargetConfig } from "../../conformance/config.ts";
import { Contract } from "../../conformance/contract.ts";
import { formatConsole } from "../../conformance/report.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { runConformance } from "../../conformance/run.ts";
import type { JsonSchema } from "../../model/document.ts";
import { DEFAULT_CONFIG_FILE } from "../../sandbox/config.ts";
import { RULES, type Rule } from "../../sandbox/rules.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import type { SandboxState } from "../../sandbox/state.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";

const GROUP = "generated-requests";
const SEED = 2026;
const contract = new Contract();
const declared = readTargetConfig({ CONFORMANCE_CONFIG: "conformance/targets/sandbox.json" }, TARGET_DEFAULTS, contract, CHECK_GROUPS);
const defaults = JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, "utf8")) as { jobs?: object };
/** The generated requests alone, at the default count, polling fast. */
const config: TargetConfig = { ...declared, skipGroups: CHECK_GROUPS.filter((group) => group !== GROUP), poll: { ...declared.poll, intervalMs: 50 }, generated: { seed: SEED } };

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

type Mutation = (field: string, property: JsonSchema, siblings: JsonSchema[]) => JsonSchema;

/**
 * A sandbox whose request validation reads each property's schema through `mutate`: the honest
 * request-body rule, given the mutated schemas.
 */
function validatingWith(mutate: Mutation): readonly Rule[] {
  const schemas = new Map<string, { schema: JsonSchema; validate: ReturnType<Contract["registry"]["compile"]>; required: boolean }>();
  for (const op of contract.operations) {
    if (!op.requestSchema) continue;
    const siblings = contract.operations.filter((other) => other.area === op.area && other.create && other !== op).map((other) => (other.requestSchema?.properties ?? {}) as Record<string, JsonSchema>);
    const properties = Object.fromEntries(
      Object.entries((op.requestSchema.properties ?? {}) as Record<string, JsonSchema>).map(([field, property]) => [field, mutate(field, property, siblings.flatMap((other) => (other[field] ? [other[field]] : [])))]),
    );
    const schema = { ...op.requestSchema, properties };
    schemas.set(op.facts.operationId, { schema, validate: contract.registry.compile(schema), required: op.operation.requestBody?.required ?? false });
  }
  return RULES.map((rule) =>
    rule.name !== "request-body" ? rule : { name: rule.name, check: (call, state) => rule.check(call, Object.assign(Object.create(state) as SandboxState, { requestSchemas: schemas })) },
  );
}

/** Jobs of 0.1 s: the positives' jobs are followed to their end. */
async function run(rules?: readonly Rule[], overrides: Partial<TargetConfig> = {}): Promise<{ results: CheckResult[]; lines: string[]; spent: number | undefined }> {
  sandbox = await startSandbox({ config: fastSandboxConfig(defaults, 0.1), ...(rules ? { rules } : {}) });
  const lines: string[] = [];
  const { summary, results } = await runConformance({ target: sandbox.url, contract, config: { ...config, ...overrides }, progress: (line) => lines.push(line) });
  lines.push(formatConsole(summary, results));
  return { results, lines, spent: summary.spent?.byQuote.credits };
}

/** The faults are looked for in the image area (ten models, the most siblings) and on posts, 8 cases each. */
const faultRun: Partial<TargetConfig> = { areas: ["images", "posts"], generated: { seed: SEED, cases: 8 } };

const failures = (results: CheckResult[]): CheckResult[] => results.filter((result) => result.outcome === "fail");
const kinds = (results: CheckResult[]): Set<string> => new Set(failures(results).map((result) => result.name.replace(/^near-miss negative refused: /, "")));

describe("generated requests against the sandbox", () => {
  it("pass the honest sandbox at the default count, positives that start jobs included within a budget (3D left out: its jobs last seconds)", { timeout: 60_000 }, async () => {
    // Every area but 3D, whose jobs last seconds even in the fast sandbox.
    const areas = [...new Set(contract.operations.map((op) => op.area))].filter((area) => area !== "3d");
    const { results, lines, spent } = await run(undefined, { budgetCredits: 60_000, areas });
    expect(failures(results)).toEqual([]);
    // What is sent stays within the budget.
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(60_000);
    const passed = results.filter((result) => result.group === GROUP && result.outcome === "pass");
    expect(passed.filter((result) => result.name.startsWith("near-miss negatives refused")).length).toBeGreaterThan(15);
    expect(passed.filter((result) => result.name.startsWith("generated valid requests")).length).toBeGreaterThanOrEqual(10);
    expect(lines.join("\n")).toContain(`${GROUP}: seed ${SEED}, 3 cases per operation and kind (--seed ${SEED} repeats them)`);
  });

  it("skip positives that start jobs when no budget is declared, naming budgetCredits, and those past the budget", { timeout: 60_000 }, async () => {
    const positives = (results: CheckResult[]) => results.find((result) => result.group === GROUP && result.name === "generated valid requests")?.detail;
    const unbudgeted = await run(undefined, { areas: ["images"], models: ["I-A"] });
    expect(failures(unbudgeted.results)).toEqual([]);
    expect(positives(unbudgeted.results)).toContain("declare budgetCredits");
    await sandbox?.close();
    const tight = await run(undefined, { areas: ["images"], models: ["I-A"], budgetCredits: 1 });
    expect(positives(tight.results)).toMatch(/^3 of 3 not sent: \d+ credits, past what budgetCredits leaves \(1\)/);
    expect(tight.spent).toBe(0);
  });

  it("catch validation against the union of the area's enums, with the seed and a curl line naming no real key", { timeout: 60_000 }, async () => {
    const union: Mutation = (_, property, siblings) =>
      Array.isArray(property.enum) ? { ...property, enum: [...new Set([...property.enum, ...siblings.flatMap((sibling) => (Array.isArray(sibling.enum) ? sibling.enum : []))])] } : property;
    const { results, lines } = await run(validatingWith(union), faultRun);
    expect(kinds(results)).toEqual(new Set(["sibling-value"]));
    const failure = failures(results)[0] as CheckResult;
    expect(failure.detail).toContain(`allowed for `);
    expect(failure.detail).toContain(`seed ${SEED}, --cases 8: --seed ${SEED} repeats it`);
    expect(failure.curl).toMatch(/^curl .*\$CONFORMANCE_API_KEY/);
    expect(failure.curl).not.toContain(declared.apiKey as string);
    // The console report shows the failure with its seed and curl line.
    expect(lines.join("\n")).toContain(failure.curl);
    expect(lines.join("\n")).toContain(`--seed ${SEED} repeats it`);
  });

  it("catch a maximum one too high", { timeout: 60_000 }, async () => {
    const onePast: Mutation = (_, property) => (typeof property.maximum === "number" ? { ...property, maximum: property.maximum + 1 } : property);
    const { results } = await run(validatingWith(onePast), faultRun);
    expect(kinds(results)).toEqual(new Set(["off-by-one"]));
    expect(failures(results).map((result) => result.detail).join("\n")).toMatch(/maximum \d+ \+ 1/);
  });

  it("catch enums compared without case, the failure shrunk to a body with no optional field but the near miss", { timeout: 60_000 }, async () => {
    const anyCase: Mutation = (_, property) =>
      Array.isArray(property.enum) ? { ...property, enum: property.enum.flatMap((value) => (typeof value === "string" ? [value, value.toLowerCase(), value.toUpperCase()] : [value])) } : property;
    const { results } = await run(validatingWith(anyCase), faultRun);
    expect(kinds(results)).toEqual(new Set(["case-variant"]));
    expect(failures(results).length).toBeGreaterThan(3);
    const leftBeside = failures(results).map((failure) => {
      const op = contract.operations.find((candidate) => candidate.route === failure.route);
      const field = /^case-variant (\S+) /.exec(failure.detail ?? "")?.[1];
      const body = JSON.parse(/--data-raw '(.*)'$/s.exec(failure.curl ?? "")?.[1] ?? "{}") as Record<string, unknown>;
      expect(body[field ?? ""], failure.curl).toMatch(/^[^a-z]*$|^[^A-Z]*$/);
      // A create's negative could start a job by mistake: it is sent marked to fail, so uncharged.
      if (op?.create) expect(String(body.prompt)).toContain(declared.outcomeMarkers.failed);
      return Object.keys(body).filter((key) => key !== field && key !== "prompt" && !((op?.requestSchema?.required ?? []) as string[]).includes(key));
    });
    // Shrunk: beside the near-missed field, only what is required and the prompt carrying the marker.
    expect(leftBeside).toEqual(leftBeside.map(() => []));
  });
});
