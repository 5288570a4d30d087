import type { Finding, HouseRule, JsonPath } from "../../finding.ts";
import { schemaRegistryOf } from "../../schema-registries.ts";
import { schemaRoots } from "../../schema-walk.ts";
import { DISCRIMINATOR } from "../no-discriminator/check.ts";

/** Ajv names a broken component as `$defs/<Name>/...` of the registry; point at the component instead. */
function componentPath(message: string): JsonPath {
  const match = /\$defs\/([^/\s,]+)((?:\/[^\s,]+)?)/.exec(message);
  if (!match?.[1]) return ["components", "schemas"];
  return ["components", "schemas", match[1], ...(match[2] ?? "").split("/").filter(Boolean)];
}

/** Unknown keywords and malformed extension values are errors, as in the strict registry the tests use. */
const rule: HouseRule = {
  description:
    "Every schema compiles under JSON Schema 2020-12 in the strict registry the client, mock and tests validate with (model/schema-registry.ts).",
  check: (doc) => {
    const registry = schemaRegistryOf(doc);
    const fix =
      "Fix the keyword it names: JSON Schema 2020-12 keywords and our documented extensions only (OpenAPI 3.0's nullable is not one).";
    if (registry instanceof Error) {
      return [
        {
          path: componentPath(registry.message),
          message: `The component schemas do not load under JSON Schema 2020-12: ${registry.message}. ${fix}`,
        },
      ];
    }
    const findings: Finding[] = [];
    const reported = new Set<string>();
    for (const { schema, path } of schemaRoots(doc)) {
      try {
        const [kind, group, name] = path;
        if (kind === "components" && group === "schemas") registry.component(String(name));
        else registry.compile(schema);
      } catch (error) {
        const text = (error as Error).message;
        // A discriminator is the no-discriminator rule's, with its exact place; a component broken
        // in itself is reported once, not again at every schema that refers to it.
        if (text.includes(`"${DISCRIMINATOR}"`) || reported.has(text)) continue;
        reported.add(text);
        findings.push({ path, message: `Schema does not compile under JSON Schema 2020-12: ${text}. ${fix}` });
      }
    }
    return findings;
  },
};

export default rule;
