/**
 * Mutation: each fault the sequence phase is written for (faults/sequences.ts: another party, a
 * failure path, a later moment, a repeat, an input at another value) is caught by the phase at its
 * default settings, with a failure of the kind of step the fault breaks.
 */
import { describe, expect, it } from "vitest";
import { SEQUENCE_FAULTS } from "./faults/sequences.ts";
import type { FaultName } from "./faults/registry.ts";
import { missedFaults } from "./support/mutation.ts";

const faults = Object.keys(SEQUENCE_FAULTS) as FaultName[];

describe("the conformance suite's sequences against the sandbox with a fault", () => {
  it("catches every one, each with a failure of the kind of step it breaks", { timeout: 900_000 }, async () => {
    expect(await missedFaults(faults)).toEqual([]);
  });
});
