import { describe, expect, it } from "vitest";
import { I_A_CREATE, describeHouseRule, findings } from "../../../tests/lint/support.ts";
import rule, { tableKeys } from "./check.ts";

describeHouseRule("pricing-fields", rule);

describe("pricing fields", () => {
  it.each([
    [{ enum: ["1K", 2] }, ["1K", "2"]],
    [{ const: true }, ["true"]],
    [{ type: "boolean" }, ["true", "false"]],
    [{ type: "integer" }, undefined],
  ])("a field %j takes the table keys %j", (schema, keys) => {
    expect(tableKeys(schema)).toEqual(keys);
  });

  it("knows per, when and nested rate-table fields, and query parameters", () => {
    const pricing = `${I_A_CREATE}/x-pricing/components/0`;
    const found = findings(rule.check, [
      {
        op: "replace",
        path: `${pricing}/rateBy`,
        value: { fields: ["size", "prompt"], table: { "1K": { any: 1 }, "3K": { any: 2 } } },
      },
      { op: "add", path: `${pricing}/per`, value: { mediaSeconds: "reference_videos" } },
      {
        op: "add",
        path: `${pricing}/when`,
        value: [
          { field: "size", equals: "1K" },
          { field: "quality", equals: "low" },
        ],
      },
      {
        op: "add",
        path: "/paths/~1v1~1images~1{id}/get/x-pricing",
        value: {
          charged: "per-request",
          components: [
            {
              label: "search",
              rate: 10,
              when: [
                { field: "id", present: true },
                { field: "query", present: true },
              ],
            },
          ],
        },
      },
      {
        op: "add",
        path: "/paths/~1v1~1images~1{id}/get/parameters/-",
        value: { name: "query", in: "query", schema: { type: "string" } },
      },
    ]);
    expect(found.map(({ message }) => message.split(": ")[1])).toEqual([
      'x-pricing refers to the field "reference_videos", which the request does not declare',
      'x-pricing refers to the field "quality", which the request does not declare',
      'the rate table has the key "3K", which is not a value of size (1K, 2K)',
      'x-pricing refers to the field "id", which the request does not declare',
    ]);
    // Each finding where the field is named, so that npm run lint points at its line.
    expect(found.map(({ path }) => path.replace(/^.*x-pricing\./, ""))).toEqual([
      "components.0.per",
      "components.0.when.1",
      "components.0.rateBy.table",
      "components.0.when.0",
    ]);
  });

  it("knows the fields a rate that is not shown differs by", () => {
    const pricing = `${I_A_CREATE}/x-pricing/components/0`;
    const found = findings(rule.check, [
      { op: "remove", path: `${pricing}/rateBy` },
      { op: "add", path: `${pricing}/rateNotShown`, value: { by: ["size", "quality"] } },
    ]);
    expect(found.map(({ message }) => message.split(": ")[1])).toEqual([
      'x-pricing refers to the field "quality", which the request does not declare',
    ]);
    expect(found.map(({ path }) => path.replace(/^.*x-pricing\./, ""))).toEqual(["components.0.rateNotShown"]);
  });
});
