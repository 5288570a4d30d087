/**
 * Mutation: each fault of the limits (faults/limits.ts) is caught by the check written for its rule.
 *
 * The faults run a few at a time, those of the concurrency cap last and apart. The limits' checks
 * read time: a fault's run starved of CPU among a dozen others (each a sandbox and a whole suite in
 * this one process) saw its polls time out and its cap's jobs end before the probe, and so missed
 * faults it catches alone (cap-one-short in 3 of 6 runs of the whole file).
 */
import { describe, expect, it } from "vitest";
import { LIMIT_FAULTS } from "./faults/limits.ts";
import type { FaultName } from "./faults/registry.ts";
import { CAUGHT_BY, missedFaults } from "./support/mutation.ts";

/** Fault runs at once. */
const BATCH = 4;

const faults = Object.keys(LIMIT_FAULTS) as FaultName[];
const ofTheCap = (fault: FaultName): boolean => CAUGHT_BY[fault].group === "concurrency";
const inBatches = (list: FaultName[]): FaultName[][] => Array.from({ length: Math.ceil(list.length / BATCH) }, (_, index) => list.slice(index * BATCH, (index + 1) * BATCH));
const batches = [...inBatches(faults.filter((fault) => !ofTheCap(fault))), ...inBatches(faults.filter(ofTheCap))];

describe("the conformance suite against the sandbox with a fault of its limits", () => {
  it("runs every fault of the limits, those of the cap apart", () => {
    expect(batches.flat().sort()).toEqual([...faults].sort());
    expect(batches.every((batch) => batch.every(ofTheCap) || !batch.some(ofTheCap))).toBe(true);
  });

  it("catches every one, each with a failure of the check written for the rule it breaks", { timeout: 900_000 }, async () => {
    const missed: string[] = [];
    for (const batch of batches) missed.push(...(await missedFaults(batch)));
    expect(missed).toEqual([]);
  });
});
