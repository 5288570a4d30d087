/**
 * Mutation: each fault of the limits (faults/limits.ts) is caught by the check written for its rule.
 *
 * The faults run a few at a time, those of the concurrency cap last and apart. The limits' checks
 * read time: a fault's run starved of CPU among a dozen others (each a sandbox and a whole suite in
 * this one process) saw its polls time out, and missed faults it catches alone (the cooldown's).
 * cap-one-short is still missed now and then, as a skip of "no create is refused as queue full below
 * the cap" ("could not fill the cap for poll.timeoutSeconds after"): in those runs only other checks'
 * creates were refused, never the check's own filler's, while lifecycle's 3D jobs, polled at their
 * area's 15 s cadence beyond the 8 s poll timeout, stayed counted among the suite's jobs.
 */
import { describe, expect, it } from "vitest";
import { LIMIT_FAULTS } from "./faults/limits.ts";
import type { FaultName } from "./faults/registry.ts";
import { caughtBy, missedFaults } from "./support/mutation.ts";

/** Fault runs at once. */
const BATCH = 4;

const faults = Object.keys(LIMIT_FAULTS) as FaultName[];
const ofTheCap = (fault: FaultName): boolean => caughtBy(fault).group === "concurrency";
const inBatches = (list: FaultName[]): FaultName[][] =>
  Array.from({ length: Math.ceil(list.length / BATCH) }, (_, index) => list.slice(index * BATCH, (index + 1) * BATCH));
const batches = [...inBatches(faults.filter((fault) => !ofTheCap(fault))), ...inBatches(faults.filter(ofTheCap))];

describe("the conformance suite against the sandbox with a fault of its limits", () => {
  it("runs every fault of the limits, those of the cap apart", () => {
    expect(batches.flat().sort()).toEqual([...faults].sort());
    expect(batches.every((batch) => batch.every(ofTheCap) || !batch.some(ofTheCap))).toBe(true);
  });

  it("catches every one, each with a failure of the check written for the rule it breaks", {
    timeout: 900_000,
  }, async () => {
    const missed: string[] = [];
    for (const batch of batches) missed.push(...(await missedFaults(batch)));
    expect(missed).toEqual([]);
  });
});
