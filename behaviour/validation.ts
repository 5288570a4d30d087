/**
 * Ajv errors as "field: rule" sentences, for the 400 bodies of requests and for config errors. Ajv's
 * own messages leave the field out for `required` and `additionalProperties` (it sits in params),
 * and the allowed values out for `enum`; a person fixing a request needs both. What a client can
 * make of them is bounded: a body with more entries than any request needs is refused before it
 * is parsed and validated, and an answer names at most MAX_PROBLEMS problems, each cut at
 * MAX_PROBLEM_CHARS characters.
 */
import type { ErrorObject } from "ajv/dist/2020.js";
import { jsonShape } from "../http-server/json-shape.ts";

/**
 * Array items and object members a request body may hold, all levels together. The description's
 * largest body holds a few hundred (its longest arrays have tens of items); ten megabytes of
 * `[0,0,…]` hold five million, and a validator reporting every error would build one per item.
 */
export const MAX_BODY_ENTRIES = 10_000;
/** Problems named in one answer; the others are counted. */
export const MAX_PROBLEMS = 20;
/** One problem's text (a field name comes from the client and may be of any length). */
export const MAX_PROBLEM_CHARS = 300;

/** Why a JSON body is refused before it is parsed, or null: more entries than MAX_BODY_ENTRIES. */
export function bodyShapeProblem(root: string, text: string): string | null {
  const { entries } = jsonShape(text);
  return entries > MAX_BODY_ENTRIES
    ? `${root}: holds ${entries} array items and object members; a request holds at most ${MAX_BODY_ENTRIES}`
    : null;
}

const cut = (text: string): string =>
  text.length > MAX_PROBLEM_CHARS ? `${text.slice(0, MAX_PROBLEM_CHARS - 1)}…` : text;

/** `/a/0/b` as `a[0].b` under `root`. */
function fieldAt(root: string, pointer: string): string {
  let field = root;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    field += /^\d+$/.test(key) ? `[${key}]` : `.${key}`;
  }
  return field;
}

/**
 * The `description` of the cross-field rule (an `allOf` member of `schema`) an error comes from:
 * the description's rules quote the specification, which says more than "must NOT be valid".
 */
function ruleOf(schema: object | undefined, schemaPath: string): string | undefined {
  if (!schema || !schemaPath.startsWith("#/")) return undefined;
  let node: unknown = schema;
  let rule: string | undefined;
  let inAllOf = false;
  for (const key of schemaPath.slice(2).split("/")) {
    if (typeof node !== "object" || node === null) break;
    node = (node as Record<string, unknown>)[key];
    const description = (node as { description?: unknown } | undefined)?.description;
    if (inAllOf && typeof description === "string") rule = description.replace(/\s+/g, " ").trim();
    inAllOf = key === "allOf";
  }
  return rule;
}

export function describeProblem(root: string, error: ErrorObject, schema?: object): string {
  const rule = ruleOf(schema, error.schemaPath);
  if (rule && error.keyword === "not") return `${fieldAt(root, error.instancePath)}: breaks the rule ${rule}`;
  const text = describeLeaf(root, error);
  return rule ? `${text}; rule: ${rule}` : text;
}

function describeLeaf(root: string, error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const field = fieldAt(root, error.instancePath);
  switch (error.keyword) {
    case "required":
      return `${field}.${String(params.missingProperty)}: is required`;
    case "additionalProperties":
      return `${field}.${String(params.additionalProperty)}: is not a known field`;
    case "enum":
      return `${field}: must be one of ${(params.allowedValues as unknown[]).map(String).join(", ")}`;
    case "const":
      return `${field}: must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return `${field}: ${error.message ?? error.keyword} (${error.keyword})`;
  }
}

/**
 * The problems worth reading: schema combinators (`anyOf`, `oneOf`, `if`, `not` of a whole
 * schema) report their own failure after the leaf errors that explain it, so leaves come first.
 */
export function describeProblems(
  root: string,
  errors: readonly ErrorObject[] | null | undefined,
  schema?: object,
): string[] {
  const all = errors ?? [];
  const combinators = new Set(["anyOf", "oneOf", "allOf", "if"]);
  const leaves = all.filter((error) => !combinators.has(error.keyword));
  const named = new Set<string>();
  let more = 0;
  for (const error of leaves.length ? leaves : all) {
    if (named.size < MAX_PROBLEMS) named.add(cut(describeProblem(root, error, schema)));
    else more += 1;
  }
  return more > 0 ? [...named, `and ${more} more`] : [...named];
}
