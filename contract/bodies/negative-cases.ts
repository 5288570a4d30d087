/**
 * Negative request bodies generated from a request schema: for every constraint (enum, const,
 * bounds, lengths, item counts, required, type, closed objects, and each cross-field rule written
 * with not / anyOf / oneOf / if-then / dependentRequired) one body that breaks exactly that
 * constraint. "Exactly" is decided by the validator itself: the body fails the schema, and passes
 * the same schema with only that constraint removed. Where no small edit breaks a constraint
 * alone, a body that breaks it among others stands in: it must be rejected all the same.
 * Candidates are small edits of the description's own valid examples.
 */
import type { ErrorObject } from "ajv";
import type { JsonSchema } from "../../model/document.ts";
import type { SchemaRegistry } from "../../model/schema-registry.ts";
import { constraints, ruleText, withoutConstraint, type Constraint } from "./constraints.ts";
import { applyEdits, combinations, isObject, uniqueEdits, type Json } from "./edits.ts";
import { ValueSource } from "./values.ts";
import { mentionEdits, violationEdits } from "./violations.ts";

export interface NegativeCase {
  constraint: Constraint;
  /** The rule broken, for reports. */
  rule: string;
  body: Json;
  /** The other rules the body breaks, where no small edit breaks the constraint alone. */
  alsoBreaks?: string;
}

export interface NegativeCaseSet {
  cases: NegativeCase[];
  /** Constraints no small edit of the examples breaks at all. */
  uncovered: Array<{ rule: string }>;
}

const MAX_CANDIDATES = 4_000;

export function negativeCases(schema: JsonSchema, examples: Json[], registry: SchemaRegistry): NegativeCaseSet {
  const validate = registry.compile(schema);
  const bases = baseBodies(
    schema,
    examples.filter((example) => validate(example)),
    (body) => validate(body) === true,
  );
  const values = new ValueSource(schema, bases);
  const result: NegativeCaseSet = { cases: [], uncovered: [] };
  for (const constraint of constraints(schema)) {
    const rule = ruleText(constraint);
    const relaxed = registry.compile(withoutConstraint(schema, constraint));
    const breaksExactly = (body: Json): boolean => !validate(body) && relaxed(body) === true;
    let among: { body: Json; others: ErrorObject[] } | undefined;
    // Remembers the first body that breaks the constraint among others, in case none breaks it alone.
    const breaksAmong = (body: Json): void => {
      if (among || validate(body)) return;
      const errors = validate.errors ?? [];
      if (errors.some((error) => ownError(constraint, error)))
        among = { body, others: errors.filter((error) => !ownError(constraint, error)) };
    };
    const body = findBody(constraint, bases, values, (candidate) => {
      if (breaksExactly(candidate)) return true;
      breaksAmong(candidate);
      return false;
    });
    if (body !== undefined) result.cases.push({ constraint, rule, body });
    else if (among) result.cases.push({ constraint, rule, body: among.body, alsoBreaks: otherRules(among.others) });
    else result.uncovered.push({ rule });
  }
  return result;
}

/** The other rules a body breaks, each once by keyword and place (an `if` error only repeats its `then`'s). */
function otherRules(errors: ErrorObject[]): string {
  return [
    ...new Set(
      errors.filter((error) => error.keyword !== "if").map((error) => `${error.keyword} (${error.schemaPath})`),
    ),
  ].join(", ");
}

/** Whether a validation error is the constraint's own: its keyword at its place in the schema. */
function ownError(constraint: Constraint, error: ErrorObject): boolean {
  const at = `#/${[...constraint.schemaPath, constraint.keyword].join("/")}`;
  return error.schemaPath === at || error.schemaPath.startsWith(`${at}/`);
}

/** The examples, and each reduced to its required properties, as starting points. */
function baseBodies(schema: JsonSchema, examples: Json[], valid: (body: Json) => boolean): Json[] {
  // Stryker disable next-line ArrayDeclaration: without `required`, an example reduced to the stand-in names is empty, as it is reduced to none
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const bases: Json[] = [...examples];
  for (const example of examples) {
    if (!isObject(example)) continue;
    const reduced = Object.fromEntries(Object.entries(example).filter(([key]) => required.includes(key)));
    if (valid(reduced) && !bases.some((base) => JSON.stringify(base) === JSON.stringify(reduced))) bases.push(reduced);
  }
  return bases;
}

function findBody(
  constraint: Constraint,
  bases: Json[],
  values: ValueSource,
  breaksExactly: (body: Json) => boolean,
): Json {
  const enabling = uniqueEdits(
    constraint.conditions.flatMap((condition) => mentionEdits(condition.schema, condition.instancePath, values)),
  ).filter((edit) => !edit.remove);
  const violations = violationEdits(constraint, values);
  let tried = 0;
  for (const base of bases) {
    for (const context of combinations(enabling, 2)) {
      for (const violation of violations) {
        if (++tried > MAX_CANDIDATES) return undefined;
        const body = applyEdits(base, [...context, ...violation]);
        if (breaksExactly(body)) return body;
      }
    }
  }
  return undefined;
}
