/**
 * The `x-not-shown` markers as the docs' page of what the specification leaves unstated and the
 * change report list them (model/not-shown.ts): every marker, in document order, each with the
 * pointer of the object that carries it, its owner (the service, an operation, a path, a component,
 * a server) and where inside the owner a reader looks, in the page's words.
 */
import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "../../model/document.ts";
import { collectNotShown } from "../../model/not-shown.ts";

const marker = (key: string) => ({ "x-not-shown": { [key]: `The ${key} is not shown.` } });

const doc = {
  openapi: "3.1.0",
  info: { title: "t", version: "1", ...marker("deprecation-notice"), "x-limits": { "1080p": marker("tuning") } },
  servers: [{ url: "https://api.example", ...marker("region"), variables: { region1: marker("variable") } }],
  paths: {
    "/v1/a~b/{id}": {
      ...marker("path-note"),
      parameters: [{ name: "id", in: "path", ...marker("id-format") }],
      post: {
        ...marker("success-status"),
        requestBody: {
          content: {
            "application/json": {
              schema: {
                allOf: [{ properties: { size: { type: "string", ...marker("default") } } }],
                properties: { tags: { type: "array", items: { type: "string", ...marker("item-limit") } } },
              },
              examples: { first: { value: { size: "S" }, ...marker("example-note") } },
            },
          },
        },
        responses: {
          "200": {
            headers: { "X-Thing": { schema: { type: "string" }, ...marker("header-values") } },
            content: { "application/json": { schema: { type: "object", ...marker("fields") } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      JobStatus: { type: "string", ...marker("transitions") },
      // The eleventh member of an allOf: an index of two digits is no place a reader looks.
      Big: { allOf: [...Array.from({ length: 10 }, () => ({})), { properties: { size: marker("default") } }] },
    },
    securitySchemes: { bearer: { type: "http", scheme: "bearer", ...marker("scopes") } },
    callbacks: { done: { ...marker("events") } },
  },
} as unknown as OpenApiDocument;

describe("the x-not-shown markers of a description", () => {
  it("lists each with its pointer, its owner and where in it, in document order", () => {
    expect(collectNotShown(doc).map(({ pointer, owner, where, key }) => [pointer, owner, where, key])).toEqual([
      ["#/info", "Service", "", "deprecation-notice"],
      // Deeper in the service's info or a server, the keys on the way (digits and all) say where.
      ["#/info/x-limits/1080p", "Service", "x-limits › 1080p", "tuning"],
      ["#/servers/0", "Server", "", "region"],
      ["#/servers/0/variables/region1", "Server", "variables › region1", "variable"],
      ["#/paths/~1v1~1a~0b~1{id}", "/v1/a~b/{id}", "", "path-note"],
      ["#/paths/~1v1~1a~0b~1{id}/parameters/0", "/v1/a~b/{id}", "parameter `id`", "id-format"],
      ["#/paths/~1v1~1a~0b~1{id}/post", "POST /v1/a~b/{id}", "", "success-status"],
      [
        "#/paths/~1v1~1a~0b~1{id}/post/requestBody/content/application~1json/schema/allOf/0/properties/size",
        "POST /v1/a~b/{id}",
        "request body › `size`",
        "default",
      ],
      [
        "#/paths/~1v1~1a~0b~1{id}/post/requestBody/content/application~1json/schema/properties/tags/items",
        "POST /v1/a~b/{id}",
        "request body › `tags` › items",
        "item-limit",
      ],
      [
        "#/paths/~1v1~1a~0b~1{id}/post/requestBody/content/application~1json/examples/first",
        "POST /v1/a~b/{id}",
        "request body › example first",
        "example-note",
      ],
      [
        "#/paths/~1v1~1a~0b~1{id}/post/responses/200/headers/X-Thing",
        "POST /v1/a~b/{id}",
        "response 200 › header X-Thing",
        "header-values",
      ],
      [
        "#/paths/~1v1~1a~0b~1{id}/post/responses/200/content/application~1json/schema",
        "POST /v1/a~b/{id}",
        "response 200",
        "fields",
      ],
      ["#/components/schemas/JobStatus", "Schema JobStatus", "", "transitions"],
      ["#/components/schemas/Big/allOf/10/properties/size", "Schema Big", "`size`", "default"],
      ["#/components/securitySchemes/bearer", "Security scheme bearer", "", "scopes"],
      // A kind of component the page has no word for is named by its key.
      ["#/components/callbacks/done", "callbacks done", "", "events"],
    ]);
  });

  it("keeps each marker's sentence, one entry per key of a marker", () => {
    const two = {
      ...doc,
      components: {
        schemas: { Price: { "x-not-shown": { price: "Price: not shown.", currency: "Currency: not shown." } } },
      },
    } as unknown as OpenApiDocument;
    expect(collectNotShown(two).filter(({ owner }) => owner === "Schema Price")).toEqual([
      {
        pointer: "#/components/schemas/Price",
        owner: "Schema Price",
        where: "",
        key: "price",
        sentence: "Price: not shown.",
      },
      {
        pointer: "#/components/schemas/Price",
        owner: "Schema Price",
        where: "",
        key: "currency",
        sentence: "Currency: not shown.",
      },
    ]);
  });

  it("finds none in a description without markers", () => {
    expect(collectNotShown({ openapi: "3.1.0", info: {}, paths: {} } as unknown as OpenApiDocument)).toEqual([]);
  });
});
