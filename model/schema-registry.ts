import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import extensions from "./extensions.schema.json" with { type: "json" };
import type { JsonSchema, OpenApiDocument } from "./document.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const SCHEMAS_ID = "urn:media-service:schemas";
const EXTENSIONS_ID = extensions.$id;

/** Names of the vendor extensions this project defines (the `x-` entries of extensions.schema.json). */
export const EXTENSION_NAMES: readonly string[] = Object.keys(extensions.$defs).filter((name) => name.startsWith("x-"));

/**
 * OpenAPI's own schema keywords that are not JSON Schema. `discriminator` is left out on purpose:
 * our mock and generators mishandle it, so Ajv's strict mode rejects any schema that uses it.
 */
const OPENAPI_KEYWORDS = ["example", "xml", "externalDocs"];

/** Rewrites `#/components/schemas/X` references so they resolve inside the schema registry. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] =
      key === "$ref" && typeof child === "string" && child.startsWith("#/components/schemas/")
        ? `${SCHEMAS_ID}#/$defs/${child.slice("#/components/schemas/".length)}`
        : rewriteRefs(child);
  }
  return out;
}

export interface SchemaRegistry {
  readonly ajv: Ajv2020;
  /** Compiles any schema of the document (inline or a component reference). Cached per object. */
  compile(schema: JsonSchema): ValidateFunction;
  /** The validator of `#/components/schemas/<name>`. */
  component(name: string): ValidateFunction;
}

/** Registries built lately, by their component schemas' JSON text; the oldest is dropped past the bound. */
const built = new Map<string, SchemaRegistry>();
const BUILT_BOUND = 8;

/**
 * A JSON Schema 2020-12 validator over the document's schemas, in strict mode: unknown keywords,
 * including undocumented `x-` extensions, are errors, and every documented extension's value is
 * checked against its definition wherever it appears in a schema.
 *
 * Shared by every document whose component schemas are the same text: building one checks each
 * schema against its meta-schema (about 80 ms), and a process reads the same bundle many times
 * (each sandbox, contract and suite run; a test worker, hundreds). Nothing is ever added to it but
 * compiled validators, which depend on the schemas' text alone.
 */
export function createSchemaRegistry(doc: OpenApiDocument): SchemaRegistry {
  const key = JSON.stringify(doc.components?.schemas ?? {});
  let registry = built.get(key);
  if (registry) built.delete(key);
  else registry = buildSchemaRegistry(doc);
  built.set(key, registry);
  if (built.size > BUILT_BOUND) built.delete(built.keys().next().value!);
  return registry;
}

function buildSchemaRegistry(doc: OpenApiDocument): SchemaRegistry {
  // strictSchema rejects unknown keywords (typos, undocumented extensions). `required` inside
  // anyOf/not branches and keywords without a sibling `type` are normal in 2020-12 cross-field
  // rules, so those two strict checks stay off.
  const ajv = new Ajv2020({
    strictSchema: true,
    strictNumbers: true,
    strictTuples: true,
    strictRequired: false,
    strictTypes: false,
    allErrors: true,
    validateFormats: true,
  });
  addFormats(ajv);
  ajv.addSchema(extensions);
  for (const keyword of OPENAPI_KEYWORDS) ajv.addKeyword({ keyword });
  for (const keyword of EXTENSION_NAMES) {
    ajv.addKeyword({ keyword, metaSchema: { $ref: `${EXTENSIONS_ID}#/$defs/${keyword}` } });
  }
  ajv.addSchema({ $id: SCHEMAS_ID, $defs: rewriteRefs(doc.components.schemas ?? {}) });

  // By object, then by text: another copy of the same document compiles nothing again.
  const byObject = new WeakMap<object, ValidateFunction>();
  const byText = new Map<string, ValidateFunction>();
  return {
    ajv,
    compile(schema) {
      let validate = byObject.get(schema);
      if (validate) return validate;
      const text = JSON.stringify(schema);
      validate = byText.get(text);
      if (!validate) {
        validate = ajv.compile(rewriteRefs(schema) as JsonSchema);
        byText.set(text, validate);
      }
      byObject.set(schema, validate);
      return validate;
    },
    component(name) {
      const validate = ajv.getSchema(`${SCHEMAS_ID}#/$defs/${name}`);
      if (!validate) throw new Error(`no schema #/components/schemas/${name}`);
      return validate;
    },
  };
}

/** One line per error: the instance path and the rule broken. */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((error) => `${error.instancePath || "(body)"} ${error.message ?? error.keyword} [${error.keyword}]`)
    .join("; ");
}
