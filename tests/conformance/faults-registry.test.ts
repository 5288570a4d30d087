/**
 * The injected faults' registry, without running them (npm run test:conformance does): at least 40
 * kinds, each with the check that must catch it, so a fault added without its catcher fails here.
 */
import { describe, expect, it } from "vitest";
import { FAULTS } from "./faults/registry.ts";
import { CAUGHT_BY } from "./support/mutation.ts";

describe("the injected faults", () => {
  it("are at least 40 kinds, and each names the check that must catch it", () => {
    expect(Object.keys(FAULTS).length).toBeGreaterThanOrEqual(40);
    expect(Object.keys(CAUGHT_BY).sort()).toEqual(Object.keys(FAULTS).sort());
  });
});
