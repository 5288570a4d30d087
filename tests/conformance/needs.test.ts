/** A check declares what it needs; the suite skips it with the first need unmet as the reason (check.ts `needing`). */
import { describe, expect, it } from "vitest";
import { needing } from "../../conformance/check.ts";
import type { Session } from "../../conformance/session.ts";

const session = (config: Record<string, unknown>): Session => ({ config }) as unknown as Session;
const blockedBy = needing(
  { stateful: true, declared: ["freePlanKey", { field: "outcomeMarkers.failed", gives: "a way to make a job fail" }] },
  () => "the target does not implement the route",
);

describe("a check's needs", () => {
  it("names the first one unmet: a stateless target, then each declaration field in order, nested ones by their dotted name", () => {
    expect(blockedBy(session({ stateful: false, freePlanKey: "k", outcomeMarkers: { failed: "x" } }))).toBe(
      "the target is stateless",
    );
    expect(blockedBy(session({ stateful: true, outcomeMarkers: { failed: "x" } }))).toBe(
      "the declaration gives no freePlanKey",
    );
    expect(blockedBy(session({ stateful: true, freePlanKey: "k", outcomeMarkers: {} }))).toBe(
      "not declared: a way to make a job fail (outcomeMarkers.failed)",
    );
  });

  it("takes a field declared false or empty as not given, and asks the check's own question last", () => {
    expect(needing({ declared: ["rateLimitBurst"] })(session({ rateLimitBurst: false }))).toBe(
      "the declaration gives no rateLimitBurst",
    );
    expect(needing({ declared: ["freePlanKey"] })(session({ freePlanKey: "" }))).toBe(
      "the declaration gives no freePlanKey",
    );
    expect(blockedBy(session({ stateful: true, freePlanKey: "k", outcomeMarkers: { failed: "x" } }))).toBe(
      "the target does not implement the route",
    );
    expect(needing({ declared: ["rateLimitBurst"] })(session({ rateLimitBurst: true }))).toBeNull();
  });
});
