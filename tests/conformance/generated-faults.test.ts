import { afterEach, describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import { Contract } from "../../contract/contract.ts";
import { formatConsole } from "../../conformance/report.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { runConformance } from "../../conformance/run.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { hooksFor, type FaultName } from "./faults/registry.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";

const GROUP = "generated-requests";
const SEED = 2026;
const contract = new Contract();
const declared = sandboxDeclaration(contract);
const defaults = sandboxDefaults();
/** The generated requests alone, at the default count, polling fast. */
const config: TargetConfig = {
  ...declared,
  skipGroups: CHECK_GROUPS.filter((group) => group !== GROUP),
  poll: { ...declared.poll, intervalMs: 50 },
  generated: { seed: SEED },
};

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** Jobs of 0.1 s: the positives' jobs are followed to their end. */
async function run(
  faults: FaultName[],
  overrides: Partial<TargetConfig> = {},
): Promise<{ results: CheckResult[]; lines: string[]; spent: number | undefined }> {
  sandbox = await startSandbox({ config: fastSandboxConfig(defaults, 0.1), hooks: hooksFor(faults) });
  const lines: string[] = [];
  const { summary, results } = await runConformance({
    target: sandbox.url,
    contract,
    config: { ...config, ...overrides },
    progress: (line) => lines.push(line),
  });
  lines.push(formatConsole(summary, results));
  return { results, lines, spent: summary.spent?.byQuote.credits };
}

/** The fault is looked for in the image area (ten models, the most enums) and on posts, 8 cases each. */
const faultRun: Partial<TargetConfig> = { areas: ["images", "posts"], generated: { seed: SEED, cases: 8 } };

const failures = (results: CheckResult[]): CheckResult[] => results.filter((result) => result.outcome === "fail");
/** The near-miss kinds of the failures: `case-variant` of a seeded case, `case-variant (size)` of a coverage case. */
const kinds = (results: CheckResult[]): Set<string> =>
  new Set(
    failures(results).map((result) => result.name.replace(/^near-miss negative refused: /, "").replace(/ \(.*\)$/, "")),
  );
/** A coverage case's failure names its field, a seeded case's its seed. */
const isCoverage = (result: CheckResult): boolean => / \(.*\)$/.test(result.name);

describe("generated requests against the sandbox", () => {
  it("pass the honest sandbox at the default count, positives that start jobs included within a budget (3D left out: its jobs last seconds)", {
    timeout: 60_000,
  }, async () => {
    // Every area but 3D, whose jobs last seconds even in the fast sandbox.
    const areas = [...new Set(contract.operations.map((op) => op.area))].filter((area) => area !== "3d");
    const { results, lines, spent } = await run([], { budgetCredits: 60_000, areas });
    expect(failures(results)).toEqual([]);
    // What is sent stays within the budget.
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(60_000);
    const passed = results.filter((result) => result.group === GROUP && result.outcome === "pass");
    expect(passed.filter((result) => result.name.startsWith("near-miss negatives refused")).length).toBeGreaterThan(15);
    expect(passed.filter((result) => result.name.startsWith("generated valid requests")).length).toBeGreaterThanOrEqual(
      10,
    );
    expect(lines.join("\n")).toContain(
      `${GROUP}: seed ${SEED}, 3 cases per operation and kind (--seed ${SEED} repeats them)`,
    );
  });

  it("skip positives that start jobs when no budget is declared, naming budgetCredits, and those past the budget", {
    timeout: 60_000,
  }, async () => {
    const positives = (results: CheckResult[]) =>
      results.find((result) => result.group === GROUP && result.name === "generated valid requests")?.detail;
    const unbudgeted = await run([], { areas: ["images"], models: ["I-A"] });
    expect(failures(unbudgeted.results)).toEqual([]);
    expect(positives(unbudgeted.results)).toContain("declare budgetCredits");
    await sandbox?.close();
    const tight = await run([], { areas: ["images"], models: ["I-A"], budgetCredits: 1 });
    expect(positives(tight.results)).toMatch(/^3 of 3 not sent: \d+ credits, past what budgetCredits leaves \(1\)/);
    expect(tight.spent).toBe(0);
  });

  it("report a failure with the seed and a curl line naming no real key, shrunk to a body with no optional field but the near miss", {
    timeout: 60_000,
  }, async () => {
    const { results, lines } = await run(["enum-case-insensitive"], faultRun);
    expect(kinds(results)).toEqual(new Set(["case-variant"]));
    // The coverage phase finds the fault on every enum field of every image model, whatever the seed.
    const covered = failures(results).filter(isCoverage);
    expect(new Set(covered.map((failure) => failure.name))).toEqual(
      new Set(
        ["size", "aspect_ratio", "background", "license", "sequential_image_generation"].map(
          (field) => `near-miss negative refused: case-variant (${field})`,
        ),
      ),
    );
    const report = lines.join("\n");
    for (const failure of covered) expect(report).toContain(failure.curl);
    const seeded = failures(results).filter((failure) => !isCoverage(failure));
    expect(seeded.length).toBeGreaterThan(3);
    const leftBeside = seeded.map((failure) => {
      expect(failure.detail).toContain(`seed ${SEED}, --cases 8: --seed ${SEED} repeats it`);
      // Negatives go with the planDiscounts key (sparing the main key's rate-limit window), named by its variable.
      expect(failure.curl).toMatch(/^curl .*\$CONFORMANCE_PLAN_DISCOUNTS_KEY/);
      expect(failure.curl).not.toContain(declared.planDiscounts?.apiKey as string);
      // The console report shows the failure with its curl line.
      expect(report).toContain(failure.curl);
      const op = contract.operations.find((candidate) => candidate.route === failure.route);
      const field = /^case-variant (\S+) /.exec(failure.detail ?? "")?.[1];
      const body = JSON.parse(/--data-raw '(.*)'$/s.exec(failure.curl ?? "")?.[1] ?? "{}") as Record<string, unknown>;
      expect(body[field ?? ""], failure.curl).toMatch(/^[^a-z]*$|^[^A-Z]*$/);
      // A create's negative could start a job by mistake: it is sent marked to fail, so uncharged.
      if (op?.create) expect(String(body.prompt)).toContain(declared.outcomeMarkers.failed);
      return Object.keys(body).filter(
        (key) => key !== field && key !== "prompt" && !((op?.requestSchema?.required ?? []) as string[]).includes(key),
      );
    });
    // Shrunk: beside the near-missed field, only what is required and the prompt carrying the marker.
    expect(leftBeside).toEqual(leftBeside.map(() => []));
  });
});
