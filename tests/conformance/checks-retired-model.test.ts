/**
 * The retired-model check (conformance/checks/retired-model.ts) run alone against the sandbox, whose
 * declaration names I-F as retired for the capped key's account (conformance/targets/sandbox.json):
 * specification, Errors: a retired model answers "410 `model_retired`". The honest sandbox passes;
 * a planted fault fails the result, its detail naming what the target answered.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import { retiredModel } from "../../conformance/checks/retired-model.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { templateOf } from "../../conformance/rules.ts";
import { runConformance } from "../../conformance/run.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { startSandbox, type SandboxHooks } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { hooksFor } from "./faults/registry.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";
import { checkSession } from "./support/check-session.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const defaults = sandboxDefaults();
const I_F = contract.operations.find((op) => op.create?.label === "I-F") as ContractOperation;
/** Specification, Errors: "410 | `model_retired`". */
const RETIRED = "a retired model answers 410 model_retired";

/** The retired-model group alone against the sandbox with `hooks`. */
async function retiredRun(hooks: SandboxHooks = {}): Promise<CheckResult[]> {
  const sandbox = await startSandbox({ config: fastSandboxConfig(defaults), hooks });
  try {
    const config = { ...declared, skipGroups: CHECK_GROUPS.filter((group) => group !== retiredModel.group) };
    return (await runConformance({ target: sandbox.url, config, contract })).results.filter(
      (result) => result.group === retiredModel.group,
    );
  } finally {
    await sandbox.close();
  }
}

describe("the retired-model check on the sandbox", () => {
  let honest: CheckResult[];
  beforeAll(async () => {
    honest = await retiredRun();
  });

  it("passes the declared retired model's create, sent with the declared key, answered 410 model_retired", () => {
    // The capped key's account has I-F retired; the main key's has not, so a create sent with it would be accepted.
    expect(honest.map(({ route, name, outcome }) => ({ route, name, outcome }))).toEqual([
      { route: I_F.route, name: RETIRED, outcome: "pass" },
    ]);
  });

  it("names its result by a template of its rules: errors.410-model-retired and versioning.retired-410", () => {
    expect(templateOf(retiredModel, RETIRED)).toBe("a retired model answers {status} {code}");
    expect(retiredModel.rules?.["a retired model answers {status} {code}"]).toEqual([
      "errors.410-model-retired",
      "versioning.retired-410",
    ]);
  });
});

describe("the retired-model check fails what the specification's 410 model_retired rules out", () => {
  it("fails a 410 with another code, naming the code", async () => {
    const results = await retiredRun(hooksFor(["retired-wrong-code"]));
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ route: I_F.route, name: RETIRED, outcome: "fail" });
    // The description's schema (a const code) is broken too; the check names the code itself.
    expect(results[0]?.detail).toContain('error.code is "model_deprecated", not model_retired');
  });

  it("fails another status, even with the right code, quoting at most 200 characters of the answer", async () => {
    const results = await retiredRun({
      answer: (answer) =>
        answer.status === 410
          ? {
              ...answer,
              status: 400,
              body: { error: { type: "invalid_request_error", code: "model_retired", message: "x".repeat(400) } },
            }
          : answer,
    });
    expect(results).toHaveLength(1);
    const [result] = results;
    expect(result).toMatchObject({ route: I_F.route, name: RETIRED, outcome: "fail" });
    expect(result?.detail).toMatch(/^answered 400, not 410: \{"error":/);
    expect(result?.detail).not.toContain("x".repeat(200));
  });
});

describe("what the retired-model check needs", () => {
  const sessionOf = (config: Partial<TargetConfig>) =>
    checkSession({ contract, config: { ...declared, ...config }, apiKey: declared.apiKey as string });

  it("needs retiredModel declared, and a target implementing that model", () => {
    expect(retiredModel.blockedBy?.(sessionOf({ retiredModel: undefined }))).toBe(
      "the declaration gives no retiredModel",
    );
    expect(retiredModel.blockedBy?.(sessionOf({}))).toBeNull();
    expect(retiredModel.blockedBy?.(sessionOf({ models: ["I-A"] }))).toBe("the target does not implement I-F");
  });

  it("is summed up in conformance/README.md's table of check groups as in --help", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`retired-model\` | ${retiredModel.summary} |`);
  });
});
