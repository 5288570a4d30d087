/**
 * Faults of request validation generated from the rule catalogue: one per rule that the
 * request-validation check names through an operation (`route:` references: a body field, a
 * constraint of one, a cross-field rule, a further model's whole body). Each fault's sandbox no
 * longer enforces, on that one operation, the part of the request schema the rule's description
 * pointers name: the property taken as anything (and no longer required), the keyword or
 * cross-field rule dropped, or the whole body unchecked; and its quotes, which check the fields a
 * price reads, do not enforce it either. The check catches it when a negative case on that
 * operation breaking a constraint within that part is accepted. A rule no such case can show
 * gets no fault, and UNCATCHABLE_FIELD_RULES says why: there is no such case, or every one is a
 * body the description lets a target accept (a field whose name the specification only implies, a
 * route whose path it does not show, a field beyond the listed ones), which the sandbox, declaring
 * `describedShapes`, does not.
 */
import { negativeResult, requestValidation } from "../../../conformance/checks/request-validation.ts";
import { rulesNamed } from "../../../conformance/rules.ts";
import type { Constraint } from "../../../contract/bodies/constraints.ts";
import { Contract, type ContractOperation } from "../../../contract/contract.ts";
import type { JsonSchema } from "../../../model/document.ts";
import { readCatalogue, type Rule } from "../../../spec/catalogue.ts";
import type { FieldRule, PriceTables, RoutePricing } from "../../../runtime/costs/pricing.ts";
import type { Rule as SandboxRule } from "../../../behaviour/rules.ts";
import type { ServiceState } from "../../../behaviour/state.ts";
import { sandboxDeclaration } from "../support/sandbox-declaration.ts";
import { wrap, type Fault } from "./support.ts";
import { validatingAs } from "./validation.ts";

/** A generated fault's name: `field:` and the rule it breaks. */
export type FieldFaultName = `field:${string}`;

/** Where a rule lies: an operation, and the places in its request schema (segments of a pointer; [] for the whole body). */
interface RulePlace {
  readonly rule: Rule;
  readonly op: ContractOperation;
  readonly at: ReadonlyArray<readonly string[]>;
}

/** What must fail when a field fault is injected: a request-validation result on `route` named one of `results`. */
export interface FieldCatch {
  readonly route: string;
  readonly results: readonly string[];
}

const OPERATION = /^\/paths\/([^/]+)\/([a-z]+)(.*)$/;
const IN_REQUEST_SCHEMA = /^(?:\/requestBody(?:\/content\/[^/]+(?:\/schema((?:\/[^/]+)*))?)?)?$/;
const decodedSegment = (segment: string): string => segment.replace(/~1/g, "/").replace(/~0/g, "~");

/** The rules the request-validation check names through an operation, each with its place. */
function placesOf(contract: Contract): RulePlace[] {
  const catalogue = readCatalogue();
  const references = Object.values(requestValidation.rules ?? {})
    .flat()
    .filter((reference) => reference.startsWith("route:"));
  const rules = new Map(
    references.flatMap((reference) => rulesNamed(catalogue, reference)).map((rule) => [rule.id, rule]),
  );
  return [...rules.values()].map((rule) => {
    const located = (rule.openapi ?? []).map((pointer) => {
      const [, path = "", method = "", rest = ""] = OPERATION.exec(pointer) ?? [];
      const op = contract.byPath(method, decodedSegment(path));
      const inSchema = IN_REQUEST_SCHEMA.exec(rest);
      if (!op?.requestSchema || !inSchema)
        throw new Error(`rule ${rule.id}: ${pointer} is not in an operation's request schema`);
      return { op, at: (inSchema[1] ?? "").split("/").filter(Boolean).map(decodedSegment) };
    });
    const op = located[0]?.op;
    if (!op || located.some((place) => place.op !== op))
      throw new Error(`rule ${rule.id}: its pointers must lie in one operation's request schema`);
    return { rule, op, at: located.map((place) => place.at) };
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `schema` with the part at `at` no longer enforced (a copy). */
function loosened(schema: JsonSchema, at: readonly string[], ruleId: string): JsonSchema {
  if (at.length === 0) return { type: schema.type ?? "object" };
  const copy = structuredClone(schema);
  let parent: unknown = copy;
  for (const segment of at.slice(0, -1)) parent = (parent as Record<string, unknown>)[segment];
  const last = at[at.length - 1]!;
  if (Array.isArray(parent) && Number(last) < parent.length) parent.splice(Number(last), 1);
  else if (isObject(parent) && last in parent) {
    // A property is taken as anything, not removed: a closed schema would then refuse it.
    if (at.at(-2) === "properties") parent[last] = {};
    else delete parent[last];
  } else throw new Error(`rule ${ruleId}: #/${at.join("/")} is not in the request schema`);
  if (at.length === 2 && at[0] === "properties" && Array.isArray(copy.required))
    copy.required = (copy.required as string[]).filter((field) => field !== last);
  return copy;
}

/**
 * The pricing's checks of `route` with the part at `at` of the request schema (`schema`) no longer
 * enforced: the sandbox checks the fields its prices read a second time, as it quotes, and a
 * service that does not enforce a rule enforces it nowhere.
 */
function loosenedPricing(route: RoutePricing, schema: JsonSchema, at: readonly string[]): RoutePricing {
  const [where, field, keyword] = at;
  if (where === undefined) return { ...route, fields: {}, crossFieldRules: [], knownFields: null };
  if (where === "additionalProperties" && at.length === 1) return { ...route, knownFields: null };
  if (where === "allOf" && field !== undefined && at.length === 2) {
    const rule = (schema.allOf as JsonSchema[] | undefined)?.[Number(field)];
    return {
      ...route,
      crossFieldRules: route.crossFieldRules.filter((cross) => cross.description !== rule?.description),
    };
  }
  if (where !== "properties" || field === undefined || !(field in route.fields)) return route;
  const { [field]: rule, ...others } = route.fields;
  if (keyword === undefined) return { ...route, fields: others };
  const { [keyword as keyof FieldRule]: _dropped, ...kept } = rule as FieldRule;
  return at.length === 3 ? { ...route, fields: { ...others, [field]: kept as FieldRule } } : route;
}

/** The price rule quoting `operationId`'s requests with `loosen`'s pricing checks. */
function pricingAs(
  operationId: string,
  loosen: (route: RoutePricing) => RoutePricing,
): (rules: readonly SandboxRule[]) => readonly SandboxRule[] {
  const read = new WeakMap<ServiceState, PriceTables>();
  return wrap("price", (original) => (call, state) => {
    if (call.op.operationId !== operationId) return original(call, state);
    let priceTables = read.get(state);
    if (!priceTables) {
      const tables = state.priceTables;
      const path = Object.keys(tables).find((key) => tables[key]?.operationId === operationId);
      priceTables = path ? { ...tables, [path]: loosen(tables[path]!) } : tables;
      read.set(state, priceTables);
    }
    return original(call, Object.assign(Object.create(state) as ServiceState, { priceTables }));
  });
}

/** Whether a constraint lies in the part at `at` (a property's own constraints include its being required). */
function within(constraint: Constraint, at: readonly string[]): boolean {
  const path = [...constraint.schemaPath.map(String), constraint.keyword];
  if (at.every((segment, index) => path[index] === segment)) return true;
  return (
    at.length === 2 &&
    at[0] === "properties" &&
    constraint.keyword === "required" &&
    constraint.name === at[1] &&
    constraint.schemaPath.length === 0
  );
}

const contract = new Contract();
const places = placesOf(contract);
/** The faults run against the sandbox as it declares itself. */
const described = sandboxDeclaration(contract).describedShapes;

/** For each rule, the results a target must fail that no longer enforces it, or why it can show none. */
const catches = places.map(({ rule, op, at }) => {
  // Loosened once here, so that a pointer naming nothing fails at once, not in a sandbox.
  for (const part of at) loosened(op.requestSchema ?? {}, part, rule.id);
  const set = contract.negativeCases(op);
  const inPart = set.cases.filter((negative) => at.some((part) => within(negative.constraint, part)));
  const results = inPart.map((negative) => negativeResult(op, negative, described));
  const sent = results.filter((result) => result.unstated === null).map((result) => result.name);
  const why = [...new Set(results.flatMap((result) => (result.unstated === null ? [] : [result.unstated])))];
  return {
    place: { rule, op, at },
    caught: { route: op.route, results: sent },
    why: why.length
      ? `every negative case on it is a body the description lets a target accept: ${why.join("; ")}`
      : "no negative case breaks a constraint within it",
  };
});

/** The rules named through an operation that no negative case can show broken, each with the reason. */
export const UNCATCHABLE_FIELD_RULES: ReadonlyMap<string, string> = new Map(
  catches.filter(({ caught }) => caught.results.length === 0).map(({ place, why }) => [place.rule.id, why]),
);

const caughtOnes = catches.filter(({ caught }) => caught.results.length > 0);
const nameOf = (rule: Rule): FieldFaultName => `field:${rule.id}`;

const what = (at: readonly string[]): string =>
  at.length === 0
    ? "the body is not checked at all"
    : at.length === 2 && at[0] === "properties"
      ? `${at[1]} is taken as anything and is not required`
      : `#/${at.join("/")} of the request schema is not read`;

export const FIELD_FAULTS: Readonly<Record<FieldFaultName, Fault>> = Object.fromEntries(
  caughtOnes.map(({ place: { rule, op, at } }) => [
    nameOf(rule),
    {
      bug: `on ${op.route}, ${at.map(what).join(", and ")}`,
      breaks: [rule.id],
      rules: (rules) =>
        pricingAs(op.facts.operationId, (route) =>
          at.reduce((read, part) => loosenedPricing(read, op.requestSchema ?? {}, part), route),
        )(
          validatingAs({
            operationId: op.facts.operationId,
            schema: (schema) => at.reduce((read, part) => loosened(read, part, rule.id), schema),
          })(rules),
        ),
    } satisfies Fault,
  ]),
);

/** For each field fault, the request-validation results of which one must fail. */
export const FIELD_CATCHES: Readonly<Record<FieldFaultName, FieldCatch>> = Object.fromEntries(
  caughtOnes.map(({ place, caught }) => [nameOf(place.rule), caught]),
);
