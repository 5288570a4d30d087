/**
 * generated/types.ts (generators/types.ts, on openapi-typescript): the types list names in one
 * order whatever order the description writes them in, so that a reordered description changes no
 * generated line; and what an example shows is data, emitted as written, never marked up as a schema.
 */
import { describe, expect, it } from "vitest";
import { generate } from "../../generators/types.ts";
import type { ServiceModel } from "../../model/service-model.ts";

/** generated/types.ts for a description holding only `schemas`. */
async function typesOf(schemas: Record<string, unknown>): Promise<string> {
  const doc = { openapi: "3.1.0", info: { title: "t", version: "1" }, paths: {}, components: { schemas } };
  return (await generate({ doc } as unknown as ServiceModel))["generated/types.ts"]!;
}

describe("generated/types.ts", () => {
  it("lists schemas and properties alphabetically, whatever the description's order", async () => {
    const types = await typesOf({
      Zebra: { type: "object", properties: { stripes: { type: "integer" }, age: { type: "integer" } } },
      Antelope: { type: "object", properties: { horns: { type: "integer" } } },
    });
    expect(types.indexOf("Antelope:")).toBeLessThan(types.indexOf("Zebra:"));
    expect(types.indexOf("age?:")).toBeLessThan(types.indexOf("stripes?:"));
  });

  it("keeps an example as written, under example or examples, even one that looks like a schema", async () => {
    const example = { properties: { name: { type: "string" } } };
    const types = await typesOf({
      Shape: {
        type: "object",
        properties: { spec: { type: "object", example }, specs: { type: "object", examples: [example] } },
      },
    });
    // openapi-typescript prints the example in the property's comment, one JSON line per line.
    const comment = JSON.stringify(example, null, 2)
      .split("\n")
      .map((line) => `*     ${line}`.trimEnd());
    const printed = types.split("\n").map((line) => line.trim());
    const at = printed.indexOf("* @example {");
    expect(printed.slice(at + 1, at + comment.length)).toEqual(comment.slice(1));
    expect(printed.filter((line) => line === "* @example {")).toHaveLength(2);
    expect(types).not.toContain("additionalProperties");
  });

  it("leaves an object schema without additionalProperties open to further fields", async () => {
    const types = await typesOf({ Open: { type: "object", properties: { a: { type: "string" } } } });
    expect(types).toMatch(/Open: \{\s+a\?: string;\s+\} & \{\s+\[key: string\]: unknown;\s+\};/);
  });

  it("keeps a field with a default optional: a client may leave it out", async () => {
    const types = await typesOf({ Body: { type: "object", properties: { count: { type: "integer", default: 1 } } } });
    expect(types).toMatch(/count\?: number;/);
  });
});
