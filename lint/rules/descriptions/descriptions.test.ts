import { describe, expect, it } from "vitest";
import { I_A_REQUEST, describeHouseRule, findings } from "../../../tests/lint/support.ts";
import rule from "./check.ts";

describeHouseRule("descriptions", rule);

describe("descriptions", () => {
  it("asks for a description of an enum that is not a property", () => {
    const found = findings(rule.check, [
      { op: "add", path: "/components/schemas/ImageJob/properties/images/items/enum", value: ["a"] },
      { op: "remove", path: "/components/schemas/ImageJob/properties/images/items/description" },
    ]);
    expect(found).toEqual([
      {
        path: "components.schemas.ImageJob.properties.images.items",
        message: expect.stringMatching(/^Enum has no description/),
      },
    ]);
  });

  it("asks for one on a property that an applicator branch declares and nothing else describes", () => {
    const found = findings(rule.check, [
      { op: "add", path: `${I_A_REQUEST}/then/properties/seed`, value: { type: "integer" } },
    ]);
    expect(found).toEqual([
      {
        path: expect.stringMatching(/schema\.then\.properties\.seed$/),
        message: expect.stringContaining('Property "seed" has no description'),
      },
    ]);
  });
});
