/**
 * Ajv errors as "field: rule" sentences, for the 400 bodies of requests and for config errors. Ajv's
 * own messages leave the field out for `required` and `additionalProperties` (it sits in params),
 * and the allowed values out for `enum`; a person fixing a request needs both.
 */
import type { ErrorObject } from "ajv/dist/2020.js";

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
export function describeProblems(root: string, errors: readonly ErrorObject[] | null | undefined, schema?: object): string[] {
  const all = errors ?? [];
  const combinators = new Set(["anyOf", "oneOf", "allOf", "if"]);
  const leaves = all.filter((error) => !combinators.has(error.keyword));
  return [...new Set((leaves.length ? leaves : all).map((error) => describeProblem(root, error, schema)))];
}
