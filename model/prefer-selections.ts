/**
 * The `Prefer` values that select each documented answer of an operation from a Prism mock: every
 * named example of its responses' JSON content (`code=429, example=queue-full`), in document order.
 * The mock lists and checks them; the docs show them beside each operation.
 */
import { deref, type OpenApiDocument, type Operation, type ResponseObject } from "./document.ts";

/** The `Prefer` value that selects the example `name` of the `status` response. */
export function preferSelection(status: string, name: string): string {
  return `code=${status}, example=${name}`;
}

export function preferSelections(doc: OpenApiDocument, operation: Operation): string[] {
  return Object.entries(operation.responses).flatMap(([status, raw]) =>
    Object.keys(deref<ResponseObject>(doc, raw).content?.["application/json"]?.examples ?? {}).map((name) =>
      preferSelection(status, name),
    ),
  );
}
