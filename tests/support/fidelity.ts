import { expect, it } from "vitest";
import type { JsonSchema } from "../../model/document.ts";
import { bodyErrors, requestSchema } from "./description.ts";

/**
 * Table-driven fidelity checks read off the seed: each good body must validate, and each bad body
 * (one rule broken) must be rejected with an error that mentions `expectKeyword`.
 */
export interface BadBody {
  rule: string;
  body: Body;
  /** The Ajv keyword expected among the errors, e.g. "enum", "maximum", "required", "not". */
  keyword: string;
}

export function accepts(path: string, cases: Record<string, Record<string, unknown>>): void {
  for (const [name, body] of Object.entries(cases)) {
    it(`accepts ${name}`, () => {
      expect(bodyErrors(path, body)).toBe("");
    });
  }
}

export function rejects(path: string, cases: BadBody[]): void {
  for (const { rule, body, keyword } of cases) {
    it(`rejects: ${rule}`, () => {
      const errors = bodyErrors(path, body);
      expect(errors, `body ${JSON.stringify(body)} should break "${rule}"`).not.toBe("");
      expect(errors).toContain(`[${keyword}]`);
    });
  }
}

export type Body = Record<string, unknown>;

/** The seed's "four input forms", and its "URL"/"URLs only", in x-media's vocabulary. */
export const FOUR_FORMS = ["public-url", "data-uri", "raw-base64", "uploaded-file-url"];
export const URL_FORMS = ["public-url", "uploaded-file-url"];

/** `count` distinct example URLs ending in `.ext`, for array media fields. */
export const exampleUrls = (count: number, ext = "png"): string[] =>
  Array.from({ length: count }, (_, i) => `https://files.example.com/${i}.${ext}`);

// Bad-body builders: each breaks exactly one rule of a valid `base` body.

export function outsideEnum(base: Body, field: string, values: unknown[]): BadBody[] {
  return values.map((value) => ({
    rule: `${field} ${JSON.stringify(value)} is outside its enum`,
    body: { ...base, [field]: value },
    keyword: "enum",
  }));
}

/** Below the minimum, above the maximum, and (for integers) a fraction inside the range. */
export function outOfRange(base: Body, field: string, min: number, max: number): BadBody[] {
  return [
    { rule: `${field} ${min - 1} is below ${min}`, body: { ...base, [field]: min - 1 }, keyword: "minimum" },
    { rule: `${field} ${max + 1} is above ${max}`, body: { ...base, [field]: max + 1 }, keyword: "maximum" },
    { rule: `${field} is an integer`, body: { ...base, [field]: min + 0.5 }, keyword: "type" },
  ];
}

export function tooManyItems(base: Body, field: string, max: number, ext = "png"): BadBody {
  return {
    rule: `${field} with ${max + 1} items (at most ${max})`,
    body: { ...base, [field]: exampleUrls(max + 1, ext) },
    keyword: "maxItems",
  };
}

export function wrongTypes(base: Body, values: Body): BadBody[] {
  return Object.entries(values).map(([field, value]) => ({
    rule: `${field} of the wrong type (${JSON.stringify(value)})`,
    body: { ...base, [field]: value },
    keyword: "type",
  }));
}

export function unknownField(base: Body): BadBody {
  return {
    rule: "an unknown field on a closed schema",
    body: { ...base, seed_lists_no_such_field: 1 },
    keyword: "additionalProperties",
  };
}

export function missing(base: Body, field: string): BadBody {
  const { [field]: _dropped, ...rest } = base;
  return { rule: `${field} missing (required)`, body: rest, keyword: "required" };
}

// The request schema's declared facts, read back for comparison with the seed.

export function requestProperties(path: string): Record<string, JsonSchema> {
  return (requestSchema(path).properties ?? {}) as Record<string, JsonSchema>;
}

/** `keyword`'s value on each request property that declares it, e.g. every `default`. */
export function declared(path: string, keyword: string): Body {
  return Object.fromEntries(
    Object.entries(requestProperties(path))
      .filter(([, schema]) => keyword in schema)
      .map(([name, schema]) => [name, schema[keyword]]),
  );
}
