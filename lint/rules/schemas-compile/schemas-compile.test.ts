import { describe, expect, it } from "vitest";
import { describeHouseRule, findings } from "../../../tests/lint/support.ts";
import rule from "./check.ts";

describeHouseRule("schemas-compile", rule);

describe("schemas compile", () => {
  it("points at the component when the schemas do not even load", () => {
    expect(findings(rule.check, [{ op: "replace", path: "/components/schemas/ImageJob/type", value: 12 }])).toEqual([
      {
        path: "components.schemas.ImageJob.type",
        message: expect.stringContaining("do not load under JSON Schema 2020-12"),
      },
    ]);
  });

  it("leaves a discriminator to the no-discriminator rule", () => {
    expect(
      findings(rule.check, [
        { op: "add", path: "/components/schemas/BadRequestBody/discriminator", value: { propertyName: "error" } },
      ]),
    ).toEqual([]);
  });
});
