import { describe, expect, it } from "vitest";
import extensions from "../../../model/extensions.schema.json" with { type: "json" };
import { EXTENSION_NAMES } from "../../../model/schema-registry.ts";
import {
  I_A_CREATE,
  I_A_REQUEST,
  describeHouseRule,
  findings,
  golden,
  type PatchOperation,
} from "../../../tests/lint/support.ts";
import rule from "./check.ts";

describeHouseRule("extensions", rule);

describe("extensions", () => {
  it("does not mistake property names, header names or example data for extensions", () => {
    expect(
      findings(rule.check, [
        {
          op: "add",
          path: `${I_A_REQUEST}/properties/x-tag`,
          value: { type: "string", description: "A field named like an extension." },
        },
        {
          op: "add",
          path: `${I_A_CREATE}/requestBody/content/application~1json/examples/text-to-image/value/x-tag`,
          value: "data",
        },
      ]),
    ).toEqual([]);
  });

  it("are all used by the golden document, so the whole ruleset is shown to accept each one", () => {
    const text = JSON.stringify(golden());
    expect(EXTENSION_NAMES.filter((name) => !text.includes(`"${name}":`))).toEqual([]);
  });

  it("accept every x-not-shown key and every conditional media limit their definitions list", () => {
    const keys = extensions.$defs["x-not-shown"].propertyNames.enum;
    const limits = extensions.$defs["x-media"].properties.conditionalLimits.items.properties.limits.properties;
    const values: Record<string, unknown> = { maxDurationSeconds: 10, formats: ["png"] };
    expect(Object.keys(limits).filter((limit) => !(limit in values))).toEqual([]);
    const patch: PatchOperation[] = [
      {
        op: "add",
        path: "/paths/~1v1~1images~1{id}/get/x-not-shown",
        value: Object.fromEntries(keys.map((key) => [key, `The ${key} is not shown.`])),
      },
      ...Object.keys(limits).map(
        (limit): PatchOperation => ({
          op: "add",
          path: `${I_A_REQUEST}/properties/reference_images/x-media/conditionalLimits/-`,
          value: { when: { field: "size", equals: "2K" }, limits: { [limit]: values[limit] } },
        }),
      ),
    ];
    expect(findings(rule.check, patch)).toEqual([]);
    expect(
      findings(rule.check, [
        {
          op: "add",
          path: "/paths/~1v1~1images~1{id}/get/x-not-shown/no-such-key",
          value: "A key outside the vocabulary.",
        },
      ]),
    ).toEqual([
      {
        path: "paths./v1/images/{id}.get.x-not-shown",
        message: expect.stringContaining(
          "Malformed x-not-shown: x-not-shown must be equal to one of the allowed values",
        ),
      },
    ]);
  });

  it("checks extensions inside schemas too", () => {
    expect(
      findings(rule.check, [{ op: "add", path: "/components/schemas/ImageJob/x-model-label", value: "lower-case" }]),
    ).toEqual([
      {
        path: "components.schemas.ImageJob.x-model-label",
        message: expect.stringContaining(
          'Malformed x-model-label: x-model-label must match pattern "^[A-Z]{1,3}-[A-Z]$"',
        ),
      },
    ]);
  });
});
