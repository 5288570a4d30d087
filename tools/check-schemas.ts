/**
 * The build's check of a bundled description: the document against the OpenAPI 3.1 schema, and
 * every Schema Object in it against the JSON Schema 2020-12 meta-schema (the OpenAPI schema
 * leaves schemas open, so `type: intger` passes it). One finding per mistake, at the file and
 * line of openapi/ it comes from (lint/source-map.ts), so a typo fails the build instead of
 * generating `Record<string, never>`.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { relative } from "node:path";
import type { JsonPath } from "../lint/finding.ts";
import type { SourceMap } from "../lint/source-map.ts";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Compiled once per process: the OpenAPI schema takes a second to compile, then checks in tens of milliseconds. */
let openApi: Validator | undefined;
const metaSchema = new Ajv2020({ allErrors: true, strict: false });

/** Every Schema Object of the document with its path: components.schemas and each `schema` of a parameter, header or media type. */
function* schemasOf(doc: Json): Generator<[Json | boolean, JsonPath]> {
  for (const [name, schema] of Object.entries(
    isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {},
  )) {
    yield [schema as Json, ["components", "schemas", name]];
  }
  function* walk(node: unknown, path: JsonPath): Generator<[Json | boolean, JsonPath]> {
    if (Array.isArray(node)) for (const [index, item] of node.entries()) yield* walk(item, [...path, index]);
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "schema" && (isObject(value) || typeof value === "boolean")) yield [value, [...path, key]];
      else if (!(path.length === 1 && path[0] === "components" && key === "schemas"))
        yield* walk(value, [...path, key]);
    }
  }
  yield* walk(doc.paths, ["paths"]);
  yield* walk(doc.components, ["components"]);
}

const pointerToPath = (pointer: string): JsonPath =>
  pointer === ""
    ? []
    : pointer
        .slice(1)
        .split("/")
        .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));

/** The one error of a place that says most: an enum's allowed values, then a plain keyword, then "must match anyOf". */
function mostTelling(errors: readonly ErrorObject[]): Map<string, ErrorObject> {
  const rank = (error: ErrorObject): number =>
    "allowedValues" in error.params ? 0 : ["anyOf", "oneOf", "if"].includes(error.keyword) ? 2 : 1;
  const best = new Map<string, ErrorObject>();
  for (const error of errors) {
    const held = best.get(error.instancePath);
    if (!held || rank(error) < rank(held)) best.set(error.instancePath, error);
  }
  return best;
}

function sentence(error: ErrorObject, value: unknown): string {
  const name = String(pointerToPath(error.instancePath).at(-1) ?? "document");
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  if (allowed) return `${name} must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`;
  if (error.keyword === "additionalProperties")
    return `${name}: unknown key "${(error.params as { additionalProperty: string }).additionalProperty}"`;
  return `${name} ${error.message ?? `breaks ${error.keyword}`}`;
}

const valueAt = (root: unknown, path: JsonPath): unknown =>
  path.reduce<unknown>(
    (node, key) => (isObject(node) || Array.isArray(node) ? (node as Json)[key as string] : undefined),
    root,
  );

/**
 * The mistakes of a bundled document, each `file:line:col message`; `root` is the modular source it
 * was bundled from and `map` locates the bundle's paths in it (with the slug map the bundle applied).
 */
export async function checkSchemas(doc: Json, root: string, map: SourceMap): Promise<string[]> {
  const found: Array<{ path: JsonPath; message: string }> = [];
  openApi ??= new Validator({ allErrors: true });
  // The validator keeps what it is given (and resolves it), so it gets a copy.
  const { valid, errors } = await openApi.validate(structuredClone(doc));
  if (!valid && typeof errors === "string") found.push({ path: [], message: errors });
  else if (!valid && Array.isArray(errors)) {
    for (const error of mostTelling(errors).values()) {
      const path = pointerToPath(error.instancePath);
      found.push({ path, message: `${sentence(error, valueAt(doc, path))} (OpenAPI 3.1 schema)` });
    }
  }
  for (const [schema, at] of schemasOf(doc)) {
    if (metaSchema.validateSchema(schema) || !metaSchema.errors) continue;
    for (const error of mostTelling(metaSchema.errors).values()) {
      const path = [...at, ...pointerToPath(error.instancePath)];
      found.push({ path, message: `${sentence(error, valueAt(doc, path))} (JSON Schema 2020-12)` });
    }
  }
  const shown = (file: string): string => (relative(".", file).startsWith("..") ? file : relative(".", file));
  return found.map(({ path, message }) => {
    const place = map.locate(path) ?? map.locate(path.slice(0, -1));
    return place
      ? `${shown(place.file)}:${place.line}:${place.column} ${message}`
      : `${shown(root)} at /${path.join("/")}: ${message}`;
  });
}
