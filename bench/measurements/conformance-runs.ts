/**
 * How long `npm run conformance` takes, end to end: against the sandbox as `npm run sandbox` starts
 * it (its default config: the description's limits, 6-s jobs, 3D jobs of the description's two
 * minutes), with the sandbox's own declaration (conformance/targets/sandbox.json), stateful checks
 * included; and against the Prism mock, which the run starts itself. Each must pass.
 */
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
    throw new Error(`the conformance run failed ${summary.fail} checks: ${failures.map((failure) => `[${failure.group}] ${failure.name}: ${failure.detail}`).join("; ")}`);
  }
  return { seconds: (Date.now() - started) / 1000, checks: summary.pass };
}

export const conformanceRuns: Measurement = {
  name: "conformance-runs",
  async run(): Promise<Figure[]> {
    const sandbox = await startSandbox();
    let vsSandbox: { seconds: number; checks: number };
    try {
      vsSandbox = await timed(() => runConformance({ target: sandbox.url }, { CONFORMANCE_CONFIG: SANDBOX_DECLARATION }));
    } finally {
      await sandbox.close();
    }
    const vsMock = await timed(() => runConformance({}));
    return [
      { label: "npm run conformance vs the sandbox (default config)", value: Math.round(vsSandbox.seconds * 10) / 10, unit: "s", note: `${vsSandbox.checks} checks passed, stateful ones included; in-process sandbox, ${SANDBOX_DECLARATION}` },
      { label: "npm run conformance vs the Prism mock", value: Math.round(vsMock.seconds * 10) / 10, unit: "s", note: `${vsMock.checks} checks passed; Prism started by the run` },
    ];
  },
};
