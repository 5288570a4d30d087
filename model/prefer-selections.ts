/**
 * The `Prefer` values that select each documented answer of an operation from a Prism mock: every
 * named example of its responses' JSON content (`code=429, example=queue-full`), in document order.
 * The mock lists and checks them; the docs show them beside each operation.
 */
import { deref, type OpenApiDocument, type Operation, type ResponseObject } from "./document.ts";

export function preferSelections(doc: OpenApiDocument, operation: Operation): string[] {
  return Object.entries(operation.responses).flatMap(([status, raw]) =>
    Object.keys(deref<ResponseObject>(doc, raw).content?.["application/json"]?.examples ?? {}).map((name) => `code=${status}, example=${name}`),
  );
}
