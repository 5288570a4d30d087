import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import type { OpenApiDocument } from "../../../model/document.ts";
import type { Finding, HouseRule, JsonPath } from "../../finding.ts";
import { explainErrors } from "../../ajv-errors.ts";
import { follow, isObject, pointerPath, type Json } from "../../refs.ts";
import { schemaRegistryOf } from "../../schema-registries.ts";

/** An example and the schema it shows, each where it is defined. */
interface Shown {
  name: string;
  value: unknown;
  /** Where the example's value is defined. */
  path: JsonPath;
  schema: Json;
  schemaPath: JsonPath;
}

/**
 * Every example of a media type, parameter or header (objects with a `schema`) outside schemas:
 * named examples (`examples`, followed to their component) and `example`. Example values are data
 * and are not searched.
 */
function examples(doc: OpenApiDocument): Shown[] {
  const found: Shown[] = [];
  const visit = (node: unknown, path: JsonPath): void => {
    if (Array.isArray(node)) {
      node.forEach((child, index) => {
        visit(child, [...path, index]);
      });
      return;
    }
    if (!isObject(node)) return;
    const schema = isObject(node.schema) ? follow(doc, node.schema, [...path, "schema"]) : undefined;
    if (schema !== undefined) {
      if ("example" in node)
        found.push({
          name: "example",
          value: node.example,
          path: [...path, "example"],
          schema: schema.node,
          schemaPath: schema.path,
        });
      for (const [name, example] of Object.entries(isObject(node.examples) ? node.examples : {})) {
        const defined = follow(doc, example, [...path, "examples", name]);
        if (defined && "value" in defined.node)
          found.push({
            name,
            value: defined.node.value,
            path: [...defined.path, "value"],
            schema: schema.node,
            schemaPath: schema.path,
          });
      }
    }
    for (const [key, child] of Object.entries(node)) {
      if (key !== "schema" && key !== "example" && key !== "examples" && !key.startsWith("x-"))
        visit(child, [...path, key]);
    }
  };
  visit(doc.paths, ["paths"]);
  for (const [kind, group] of Object.entries(doc.components))
    if (kind !== "schemas") visit(group, ["components", kind]);
  return found;
}

/** The error deepest in the example: where Ajv found it, rather than the union that none of the branches matched. */
function deepest(errors: ErrorObject[]): ErrorObject | undefined {
  return [...errors].sort((a, b) => b.instancePath.split("/").length - a.instancePath.split("/").length)[0];
}

const rule: HouseRule = {
  description:
    "The docs show the examples and the mock serves them, so each validates against its schema under JSON Schema 2020-12, in the strict registry the client, mock and tests validate with (model/schema-registry.ts).",
  check: (doc) => {
    const registry = schemaRegistryOf(doc);
    if (registry instanceof Error) return []; // the schemas-compile rule reports schemas that do not load
    const findings: Finding[] = [];
    const checked = new Set<string>();
    for (const { name, value, path, schema, schemaPath } of examples(doc)) {
      // A shared example under a shared schema is reported once, not at every use.
      const pair = JSON.stringify([path, schemaPath]);
      if (checked.has(pair)) continue;
      checked.add(pair);
      let validate: ValidateFunction;
      try {
        validate = registry.compile(schema);
      } catch {
        continue; // a schema that does not compile is the schemas-compile rule's finding
      }
      if (validate(value)) continue;
      const errors = validate.errors ?? [];
      const instancePath = deepest(errors)?.instancePath ?? "";
      const at = instancePath === "" ? [] : pointerPath(`#${instancePath}`);
      const broken = explainErrors("value", errors).slice(0, 3).join("; ");
      findings.push({
        path: [...path, ...at],
        message: `Example "${name}" does not match its schema (${schemaPath.join(".")}): ${broken}. Correct the example, or the schema if the example is right.`,
      });
    }
    return findings;
  },
};

export default rule;
