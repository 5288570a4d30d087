/**
 * An operation's example request (docs-src/request-example.ts), which every code sample is built
 * from: path parameters filled from their example (or first named example, referenced or not), the
 * query parameters that have one, and the first named body example; a path parameter or a JSON
 * body without an example fails the build, naming the operation. The path is written with its
 * parameters and query encoded.
 */
import { describe, expect, it } from "vitest";
import { examplePath, requestExample } from "../../docs-src/request-example.ts";
import type { OpenApiDocument, Operation } from "../../model/document.ts";

const DOC = {
  openapi: "3.1.0",
  info: { title: "T", version: "1" },
  paths: {},
  components: {
    parameters: {
      Id: { name: "id", in: "path", required: true, examples: { a: { $ref: "#/components/examples/Id" } } },
    },
    examples: { Id: { value: "job 1/2" }, Body: { value: { prompt: "a cat" } } },
  },
} as unknown as OpenApiDocument;

const OPERATION = {
  operationId: "op",
  parameters: [
    { $ref: "#/components/parameters/Id" },
    { name: "page", in: "query", example: 2 },
    { name: "sort", in: "query", examples: { first: { value: "new" }, second: { value: "old" } } },
    { name: "filter", in: "query" },
    { name: "X-Trace", in: "header", example: "t" },
  ],
  requestBody: {
    content: { "application/json": { examples: { one: { $ref: "#/components/examples/Body" }, two: { value: {} } } } },
  },
  responses: {},
} as unknown as Operation;

describe("requestExample", () => {
  it("fills path parameters and the query parameters that have an example, and takes the first body example", () => {
    expect(requestExample(DOC, "/v1/jobs/{id}", "post", OPERATION)).toEqual({
      method: "post",
      template: "/v1/jobs/{id}",
      pathParams: { id: "job 1/2" },
      query: { page: "2", sort: "new" },
      body: { prompt: "a cat" },
    });
  });

  it("has no body for an operation without a JSON body", () => {
    const read = { operationId: "read", responses: {} } as unknown as Operation;
    expect(requestExample(DOC, "/v1/x", "get", read)).toEqual({
      method: "get",
      template: "/v1/x",
      pathParams: {},
      query: {},
      body: undefined,
    });
  });

  it("fails the build on a path parameter or a JSON body without an example, naming the operation", () => {
    const noPathExample = { ...OPERATION, parameters: [{ name: "id", in: "path" }] } as unknown as Operation;
    expect(() => requestExample(DOC, "/v1/jobs/{id}", "get", noPathExample)).toThrow(
      "GET /v1/jobs/{id}: path parameter id has no example",
    );
    const noBodyExample = {
      ...OPERATION,
      parameters: [],
      requestBody: { content: { "application/json": {} } },
    } as unknown as Operation;
    expect(() => requestExample(DOC, "/v1/x", "post", noBodyExample)).toThrow(
      "op: the JSON request body has no named example",
    );
  });
});

describe("examplePath", () => {
  it("writes the path with each parameter encoded, and the query after it", () => {
    const request = requestExample(DOC, "/v1/jobs/{id}", "post", OPERATION);
    expect(examplePath(request)).toBe("/v1/jobs/job%201%2F2?page=2&sort=new");
    expect(examplePath({ ...request, query: {} })).toBe("/v1/jobs/job%201%2F2");
    expect(examplePath({ ...request, pathParams: {} })).toBe("/v1/jobs/id?page=2&sort=new");
  });
});
