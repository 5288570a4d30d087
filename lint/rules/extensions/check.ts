import { Ajv2020 } from "ajv/dist/2020.js";
import extensions from "../../../model/extensions.schema.json" with { type: "json" };
import { EXTENSION_NAMES } from "../../../model/schema-registry.ts";
import type { Finding, HouseRule, JsonPath } from "../../finding.ts";
import { explainErrors } from "../../ajv-errors.ts";
import { isObject } from "../../refs.ts";

/** Objects whose keys are names (paths, properties, status codes, media types), not fields. */
const NAME_MAPS = new Set([
  "paths",
  "webhooks",
  "properties",
  "patternProperties",
  "$defs",
  "dependentSchemas",
  "dependentRequired",
  "responses",
  "headers",
  "content",
  "examples",
  "links",
  "callbacks",
  "variables",
  "encoding",
  "securitySchemes",
  "mapping",
  "scopes",
  "schemas",
  "parameters",
  "requestBodies",
  "pathItems",
]);
/** Values that are payload data, whose keys are never extensions. */
const DATA = new Set(["value", "example", "enum", "const", "default"]);

// strictTypes off as in the schema registry: the definitions use union types and if/then on arrays.
const ajv = new Ajv2020({ allErrors: true, strictTypes: false });
ajv.addSchema(extensions);

function* extensionsIn(
  node: unknown,
  path: JsonPath,
  keysAreNames: boolean,
): Generator<{ name: string; value: unknown; path: JsonPath }> {
  if (Array.isArray(node)) {
    for (const [index, child] of node.entries()) yield* extensionsIn(child, [...path, index], false);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, child] of Object.entries(node)) {
    if (!keysAreNames && key.startsWith("x-")) yield { name: key, value: child, path: [...path, key] };
    else if (!DATA.has(key) || keysAreNames)
      yield* extensionsIn(child, [...path, key], !keysAreNames && NAME_MAPS.has(key) && isObject(child));
  }
}

/**
 * Every x- extension is one of ours (model/extensions.schema.json) and its value
 * matches its definition there.
 */
const rule: HouseRule = {
  description:
    "Tools read the vendor extensions; only the documented ones exist (docs/extensions.md), each with a value that matches its definition in model/extensions.schema.json.",
  check: (doc) => {
    const findings: Finding[] = [];
    for (const { name, value, path } of extensionsIn(doc, [], false)) {
      const validate = EXTENSION_NAMES.includes(name) ? ajv.getSchema(`${extensions.$id}#/$defs/${name}`) : undefined;
      if (validate === undefined) {
        findings.push({
          path,
          message: `Unknown extension ${name}: use only the documented extensions (docs/extensions.md); a new one is defined first in model/extensions.schema.json.`,
        });
      } else if (!validate(value)) {
        findings.push({
          path,
          message: `Malformed ${name}: ${explainErrors(name, validate.errors ?? []).join("; ")}. Fix it to match its definition in model/extensions.schema.json.`,
        });
      }
    }
    return findings;
  },
};

export default rule;
