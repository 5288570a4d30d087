import { describe, expect, it } from "vitest";
import { I_A_CREATE, describeHouseRule, findings } from "../../../tests/lint/support.ts";
import rule from "./check.ts";

describeHouseRule("limits", rule);

describe("x-limits", () => {
  it("is required on info", () => {
    expect(findings(rule.check, [{ op: "remove", path: "/info/x-limits" }])).toEqual([
      { path: "info", message: expect.stringContaining("info has no x-limits: add") },
    ]);
  });

  it("names schemas that exist", () => {
    expect(
      findings(rule.check, [{ op: "replace", path: "/info/x-limits/concurrency/variant", value: "QueueFull" }]),
    ).toEqual([
      {
        path: "info.x-limits.concurrency.variant",
        message:
          "x-limits.concurrency.variant names QueueFull, which components/schemas lacks: correct it to the schema of the 429 body variant that answers when this limit bites.",
      },
      {
        path: "info.x-limits",
        message:
          "The 429 variant QueueFullError answers for no limit: set it as the variant of the x-limits entry whose limit it answers for.",
      },
    ]);
  });

  it("x-model-family stays on create routes", () => {
    expect(
      findings(rule.check, [
        { op: "add", path: "/paths/~1v1~1images~1{id}/get/x-model-family", value: "content-filtered" },
      ]),
    ).toEqual([
      {
        path: "paths./v1/images/{id}.get.x-model-family",
        message: expect.stringMatching(
          /^GET \/v1\/images\/\{id\} is not a create route, yet carries x-model-family: remove it/,
        ),
      },
    ]);
  });

  it("x-limits.cooldown.family is some create route's family", () => {
    expect(findings(rule.check, [{ op: "remove", path: `${I_A_CREATE}/x-model-family` }])).toEqual([
      {
        path: "info.x-limits.cooldown.family",
        message: expect.stringContaining(
          "x-limits.cooldown.family names content-filtered, which no create operation's x-model-family carries",
        ),
      },
    ]);
  });

  it("says no family is named where x-limits.cooldown names none", () => {
    const found = findings(rule.check, [{ op: "remove", path: "/info/x-limits/cooldown/family" }]);
    expect(found.length).toBeGreaterThan(0);
    for (const { path, message } of found) {
      expect(path).toMatch(/^paths\..+\.post\.x-model-family$/);
      expect(message).toContain('x-model-family "content-filtered" is not the family x-limits.cooldown names (none)');
    }
  });
});
