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
import { startMock } from "../../mock/prism.ts";
import { startSandbox } from "../../sandbox/server.ts";
import { sender } from "../load.ts";
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

/** The sandbox's declaration (conformance/targets/sandbox.json), read as `npm run conformance -- --config` reads it. */
export const sandboxDeclaration = (): TargetConfig =>
  readTargetConfig({ CONFORMANCE_CONFIG: SANDBOX_DECLARATION }, TARGET_DEFAULTS, new Contract(), CHECK_GROUPS);

/**
 * The run against a sandbox started as `npm run sandbox` starts it, in the sandbox's job lengths:
 * its time over the seconds a job of the sandbox runs (its config), both of one run. The run's time
 * is mostly the chain of jobs it waits on, which a loaded machine does not stretch.
 */
export async function sandboxRunInJobLengths(): Promise<{ jobLengths: number; seconds: number }> {
  const sandbox = await startSandbox();
  try {
    const jobSeconds = sandbox.state.config.jobs.defaultDurationSeconds;
    const { seconds } = await timed(() => runConformance({ target: sandbox.url, config: sandboxDeclaration() }));
    return { jobLengths: seconds / jobSeconds, seconds };
  } finally {
    await sandbox.close();
  }
}

/** Plain requests the run against the mock is set beside: about as many as the run sends (1,311 with the default declaration). */
const BARE_REQUESTS = 1_000;

/** BARE_REQUESTS credit reads sent to `url` one after another, in seconds. */
async function bareReads(url: string): Promise<number> {
  const started = performance.now();
  const send = sender(url, "bench-key");
  for (let request = 0; request < BARE_REQUESTS; request += 1) await send("GET", "/v1/account/credits");
  return (performance.now() - started) / 1000;
}

/**
 * `npm run conformance`'s checks against a running Prism mock, over the time the same mock takes to
 * answer BARE_REQUESTS plain reads, measured just before and just after the run: what the suite
 * costs beyond having Prism answer, with a loaded moment falling on both sides. Prism's start, the
 * rest of the run's time, is Prism's own and the same whatever the suite does.
 */
export async function mockRunOverBareReads(): Promise<{ ratio: number; seconds: number }> {
  const contract = new Contract();
  const mock = await startMock({ snapshot: contract.doc });
  try {
    const before = await bareReads(mock.baseUrl);
    const { seconds } = await timed(() => runConformance({ contract, mock }));
    const after = await bareReads(mock.baseUrl);
    return { ratio: seconds / ((before + after) / 2), seconds };
  } finally {
    await mock.stop();
  }
}

export const conformanceRuns: Measurement = {
  name: "conformance-runs",
  async run(): Promise<Figure[]> {
    const declared = sandboxDeclaration();
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
