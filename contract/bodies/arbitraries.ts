/**
 * fast-check arbitraries of request bodies drawn across a whole request schema: any subset of the
 * optional fields, every enum value, every integer of a range, item counts up to the limit. Media
 * inputs are drawn from the values the description's examples give the field (or a URL in a form
 * the field accepts), since a real server fetches them. Bodies breaking a cross-field rule are
 * filtered out by the schema's own validator.
 */
import fc from "fast-check";
import type { JsonSchema } from "../../model/document.ts";
import { isObject, type Json } from "./edits.ts";
import type { Body } from "./near-misses.ts";

/** Prompts from a few plain words: no text a target could read as a marker or an instruction. */
const WORDS = [
  "a",
  "lighthouse",
  "on",
  "cliff",
  "at",
  "dawn",
  "cat",
  "sofa",
  "river",
  "city",
  "quiet",
  "watercolor",
  "photo",
  "night",
];
const prompt = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }).map((words) => words.join(" "));

/** A URL of the media kind `x-media` names, with the first format it lists. */
function mediaUrl(schema: JsonSchema): string {
  const media = (schema["x-media"] ?? {}) as { kind?: string; formats?: string[] };
  const extension = media.formats?.[0] ?? { image: "png", video: "mp4", audio: "mp3" }[media.kind ?? ""] ?? "bin";
  return `https://files.example.com/input.${extension}`;
}

/** The distinct values the examples give `field`. */
function seen(field: string, examples: readonly Json[]): Json[] {
  const values = examples.flatMap((example) =>
    isObject(example) && example[field] !== undefined ? [example[field]] : [],
  );
  return [...new Map(values.map((value) => [JSON.stringify(value), value])).values()];
}

function arbitraryOf(field: string, schema: JsonSchema, examples: readonly Json[]): fc.Arbitrary<Json> {
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as Json[]));
  const given = seen(field, examples);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "integer":
      return fc.integer({
        min: (schema.minimum as number | undefined) ?? 0,
        max: (schema.maximum as number | undefined) ?? 1_000_000,
      });
    case "number":
      return fc.integer({
        min: Math.ceil((schema.minimum as number | undefined) ?? 0),
        max: Math.floor((schema.maximum as number | undefined) ?? 1_000),
      });
    case "boolean":
      return fc.boolean();
    case "array": {
      const pool = given.flatMap((value) => (Array.isArray(value) ? value : []));
      const items = pool.length ? fc.constantFrom(...pool) : fc.constant(schema["x-media"] ? mediaUrl(schema) : "item");
      const maxLength = Math.min((schema.maxItems as number | undefined) ?? 3, 10);
      const minLength = Math.min((schema.minItems as number | undefined) ?? 0, maxLength);
      // Distinct items: a media list of one file repeated is not what a caller sends.
      return fc
        .array(items, { minLength, maxLength })
        .map((list) =>
          list.map((value, index) =>
            typeof value === "string" && list.indexOf(value) !== index ? `${value}?n=${index}` : value,
          ),
        );
    }
    case "object":
      return fc.constant({});
    default:
      if (given.length) return fc.constantFrom(...given);
      if (schema["x-media"]) return fc.constant(mediaUrl(schema));
      return field === "prompt" ? prompt : fc.string({ unit: fc.constantFrom(...WORDS), minLength: 1, maxLength: 3 });
  }
}

/**
 * Valid bodies of `schema`: the required fields always, the others each drawn or left out. `valid`
 * is the schema's validator, which keeps only bodies that also satisfy its cross-field rules.
 */
export function validBodies(
  schema: JsonSchema,
  examples: readonly Json[],
  valid: (body: Json) => boolean,
): fc.Arbitrary<Body> {
  const properties = (isObject(schema.properties) ? schema.properties : {}) as Record<string, JsonSchema>;
  // Stryker disable next-line ArrayDeclaration: without `required` no field is required, whatever the stand-in list holds
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const fields = Object.entries(properties)
    .filter(([, property]) => isObject(property))
    .map(([field, property]) => {
      const value = arbitraryOf(field, property, examples);
      // An optional field is left out twice as often as sent: the modes a rule keeps apart are then often alone; shrinking leaves it out.
      return required.includes(field)
        ? value.map((drawn) => [field, drawn] as const)
        : fc.oneof(
            { withCrossShrink: true },
            { weight: 2, arbitrary: fc.constant(null) },
            { weight: 1, arbitrary: value.map((drawn) => [field, drawn] as const) },
          );
    });
  return fc
    .tuple(...fields)
    .map((entries) => Object.fromEntries(entries.filter((entry) => entry !== null)) as Body)
    .filter((body) => valid(body));
}
