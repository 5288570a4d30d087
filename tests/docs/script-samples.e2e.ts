/**
 * Every operation's Python and JavaScript (fetch) sample, as the reference shows it, run with
 * python3 and node against the sandbox (its answers checked against the description): each ends
 * well, and each create route's sample follows its job to the success status. The samples poll at
 * their area's cadence, so this takes a minute or two; `script-samples.test.ts` runs a few in
 * `npm test`.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../sandbox/clock.ts";
import { DEFAULT_CONFIG_FILE } from "../../sandbox/config.ts";
import { checkedSandboxes } from "../sandbox/support.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { DEMO_KEY, jobsIn, problemsOf, runSample, samples, type SampleRun, type ScriptKind } from "./run-samples.ts";

const defaults = JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, "utf8")) as { jobs?: object; limits?: object };

const sandbox = checkedSandboxes();

/** Runs `tasks` with at most `limit` at once. */
async function pooled<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]!();
      }
    }),
  );
  return results;
}

describe("the reference's Python and JavaScript samples", () => {
  it("run against the sandbox, every operation in both languages", { timeout: 600_000 }, async () => {
    const { url } = await sandbox(fastSandboxConfig(defaults) as Record<string, unknown>, { clock: systemClock });
    const jobIds = jobsIn(url);
    const kinds: ScriptKind[] = ["python", "fetch"];
    const tasks = [...samples.keys()].flatMap((operationId) =>
      kinds.map((kind) => () => runSample(operationId, kind, { BASE_URL: url, API_KEY: DEMO_KEY }, jobIds)),
    );
    const results: SampleRun[] = await pooled(tasks, 8);
    expect(results).toHaveLength(samples.size * 2);
    expect(results.flatMap(problemsOf)).toEqual([]);
  });
});
