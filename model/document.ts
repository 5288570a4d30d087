import { readFileSync } from "node:fs";
import { runtimeFile } from "./runtime-files.ts";

/** The parts of an OpenAPI 3.1 document this project reads. */
export type JsonSchema = { [key: string]: unknown };

export interface MediaType {
  schema?: JsonSchema;
  examples?: Record<string, { summary?: string; value?: unknown; $ref?: string }>;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, { $ref?: string; required?: boolean; schema?: JsonSchema }>;
  content?: Record<string, MediaType>;
  links?: Record<string, unknown>;
  $ref?: string;
}

export interface Operation {
  operationId: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Array<{ name?: string; in?: string; required?: boolean; schema?: JsonSchema; $ref?: string }>;
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
  security?: Array<Record<string, string[]>>;
  [extension: `x-${string}`]: unknown;
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  servers?: Array<{ url: string; description?: string; variables?: Record<string, { default: string }> }>;
  security?: Array<Record<string, string[]>>;
  paths: Record<string, Partial<Record<HttpMethod, Operation>> & { [key: string]: unknown }>;
  components: {
    schemas?: Record<string, JsonSchema>;
    responses?: Record<string, ResponseObject>;
    headers?: Record<string, { required?: boolean; schema?: JsonSchema }>;
    examples?: Record<string, { summary?: string; value?: unknown }>;
    parameters?: Record<string, unknown>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export const BUNDLE_JSON = runtimeFile("generated/openapi.json");

export function loadBundle(file: string = BUNDLE_JSON): OpenApiDocument {
  return JSON.parse(readFileSync(file, "utf8")) as OpenApiDocument;
}

/** Every operation of the document with its path and method. */
export function operations(doc: OpenApiDocument): Array<{ path: string; method: HttpMethod; operation: Operation }> {
  const found: Array<{ path: string; method: HttpMethod; operation: Operation }> = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) found.push({ path, method, operation });
    }
  }
  return found;
}

/** Follows a local `#/...` JSON pointer reference. */
export function resolvePointer<T>(doc: OpenApiDocument, ref: string): T {
  if (!ref.startsWith("#/")) throw new Error(`only local references are resolved, got ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !(key in node)) throw new Error(`unresolvable reference ${ref}`);
    node = (node as Record<string, unknown>)[key];
  }
  return node as T;
}

/** Resolves an object that may be a `$ref`, following chains of references. */
export function deref<T>(doc: OpenApiDocument, value: T | { $ref: string }): T {
  let current: unknown = value;
  while (typeof current === "object" && current !== null && "$ref" in current) {
    current = resolvePointer(doc, (current as { $ref: string }).$ref);
  }
  return current as T;
}
