import { describe, expect, it } from "vitest";
import { describeHouseRule, findings } from "../../../tests/lint/support.ts";
import rule from "./check.ts";

describeHouseRule("examples", rule);

describe("examples", () => {
  it("checks parameter examples and single `example`s too", () => {
    expect(
      findings(rule.check, [{ op: "add", path: "/paths/~1v1~1images~1{id}/get/parameters/0/example", value: 7 }]),
    ).toEqual([
      {
        path: "paths./v1/images/{id}.get.parameters.0.example",
        message: expect.stringContaining(
          'Example "example" does not match its schema (paths./v1/images/{id}.get.parameters.0.schema): value must be string',
        ),
      },
    ]);
  });

  it("leaves a schema that does not compile to the schemas-compile rule", () => {
    expect(findings(rule.check, [{ op: "add", path: "/components/schemas/ImageJob/maxItem", value: 1 }])).toEqual([]);
  });
});
