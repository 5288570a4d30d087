import { describe, expect, it } from "vitest";
import { I_A_REQUEST, describeHouseRule, findings } from "../../../tests/lint/support.ts";
import rule from "./check.ts";

describeHouseRule("enum-extensions", rule);

describe("enum extensions", () => {
  it("reports x-enumDescriptions away from an enum", () => {
    expect(findings(rule.check, [{ op: "remove", path: `${I_A_REQUEST}/properties/size/enum` }])).toEqual([
      {
        path: expect.stringMatching(/properties\.size$/),
        message: expect.stringContaining("x-enumDescriptions sits on a schema without enum"),
      },
    ]);
  });

  it("names x-terminal-values when it alone sits away from an enum", () => {
    expect(findings(rule.check, [{ op: "remove", path: "/components/schemas/JobStatus/enum" }])).toEqual([
      {
        path: "components.schemas.JobStatus",
        message: "x-terminal-values sits on a schema without enum: move it beside the enum it describes.",
      },
    ]);
  });
});
