/**
 * How long `npm run conformance` takes, end to end: against the sandbox as `npm run sandbox` starts
 * it (its default config: the description's limits, 3-s jobs, 3D jobs of the description's two
 * minutes), with the sandbox's own declaration (conformance/targets/sandbox.json), stateful checks
 * included, once as it is (its generated requests at the default count among its checks) and once
 * without the generated requests, to show what they cost; and against the Prism mock, which the run
 * starts itself. Each must pass, each against a sandbox of its own.
 */
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import { TARGET_DEFAULTS, readTargetConfig, type TargetConfig } from "../../conformance/config.ts";
import { Contract } from "../../contract/contract.ts";
import { runConformance } from "../../conformance/run.ts";
import { startSandbox } from "../../sandbox/server.ts";
import type { Figure, Measurement } from "../measurement.ts";

const SANDBOX_DECLARATION = "conformance/targets/sandbox.json";

/** Seconds a run took, or an error naming its failures. */
async function timed(run: () => ReturnType<typeof runConformance>): Promise<{ seconds: number; checks: number }> {
  const started = Date.now();
  const { summary, results } = await run();
  if (summary.fail > 0) {
    const failures = results.filter((result) => result.outcome === "fail").slice(0, 3);
    throw new Error(
      `the conformance run failed ${summary.fail} checks: ${failures.map((failure) => `[${failure.group}] ${failure.name}: ${failure.detail}`).join("; ")}`,
    );
  }
  return { seconds: (Date.now() - started) / 1000, checks: summary.pass };
}

/** A run against a sandbox of its own, started as `npm run sandbox` starts it. */
async function againstSandbox(config: TargetConfig): Promise<{ seconds: number; checks: number }> {
  const sandbox = await startSandbox();
  try {
    return await timed(() => runConformance({ target: sandbox.url, config }));
  } finally {
    await sandbox.close();
  }
}

export const conformanceRuns: Measurement = {
  name: "conformance-runs",
  async run(): Promise<Figure[]> {
    const declared = readTargetConfig(
      { CONFORMANCE_CONFIG: SANDBOX_DECLARATION },
      TARGET_DEFAULTS,
      new Contract(),
      CHECK_GROUPS,
    );
    const vsSandbox = await againstSandbox(declared);
    const withoutGenerated = await againstSandbox({
      ...declared,
      skipGroups: [...declared.skipGroups, "generated-requests"],
    });
    const vsMock = await timed(() => runConformance({}));
    return [
      {
        label: "npm run conformance vs the sandbox (default config)",
        value: Math.round(vsSandbox.seconds * 10) / 10,
        unit: "s",
        note: `${vsSandbox.checks} checks passed, stateful ones included, generated requests at the default count; in-process sandbox, ${SANDBOX_DECLARATION}`,
      },
      {
        label: "the same without the generated requests",
        value: Math.round(withoutGenerated.seconds * 10) / 10,
        unit: "s",
        note: `${withoutGenerated.checks} checks passed`,
      },
      {
        label: "npm run conformance vs the Prism mock",
        value: Math.round(vsMock.seconds * 10) / 10,
        unit: "s",
        note: `${vsMock.checks} checks passed; Prism started by the run`,
      },
    ];
  },
};
