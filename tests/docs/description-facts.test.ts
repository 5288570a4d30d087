/**
 * The facts the guides read off the description (docs-src/description-facts.ts): the error body
 * schema by its title; the distinct error answers (status 400 and above) of all operations, a shared
 * answer once, in status order; the answers of one status; a `## ` section of the introduction,
 * without its heading. Each fails the build, naming what is missing, when the description lacks it.
 */
import { describe, expect, it } from "vitest";
import { errorBodySchema, errorResponses, infoSection, responsesWithStatus } from "../../docs-src/description-facts.ts";
import type { OpenApiDocument, ResponseObject } from "../../model/document.ts";

const answer = (description: string): ResponseObject => ({ description });

const DOC = {
  openapi: "3.1.0",
  info: {
    title: "T",
    version: "1",
    description:
      "Limits\nare described below; a line may mention ## Limits too.\n\n## Conventions\n\nRoutes start with /v1.\n\n" +
      "## Limits  \n\n- **Requests:** 600 a minute.\n- **Uploads:** 10 a minute.\n\n## Last\n\nEnd.\n",
  },
  paths: {
    "/a": {
      post: {
        operationId: "a",
        responses: {
          "200": answer("OK."),
          "500": answer("Broken."),
          "429": { $ref: "#/components/responses/TooMany" },
          "400": answer("Bad A."),
        },
      },
      get: {
        operationId: "aRead",
        responses: { "404": answer("No such a."), "429": { $ref: "#/components/responses/TooMany" } },
      },
    },
    "/b": {
      post: {
        operationId: "b",
        responses: {
          "400": answer("Bad B."),
          "429": { $ref: "#/components/responses/Other429" },
          "399": answer("Odd."),
        },
      },
    },
    "/c": { post: { operationId: "c", responses: { "400": answer("Bad A.") } } },
  },
  components: {
    responses: { TooMany: answer("Too many."), Other429: answer("Too many, differently.") },
    schemas: { Other: { title: "Other" }, Body: { title: "ErrorBody", type: "object" } },
  },
} as unknown as OpenApiDocument;

describe("errorBodySchema", () => {
  it("finds the schema titled ErrorBody, whatever its name, and fails the build without one", () => {
    expect(errorBodySchema(DOC)).toEqual({ title: "ErrorBody", type: "object" });
    expect(() => errorBodySchema({ ...DOC, components: { schemas: { Other: { title: "Other" } } } })).toThrow(
      "the description has no ErrorBody schema",
    );
  });
});

describe("errorResponses", () => {
  it("gives each distinct error answer once, resolved, in status order; a shared answer once however many operations give it", () => {
    expect(errorResponses(DOC)).toEqual([
      { status: "400", response: answer("Bad A.") },
      { status: "400", response: answer("Bad B.") },
      { status: "404", response: answer("No such a.") },
      { status: "429", response: answer("Too many.") },
      { status: "429", response: answer("Too many, differently.") },
      { status: "500", response: answer("Broken.") },
    ]);
  });
});

describe("responsesWithStatus", () => {
  it("gives the distinct answers of one status, and fails the build when no operation answers it", () => {
    expect(responsesWithStatus(DOC, "429")).toEqual([answer("Too many."), answer("Too many, differently.")]);
    expect(responsesWithStatus(DOC, "404")).toEqual([answer("No such a.")]);
    expect(() => responsesWithStatus(DOC, "418")).toThrow("no operation of the description answers 418");
  });
});

describe("infoSection", () => {
  it("gives a section of the introduction by its heading, without the heading, trimmed", () => {
    expect(infoSection(DOC, "Limits")).toBe("- **Requests:** 600 a minute.\n- **Uploads:** 10 a minute.");
    expect(infoSection(DOC, "Conventions")).toBe("Routes start with /v1.");
    expect(infoSection(DOC, "Last")).toBe("End.");
  });

  it("fails the build, naming the heading, when the introduction has no such section", () => {
    expect(() => infoSection(DOC, "Pricing")).toThrow('info.description has no "## Pricing" section');
    expect(() => infoSection({ ...DOC, info: { title: "T", version: "1" } }, "Limits")).toThrow(
      'info.description has no "## Limits" section',
    );
  });
});
