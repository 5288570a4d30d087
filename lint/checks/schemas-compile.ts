import type { Check, Finding, JsonPath } from "../finding.ts";
import { registryOf } from "../registry.ts";
import { allSchemas, schemaRoots } from "../schema-walk.ts";

const DISCRIMINATOR = "discriminator";

/** Ajv names a broken component as `$defs/<Name>/...` of the registry; point at the component instead. */
function componentPath(message: string): JsonPath {
  const match = /\$defs\/([^/\s,]+)((?:\/[^\s,]+)?)/.exec(message);
  if (!match?.[1]) return ["components", "schemas"];
  return ["components", "schemas", match[1], ...(match[2] ?? "").split("/").filter(Boolean)];
}

/** Rule 9: no discriminator (our mock and generators mishandle it). */
export const checkNoDiscriminator: Check = (doc) =>
  [...allSchemas(doc)]
    .filter(({ schema }) => schema[DISCRIMINATOR] !== undefined)
    .map(({ path }) => ({
      path: [...path, DISCRIMINATOR],
      message: "discriminator is not allowed (our mock and generators mishandle it): remove it and make the variants separable by their own shapes (const, required, not).",
    }));

/**
 * Rule 9: every schema compiles under JSON Schema 2020-12, in the strict registry the tests use
 * (unknown keywords and malformed extension values are errors).
 */
export const checkSchemasCompile: Check = (doc) => {
  const registry = registryOf(doc);
  const fix = "Fix the keyword it names: JSON Schema 2020-12 keywords and our documented extensions only (OpenAPI 3.0's nullable is not one).";
  if (registry instanceof Error) {
    return [{ path: componentPath(registry.message), message: `The component schemas do not load under JSON Schema 2020-12: ${registry.message}. ${fix}` }];
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
      // A discriminator has its own check with its exact place; a component broken in itself is
      // reported once, not again at every schema that refers to it.
      if (text.includes(`"${DISCRIMINATOR}"`) || reported.has(text)) continue;
      reported.add(text);
      findings.push({ path, message: `Schema does not compile under JSON Schema 2020-12: ${text}. ${fix}` });
    }
  }
  return findings;
};
