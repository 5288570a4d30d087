import { describe, expect, it } from "vitest";
import { describeHouseRule, findings, golden } from "../../../tests/lint/support.ts";
import rule, { jobStatusComponent } from "./check.ts";

describeHouseRule("poll-status", rule);

describe("job status", () => {
  it("is the schema component with x-terminal-values", () => {
    expect(jobStatusComponent(golden())).toBe("#/components/schemas/JobStatus");
  });

  it("is reported missing when no schema lists terminal values", () => {
    expect(findings(rule.check, [{ op: "remove", path: "/components/schemas/JobStatus/x-terminal-values" }])).toEqual([
      { path: "components.schemas", message: expect.stringContaining("No job-status enum") },
    ]);
  });
});

describe("a poll result built with allOf", () => {
  /** ImageJob as allOf: a referenced part with the status, and an inline part with the images. */
  const withParts = (statusPart: Record<string, unknown>) => [
    { op: "add" as const, path: "/components/schemas/JobState", value: { type: "object", ...statusPart } },
    {
      op: "replace" as const,
      path: "/components/schemas/ImageJob",
      value: {
        allOf: [
          { $ref: "#/components/schemas/JobState" },
          { type: "object", properties: { images: { type: "array" } } },
        ],
      },
    },
  ];

  it("takes required and properties from its parts, referenced ones included: status required there and from the enum passes", () => {
    expect(
      findings(
        rule.check,
        withParts({ required: ["status"], properties: { status: { $ref: "#/components/schemas/JobStatus" } } }),
      ),
    ).toEqual([]);
  });

  it("is reported when no part requires status, or when the parts' status is not the enum", () => {
    expect(
      findings(rule.check, withParts({ properties: { status: { $ref: "#/components/schemas/JobStatus" } } })),
    ).toEqual([
      {
        path: "components.schemas.ImageJob",
        message: expect.stringContaining('GET /v1/images/{id} must require "status"'),
      },
    ]);
    expect(
      findings(rule.check, withParts({ required: ["status"], properties: { status: { type: "string" } } })),
    ).toEqual([
      {
        path: "components.schemas.ImageJob",
        message: expect.stringContaining('GET /v1/images/{id} must take "status" from the job-status enum'),
      },
    ]);
  });
});

describe("a poll route", () => {
  it("is reported when it has no 200, at its responses", () => {
    const found = findings(rule.check, [{ op: "remove", path: "/paths/~1v1~1images~1{id}/get/responses/200" }]);
    expect(found).toEqual([
      {
        path: expect.stringMatching(/\{id\}\.get\.responses$/),
        message: "GET /v1/images/{id} has no 200: a poll route answers 200 with the job's status and result.",
      },
    ]);
  });
});
