/**
 * The account's credits as the description shows them: the operation that reads the balance and its
 * field of credits available, and the fields of a create response that state a job's price and
 * billed seconds. Named once here for the sandbox, the conformance suite and its tests; the reader
 * fails, naming the spot, when the description no longer has them.
 */
import {
  deref,
  operations,
  type JsonSchema,
  type OpenApiDocument,
  type Operation,
  type ResponseObject,
} from "./document.ts";
import { mergedProperties } from "./schema-parts.ts";
import type { AccountModel } from "./types.ts";

/** The specification's route of the account's credits, and its fields this model names. */
const CREDITS_ROUTE = { path: "/v1/account/credits", method: "get" } as const;
const FIELDS = { availableField: "total_available", priceField: "credits", billedSecondsField: "seconds" } as const;

export function readAccount(doc: OpenApiDocument): AccountModel {
  const item = doc.paths[CREDITS_ROUTE.path];
  const operation = item ? deref<OpenApiDocument["paths"][string]>(doc, item)[CREDITS_ROUTE.method] : undefined;
  const route = `${CREDITS_ROUTE.method.toUpperCase()} ${CREDITS_ROUTE.path}`;
  if (!operation?.operationId)
    throw new Error(`the description has no operation ${route} with an operationId (the account's credits)`);
  if (!successFields(doc, operation).includes(FIELDS.availableField))
    throw new Error(`${route}'s 200 response has no ${FIELDS.availableField}`);
  const createFields = operations(doc).flatMap(({ operation: other }) => successFields(doc, other));
  for (const field of [FIELDS.priceField, FIELDS.billedSecondsField]) {
    if (!createFields.includes(field))
      throw new Error(`no 200 response of the description has a ${field} field (a create response's price)`);
  }
  return { creditsOperationId: operation.operationId, ...FIELDS };
}

/** The top-level fields of an operation's 200 JSON body. */
function successFields(doc: OpenApiDocument, operation: Operation): string[] {
  const response = operation.responses["200"];
  const schema = response ? deref<ResponseObject>(doc, response).content?.["application/json"]?.schema : undefined;
  return schema ? Object.keys(mergedProperties(doc, deref<JsonSchema>(doc, schema))) : [];
}
