/**
 * The MCP server's tools against the description: one source for every model's input schema (the
 * description's request schema, as describe_model serves it and as create checks it), and what
 * tools/list costs an agent, in bytes, against one tool per operation.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../generated/client.ts";
import { quote } from "../../generated/costs.ts";
import { loadServiceModel } from "../../model/service-model.ts";
import { CATALOG } from "../../packages/mcp/catalog.ts";
import { createSessionServer } from "../../packages/mcp/server.ts";

const model = loadServiceModel();

/** The bundle's request schema of a create route, without what annotates it for our tools (x- extensions, titles): written here again, not imported. */
function withoutAnnotations(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutAnnotations);
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !key.startsWith("x-") && key !== "title")
      .map(([key, value]) =>
        key === "properties"
          ? [
              key,
              Object.fromEntries(
                Object.entries(value as object).map(([name, child]) => [name, withoutAnnotations(child)]),
              ),
            ]
          : [key, withoutAnnotations(value)],
      ),
  );
}

/** A schema with each component reference replaced by the component, as the test reads the bundle. */
const resolved = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(resolved);
  if (typeof schema !== "object" || schema === null) return schema;
  const { $ref } = schema as { $ref?: string };
  if ($ref) return resolved(model.doc.components?.schemas?.[$ref.replace("#/components/schemas/", "")]);
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolved(value)]));
};

const bundleSchema = (path: string) =>
  withoutAnnotations(resolved(model.doc.paths[path]?.post?.requestBody?.content["application/json"]?.schema));

let mcp: Client;
let close: () => Promise<void>;
const sent: string[] = [];

beforeAll(async () => {
  const client = createClient({
    apiKey: "unused-key-of-a-test",
    baseUrl: "http://127.0.0.1:9",
    quote,
    fetch: (request: Request) => {
      sent.push(`${request.method} ${new URL(request.url).pathname}`);
      return Promise.reject(new Error("no request is expected"));
    },
  });
  const session = createSessionServer({
    client,
    settings: { apiKey: "unused-key-of-a-test", budget: 0, confirmAbove: null },
    version: "0",
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await session.server.connect(a);
  mcp = new Client({ name: "t", version: "1" });
  await mcp.connect(b);
  close = async () => {
    await mcp.close();
    await session.close();
  };
});
afterAll(() => close());

describe("every model's input schema", () => {
  it("is the description's request schema: one model per create route, and describe_model serves it as it is", async () => {
    expect(CATALOG.models.map((entry) => entry.slug)).toEqual(model.createRoutes.map((route) => route.slug));
    for (const route of model.createRoutes) {
      const described = await mcp.callTool({ name: "describe_model", arguments: { model: route.label } });
      const facts = described.structuredContent as { slug: string; input_schema: unknown };
      expect(facts.slug, route.label).toBe(route.slug);
      expect(facts.input_schema, route.label).toEqual(bundleSchema(route.path));
    }
  });

  it("is the one create and quote check the input with: a field the schema lacks is refused, naming it, before any request", async () => {
    // The routes whose request schema is closed (the others' fields are not all shown, so any field may be right).
    const closed = model.createRoutes.filter(
      (route) => (bundleSchema(route.path) as { additionalProperties?: boolean }).additionalProperties === false,
    );
    expect(closed.length).toBeGreaterThan(10);
    for (const route of closed) {
      for (const tool of ["quote", "create"]) {
        const refused = await mcp.callTool({
          name: tool,
          arguments: { model: route.slug, input: { no_such_field: 1 } },
        });
        expect((refused.content as Array<{ text: string }>)[0]!.text, route.label).toMatch(
          /must NOT have additional properties \(no_such_field\)/,
        );
      }
    }
    expect(sent).toEqual([]);
  });
});

describe("tools/list", () => {
  it("holds a fixed handful of tools, none carrying a model's schema, and measures far below one tool per operation", async () => {
    const listed = await mcp.listTools();
    const names = listed.tools.map((tool) => tool.name);
    expect(names).toEqual(["list_models", "describe_model", "quote", "create", "get_job", "wait_job", "credits"]);
    const text = JSON.stringify(listed);
    for (const route of model.createRoutes) expect(text).not.toContain(JSON.stringify(bundleSchema(route.path)));
    expect(listed.tools.find((tool) => tool.name === "create")?.execution).toEqual({ taskSupport: "optional" });
    // The alternative, as the commercial generators make it: one tool per operation, each with its own schema.
    const perOperation = model.operations.map((operation) => ({
      name: operation.operationId,
      description: model.doc.paths[operation.path]?.[operation.method]?.summary ?? "",
      inputSchema: operation.kind === "create" ? bundleSchema(operation.path) : { type: "object", properties: {} },
    }));
    const bytes = Buffer.byteLength(text);
    const alternative = Buffer.byteLength(JSON.stringify({ tools: perOperation }));
    console.log(
      `tools/list: ${bytes} bytes for ${names.length} tools; one tool per operation: ${alternative} bytes for ${perOperation.length}`,
    );
    expect(bytes).toBeLessThan(alternative / 4);
  });
});
