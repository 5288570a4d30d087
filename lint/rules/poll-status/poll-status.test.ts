import { describe, expect, it } from "vitest";
import { describeHouseRule, findings, golden } from "../../../tests/lint/support.ts";
import rule, { jobStatusComponent } from "./check.ts";

describeHouseRule("poll-status", rule);

describe("job status", () => {
  it("is the schema component with x-terminal-values", () => {
    expect(jobStatusComponent(golden())).toBe("#/components/schemas/JobStatus");
  });

  it("is reported missing when no schema lists terminal values", () => {
    expect(findings(rule.check, [{ op: "remove", path: "/components/schemas/JobStatus/x-terminal-values" }])).toEqual([
      { path: "components.schemas", message: expect.stringContaining("No job-status enum") },
    ]);
  });
});
