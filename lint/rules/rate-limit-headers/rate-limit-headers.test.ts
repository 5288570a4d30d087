import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "../../../model/document.ts";
import { describeHouseRule } from "../../../tests/lint/support.ts";
import rule from "./check.ts";

describeHouseRule("rate-limit-headers", rule);

describe("rate-limit headers", () => {
  it("asks for a shared header component where no response refers to one", () => {
    const inline = { description: "Requests allowed in the window.", schema: { type: "integer" } };
    const doc = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        "/v1/a": { get: { responses: { "200": { description: "ok", headers: { "X-RateLimit-Limit": inline } } } } },
        "/v1/b": { get: { responses: { "200": { description: "ok" } } } },
      },
    } as unknown as OpenApiDocument;
    expect(rule.check(doc, { slugMap: {} }).map(({ path, message }) => ({ path: path.join("."), message }))).toEqual([
      {
        path: "paths./v1/a.get.responses.200.headers.X-RateLimit-Limit",
        message:
          "Header X-RateLimit-Limit is declared inline: declare headers.X-RateLimit-Limit as a shared header component instead, so it is defined once.",
      },
      {
        path: "paths./v1/b.get.responses.200",
        message:
          "Response lacks the X-RateLimit-Limit header: every response declares X-RateLimit-Limit; declare headers.X-RateLimit-Limit as a shared header component.",
      },
    ]);
  });
});
