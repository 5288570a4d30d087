import { describe, expect, it } from "vitest";
import { describeHouseRule, findings, golden, type PatchOperation } from "../../../tests/lint/support.ts";
import schemasCompile from "../schemas-compile/check.ts";
import rule from "./check.ts";

describeHouseRule("too-many-requests", rule);

describe("too many requests", () => {
  it("asks each 429 variant for a boolean x-retry-after, wherever the variant is defined", () => {
    expect(
      findings(rule.check, [
        { op: "replace", path: "/components/schemas/RateLimitedError/x-retry-after", value: "yes" },
      ]),
    ).toEqual([
      {
        path: "components.schemas.RateLimitedError",
        message: expect.stringContaining("does not say whether it sends Retry-After"),
      },
    ]);
    const inline = structuredClone(golden().components.schemas?.CooldownError);
    delete inline?.["x-retry-after"];
    expect(
      findings(rule.check, [{ op: "replace", path: "/components/schemas/TooManyRequestsBody/anyOf/1", value: inline }]),
    ).toEqual([
      {
        path: "components.schemas.TooManyRequestsBody.anyOf.1",
        message: expect.stringContaining("The 429 variant #1 does not say whether it sends Retry-After"),
      },
    ]);
  });

  it("reports a shared 429 body that is not a union of variants", () => {
    expect(
      findings(rule.check, [
        {
          op: "replace",
          path: "/components/responses/TooManyRequests/content/application~1json/schema",
          value: { $ref: "#/components/schemas/ErrorBody" },
        },
      ]),
    ).toEqual([
      {
        path: "components.responses.TooManyRequests.content.application/json.schema",
        message: expect.stringContaining("is not a union"),
      },
    ]);
  });

  it("leaves a variant that does not compile to the schemas-compile rule", () => {
    const patch: PatchOperation[] = [{ op: "add", path: "/components/schemas/CooldownError/maxItem", value: 1 }];
    expect(findings(rule.check, patch)).toEqual([]);
    expect(findings(schemasCompile.check, patch)).toEqual([
      { path: "components.schemas.CooldownError", message: expect.stringContaining('unknown keyword: "maxItem"') },
    ]);
  });

  it("names an inline variant that no example shows by its place in the union", () => {
    const variant = { type: "object", required: ["shown_by_no_example"], "x-retry-after": false };
    expect(
      findings(rule.check, [{ op: "add", path: "/components/schemas/TooManyRequestsBody/anyOf/-", value: variant }]),
    ).toEqual([
      {
        path: expect.stringMatching(/^components\.schemas\.TooManyRequestsBody\.anyOf\.\d+$/),
        message: expect.stringMatching(/^The 429 variant #\d+ has no example: add a named example of it/),
      },
    ]);
  });
});
