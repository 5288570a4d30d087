import type { OpenApiDocument } from "../model/document.ts";
import { createSchemaRegistry, type SchemaRegistry } from "../model/schema-registry.ts";

const registries = new WeakMap<OpenApiDocument, SchemaRegistry | Error>();

/**
 * The document's schema registry, built once per document for all checks; the Error when the
 * component schemas do not even load (the schemas-compile check reports that).
 */
export function schemaRegistryOf(doc: OpenApiDocument): SchemaRegistry | Error {
  let registry = registries.get(doc);
  if (registry === undefined) {
    try {
      registry = createSchemaRegistry(doc);
    } catch (error) {
      registry = error as Error;
    }
    registries.set(doc, registry);
  }
  return registry;
}
