/**
 * Which 429 bodies carry `Retry-After`, read from `x-retry-after` on the 429 variant schemas. The
 * conformance check and the mock both decide it here, from the body the response carries.
 */
import type { JsonSchema } from "../model/document.ts";
import type { Contract } from "./contract.ts";
import { schemaProblems } from "./response-check.ts";

const schemaRef = (name: string): string => `#/components/schemas/${name}`;

/** Every schema carrying `x-retry-after`: the 429 variants, wherever the description lists them. */
export function retryAfterVariants(contract: Contract): string[] {
  return Object.entries(contract.doc.components.schemas ?? {})
    .filter(([, schema]) => "x-retry-after" in schema)
    .map(([name]) => name);
}

/** The variant names a 429 response schema's anyOf/oneOf lists (each a component `$ref`). */
export function variantsOf(contract: Contract, schema: JsonSchema): string[] {
  const union = contract.deref(schema);
  const members = (union.anyOf ?? union.oneOf ?? []) as Array<{ $ref?: string }>;
  return members.map((member, index) => {
    const name = member.$ref?.startsWith(schemaRef("")) ? member.$ref.slice(schemaRef("").length) : undefined;
    if (!name) throw new Error(`429 body schema: member ${index} of its union is not a $ref to a component schema`);
    return name;
  });
}

function sendsRetryAfter(contract: Contract, name: string): boolean {
  const flag = contract.deref<JsonSchema>({ $ref: schemaRef(name) })["x-retry-after"];
  if (typeof flag !== "boolean") throw new Error(`429 variant ${name} does not say whether it sends Retry-After (x-retry-after)`);
  return flag;
}

export interface RetryAfterVerdict {
  /** The variants among `names` whose schema `body` validates against. */
  matching: string[];
  /** Whether Retry-After must be sent; undefined when no variant matches or the matches disagree. */
  sends: boolean | undefined;
}

export function retryAfterFor(contract: Contract, names: string[], body: unknown): RetryAfterVerdict {
  const matching = names.filter((name) => !schemaProblems(contract, { $ref: schemaRef(name) }, body));
  const flags = new Set(matching.map((name) => sendsRetryAfter(contract, name)));
  return { matching, sends: flags.size === 1 ? [...flags][0] : undefined };
}
