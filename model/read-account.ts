/**
 * The account's credits as the description shows them: the operation that reads the balance and its
 * field of credits available, and the fields of a create response that state a job's price and
 * billed seconds. Named once here for the sandbox, the conformance suite and its tests; the reader
 * fails, naming the spot, when the description no longer has them.
 */
import { deref, operations, type JsonSchema, type OpenApiDocument, type Operation, type ResponseObject } from "./document.ts";
import { mergedProperties } from "./schema-parts.ts";
import type { AccountModel } from "./types.ts";

const ACCOUNT: AccountModel = { creditsOperationId: "getAccountCredits", availableField: "total_available", priceField: "credits", billedSecondsField: "seconds" };

export function readAccount(doc: OpenApiDocument): AccountModel {
  const found = operations(doc).find(({ operation }) => operation.operationId === ACCOUNT.creditsOperationId);
  if (!found) throw new Error(`the description has no operation ${ACCOUNT.creditsOperationId} (the account's credits)`);
  if (!successFields(doc, found.operation).includes(ACCOUNT.availableField)) throw new Error(`${ACCOUNT.creditsOperationId}'s 200 response has no ${ACCOUNT.availableField}`);
  const createFields = operations(doc).flatMap(({ operation }) => successFields(doc, operation));
  for (const field of [ACCOUNT.priceField, ACCOUNT.billedSecondsField]) {
    if (!createFields.includes(field)) throw new Error(`no 200 response of the description has a ${field} field (a create response's price)`);
  }
  return ACCOUNT;
}

/** The top-level fields of an operation's 200 JSON body. */
function successFields(doc: OpenApiDocument, operation: Operation): string[] {
  const response = operation.responses["200"];
  const schema = response ? deref<ResponseObject>(doc, response).content?.["application/json"]?.schema : undefined;
  return schema ? Object.keys(mergedProperties(doc, deref<JsonSchema>(doc, schema))) : [];
}
