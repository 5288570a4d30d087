import { describe, expect, it } from "vitest";
import { I_A_CREATE, describeHouseRule, findings } from "../../../tests/lint/support.ts";
import rule from "./check.ts";

describeHouseRule("create-pricing", rule);

describe("a create route without x-pricing", () => {
  const noPricing = { op: "remove", path: `${I_A_CREATE}/x-pricing` } as const;
  const notShown = (value: Record<string, string>) =>
    ({ op: "add", path: `${I_A_CREATE}/x-not-shown`, value }) as const;

  it("passes when x-not-shown.price says the price is not shown", () => {
    expect(findings(rule.check, [noPricing, notShown({ price: "The price is not shown." })])).toEqual([]);
  });

  it("is reported when x-not-shown says only that something else is not shown", () => {
    expect(findings(rule.check, [noPricing, notShown({ "max-files": "The most files are not shown." })])).toEqual([
      {
        path: expect.stringMatching(/i-a\.post$/),
        message: expect.stringContaining("POST /v1/images/i-a has no price"),
      },
    ]);
  });
});
