/** The error responses: the error body, the 400 causes, 410 and each 429 variant, read off a create route's responses. */
import { deref, operations, type JsonSchema, type OpenApiDocument, type Operation } from "./document.ts";
import { constAt, fail, jsonSchema, mergedProperties, mergedRequired, response, schemaName } from "./schema-parts.ts";
import type { ErrorModel, TooManyCondition, TooManyVariant } from "./types.ts";

/** The variant schemas of an error response's body (its `oneOf` or `anyOf`), with their refs. */
function bodyVariants(
  doc: OpenApiDocument,
  where: string,
  operation: Operation,
  status: string,
): Array<{ ref: unknown; schema: JsonSchema }> {
  const body =
    jsonSchema(doc, response(doc, where, operation, status).content) ??
    fail(`${where}'s ${status} response has no JSON schema`);
  const variants = (body.oneOf ?? body.anyOf) as JsonSchema[] | undefined;
  return (variants ?? fail(`${where}'s ${status} body is not a oneOf/anyOf of variants`)).map((ref) => ({
    ref,
    schema: deref(doc, ref),
  }));
}

/** The property holding a number of seconds, at the top of the body or in `error`. */
function secondsField(doc: OpenApiDocument, schema: JsonSchema): string | null {
  const properties = mergedProperties(doc, schema);
  const levels = [properties, ...(properties.error ?? []).map((error) => mergedProperties(doc, error))];
  for (const level of levels) {
    const found = Object.entries(level).find(([, schemas]) => schemas.some((candidate) => candidate.type === "number"));
    if (found) return found[0];
  }
  return null;
}

function tooManyVariants(
  doc: OpenApiDocument,
  where: string,
  operation: Operation,
  conditions: ReadonlyMap<string, TooManyCondition>,
): TooManyVariant[] {
  return bodyVariants(doc, where, operation, "429").map(({ ref, schema }) => {
    const name = schemaName(ref, `a 429 body variant of ${where}`);
    const retryAfter = schema["x-retry-after"];
    if (typeof retryAfter !== "boolean")
      fail(`the 429 variant ${name} does not say with x-retry-after whether it sends Retry-After`);
    return {
      schema: name,
      condition: conditions.get(name) ?? fail(`no x-limits entry names the 429 variant ${name}`),
      retryAfter,
      type: constAt(doc, schema, ["error", "type"]),
      code: constAt(doc, schema, ["error", "code"]),
      secondsField: secondsField(doc, schema),
    };
  });
}

function moderation(doc: OpenApiDocument, where: string, operation: Operation): ErrorModel["moderation"] {
  for (const { schema } of bodyVariants(doc, where, operation, "400")) {
    const properties = mergedProperties(doc, schema);
    const reason = Object.entries(properties).find(([, schemas]) =>
      schemas.some((candidate) => Array.isArray(candidate.enum)),
    );
    if (!reason) continue;
    const messageField =
      mergedRequired(doc, schema).find((field) => field !== reason[0]) ??
      fail(`the moderation body of ${where} has no message field`);
    const reasonSchema = reason[1].find((candidate) => Array.isArray(candidate.enum))!;
    return {
      status: 400,
      messageField,
      reasonField: reason[0],
      reasons: reasonSchema.enum as string[],
      description: String(reasonSchema.description ?? ""),
      reasonDescriptions: (reasonSchema["x-enumDescriptions"] ?? {}) as Record<string, string>,
    };
  }
  return fail(`no 400 body variant of ${where} has an enum property (the moderation block)`);
}

/** The type and code of the 400 examples whose `error` is an object: the one invalid-request cause shown. */
function invalidRequest(doc: OpenApiDocument, where: string, operation: Operation): ErrorModel["invalidRequest"] {
  const found = new Set<string>();
  for (const example of Object.values(
    response(doc, where, operation, "400").content?.["application/json"]?.examples ?? {},
  )) {
    const error = deref<{ value?: { error?: unknown } }>(doc, example as { $ref: string }).value?.error;
    if (typeof error === "object" && error !== null) {
      const { type, code } = error as { type?: unknown; code?: unknown };
      if (typeof type === "string" && typeof code === "string") found.add(JSON.stringify([type, code]));
    }
  }
  if (found.size !== 1)
    fail(`the 400 examples of ${where} show ${found.size} error type/code pairs; exactly one expected`);
  const [type, code] = JSON.parse([...found][0]!) as [string, string];
  return { status: 400, type, code };
}

export function readErrors(doc: OpenApiDocument, conditions: ReadonlyMap<string, TooManyCondition>): ErrorModel {
  const create =
    operations(doc).find(({ operation }) => typeof operation["x-model-label"] === "string") ??
    fail("no create operation");
  const where = `POST ${create.path}`;
  const errorBody =
    jsonSchema(doc, response(doc, where, create.operation, "401").content) ??
    fail(`${where}'s 401 response has no JSON schema`);
  const bodyFields = (mergedProperties(doc, errorBody).error ?? []).flatMap(
    (error) => (error.required as string[] | undefined) ?? [],
  );
  if (bodyFields.length === 0) fail(`the error body of ${where}'s 401 response requires no error fields`);
  const retired =
    jsonSchema(doc, response(doc, where, create.operation, "410").content) ??
    fail(`${where}'s 410 response has no JSON schema`);
  return {
    bodyFields,
    invalidRequest: invalidRequest(doc, where, create.operation),
    moderation: moderation(doc, where, create.operation),
    unauthorized: { status: 401 },
    forbidden: { status: 403 },
    retired: {
      status: 410,
      code: constAt(doc, retired, ["error", "code"]) ?? fail(`${where}'s 410 body fixes no error.code`),
    },
    tooManyRequests: { status: 429, variants: tooManyVariants(doc, where, create.operation, conditions) },
  };
}
