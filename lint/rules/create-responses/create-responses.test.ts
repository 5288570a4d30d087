import { describe, expect, it } from "vitest";
import { applyPatch, describeHouseRule, findings, golden } from "../../../tests/lint/support.ts";
import rule, { isErrorBodySchema } from "./check.ts";

describeHouseRule("create-responses", rule);

describe("error bodies", () => {
  const doc = golden();
  it.each([
    ["the error body", { $ref: "#/components/schemas/ErrorBody" }, true],
    ["a union of both bodies", { $ref: "#/components/schemas/BadRequestBody" }, true],
    ["an allOf on the error body", { $ref: "#/components/schemas/CooldownError" }, true],
    [
      "a union with a foreign branch",
      { anyOf: [{ $ref: "#/components/schemas/ErrorBody" }, { type: "object" }] },
      false,
    ],
    ["an inline object", { type: "object" }, false],
    ["an empty union", { oneOf: [] }, false],
  ])("%s: %s", (_name, schema, expected) => {
    expect(isErrorBodySchema(doc, schema)).toBe(expected);
  });

  it("does not loop on a reference cycle", () => {
    const cyclic = applyPatch(golden(), [
      { op: "add", path: "/components/schemas/Loop", value: { allOf: [{ $ref: "#/components/schemas/Loop" }] } },
    ]);
    expect(isErrorBodySchema(cyclic, { $ref: "#/components/schemas/Loop" })).toBe(false);
  });

  it("reports a 4xx response without a body", () => {
    expect(findings(rule.check, [{ op: "remove", path: "/components/responses/Unauthorized/content" }])).toEqual([
      {
        path: "components.responses.Unauthorized",
        message: expect.stringContaining("A 4xx response must have a body"),
      },
    ]);
  });
});
