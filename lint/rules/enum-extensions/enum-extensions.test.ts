import { describe, expect, it } from "vitest";
import { describeHouseRule, findings } from "../../../tests/lint/support.ts";
import rule from "./check.ts";

const REQUEST = "/paths/~1v1~1images~1i-a/post/requestBody/content/application~1json/schema";

describeHouseRule("enum-extensions", rule);

describe("enum extensions", () => {
  it("reports x-enumDescriptions away from an enum", () => {
    expect(findings(rule.check, [{ op: "remove", path: `${REQUEST}/properties/size/enum` }])).toEqual([
      { path: expect.stringMatching(/properties\.size$/), message: expect.stringContaining("x-enumDescriptions sits on a schema without enum") },
    ]);
  });
});
