/**
 * A few of the reference's Python and JavaScript (fetch) samples run with python3 and node against
 * the sandbox in npm test: a read in each language and a poll of a job the sandbox holds.
 * `script-samples.e2e.ts` runs every operation's, the creates followed to success at their area's
 * poll cadence (seconds of waiting each, past npm test's budget).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../sandbox/clock.ts";
import { DEFAULT_CONFIG_FILE } from "../../sandbox/config.ts";
import { checkedSandboxes } from "../sandbox/support.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { DEMO_KEY, jobsIn, model, problemsOf, runSample, type ScriptKind } from "./run-samples.ts";

const defaults = JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, "utf8")) as { jobs?: object; limits?: object };
const sandbox = checkedSandboxes();
const imageArea = model.areas.find((area) => area.labelPrefix === "I")!;
/** Each operation with the languages its sample runs in here (npm test's budget: every pair is in the e2e run). */
const RUNS: Array<[operationId: string, kind: ScriptKind]> = [
  [model.account.creditsOperationId, "python"],
  [model.account.creditsOperationId, "fetch"],
  [imageArea.poll.operationId, "python"],
];

describe("the reference's Python and JavaScript samples", () => {
  it(`run against the sandbox: ${RUNS.map((run) => run.join(" in ")).join(", ")}`, { timeout: 60_000 }, async () => {
    const { url } = await sandbox(fastSandboxConfig(defaults) as Record<string, unknown>, { clock: systemClock });
    const results = await Promise.all(
      RUNS.map(([operationId, kind]) =>
        runSample(operationId, kind, { BASE_URL: url, API_KEY: DEMO_KEY }, jobsIn(url)),
      ),
    );
    expect(results.flatMap(problemsOf)).toEqual([]);
    const credits = results.filter((result) => result.operationId === model.account.creditsOperationId);
    for (const result of credits) expect(result.stdout, result.kind).toContain("total_available");
  });

  it("print the status and body of a refusal, and fail", { timeout: 30_000 }, async () => {
    const { url } = await sandbox(fastSandboxConfig(defaults) as Record<string, unknown>, { clock: systemClock });
    for (const kind of ["fetch"] as const) {
      const result = await runSample(
        model.account.creditsOperationId,
        kind,
        { BASE_URL: url, API_KEY: "wrong-key" },
        jobsIn(url),
      );
      expect(result.code, kind).not.toBe(0);
      expect(result.stderr, kind).toMatch(/401: \{"error"/);
    }
  });
});
