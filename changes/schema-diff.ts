/**
 * Compares two JSON Schema 2020-12 schemas of the description, keyword by keyword, and reports
 * each difference as a finding of a schema rule (rules.ts), which the direction turns into
 * breaking or compatible. A component `$ref`'d on both sides is compared once (see
 * ChangeCollector.once); a keyword this module does not know still counts when its value changed.
 */
import { resolvePointer, type OpenApiDocument } from "../model/document.ts";
import type { ChangeCollector, Finding } from "./change.ts";
import { canonical, isObject, schemaLabel, type Schema } from "./schema-shape.ts";
import { ALTERNATIVES, BOUNDS, RESTRICTIONS, type Direction, type RuleName } from "./rules.ts";

export interface Sides {
  readonly before: OpenApiDocument;
  readonly after: OpenApiDocument;
}

export interface SchemaScope {
  readonly sides: Sides;
  readonly collector: ChangeCollector;
  readonly direction: Direction;
  /** Under an odd number of `not`s, where narrowing the inner schema widens the whole. */
  readonly negated: boolean;
  /** `$ref` pairs being compared further up, so recursive schemas end. */
  readonly open: ReadonlySet<string>;
}

const SCHEMA_REF = "#/components/schemas/";

/** Keywords that do not change which values a schema accepts. */
const ANNOTATIONS = new Set([
  "title",
  "description",
  "examples",
  "example",
  "$comment",
  "deprecated",
  "x-enumDescriptions",
  "x-implied-name",
  "x-not-shown",
]);

/** Keywords compared by the functions below; any other keyword that changed is `keyword-changed`. */
const COMPARED = new Set([
  "$ref",
  "type",
  "enum",
  "const",
  "default",
  "properties",
  "required",
  "additionalProperties",
  "dependentRequired",
  "items",
  "prefixItems",
  "allOf",
  "anyOf",
  "oneOf",
  "if",
  "then",
  "else",
  "not",
  "x-media",
  "x-terminal-values",
  "x-retry-after",
  "readOnly",
  "writeOnly",
  "discriminator",
  ...BOUNDS.map((bound) => bound.keyword),
  ...RESTRICTIONS,
]);

export function schemaScope(sides: Sides, collector: ChangeCollector, direction: Direction): SchemaScope {
  return { sides, collector, direction, negated: false, open: new Set() };
}

/** A `$ref` to a schema component with nothing else that constrains, or undefined. */
function componentName(node: unknown): string | undefined {
  if (!isObject(node) || typeof node.$ref !== "string" || !node.$ref.startsWith(SCHEMA_REF)) return undefined;
  const constrains = Object.keys(node).some((key) => key !== "$ref" && !ANNOTATIONS.has(key));
  return constrains ? undefined : node.$ref.slice(SCHEMA_REF.length);
}

/** The schema with its `$ref`s followed; keywords beside a `$ref` apply too, so they are kept. */
function resolve(doc: OpenApiDocument, node: unknown): Schema {
  if (node === true || node === undefined) return {};
  if (node === false) return { not: {} };
  if (!isObject(node)) throw new Error(`not a schema: ${JSON.stringify(node)}`);
  if (typeof node.$ref !== "string") return node;
  const { $ref, ...beside } = node;
  return { ...resolve(doc, resolvePointer(doc, $ref)), ...beside };
}

export function compareSchemas(scope: SchemaScope, before: unknown, after: unknown, location: string): void {
  const name = componentName(before);
  if (name !== undefined && name === componentName(after)) {
    const key = `schema ${name} ${scope.direction}${scope.negated ? " negated" : ""}`;
    scope.collector.once(key, () =>
      compareResolved(scope, resolve(scope.sides.before, before), resolve(scope.sides.after, after), `schema ${name}`),
    );
    return;
  }
  const refs = [before, after]
    .map((node) => (isObject(node) && typeof node.$ref === "string" ? node.$ref : ""))
    .join(" ");
  if (refs.trim() && scope.open.has(refs)) return;
  const inner = refs.trim() ? { ...scope, open: new Set([...scope.open, refs]) } : scope;
  compareResolved(inner, resolve(scope.sides.before, before), resolve(scope.sides.after, after), location);
}

type Report = (
  rule: RuleName,
  extra?: Omit<Finding, "rule" | "location" | "direction" | "negated"> & { location?: string },
) => void;

function compareResolved(scope: SchemaScope, before: Schema, after: Schema, location: string): void {
  const report: Report = (rule, extra = {}) =>
    scope.collector.report({ location, ...extra, rule, direction: scope.direction, negated: scope.negated });
  compareTypes(before, after, report);
  compareValues(before, after, report);
  compareBounds(before, after, report);
  compareObjects(scope, before, after, location, report);
  compareItems(scope, before, after, location);
  compareCombinators(scope, before, after, location, report);
  compareConditionals(scope, before, after, location, report);
  compareNot(scope, before, after, location, report);
  if (scope.direction === "request") compareDefaults(before, after, report);
  compareMedia(before["x-media"], after["x-media"], report);
  compareServiceExtensions(before, after, report);
  compareAccess(before, after, report);
  compareDiscriminators(scope, before, after, report);
  for (const keyword of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (COMPARED.has(keyword) || ANNOTATIONS.has(keyword)) continue;
    if (canonical(before[keyword]) !== canonical(after[keyword]))
      report("keyword-changed", { detail: keyword, before: before[keyword], after: after[keyword] });
  }
}

function typeSet(schema: Schema): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  return Array.isArray(schema.type) ? (schema.type as string[]) : undefined;
}

/** Whether every type of `inner` is allowed by `outer` (an integer is a number). */
function typesWithin(inner: string[], outer: string[]): boolean {
  return inner.every((type) => outer.includes(type) || (type === "integer" && outer.includes("number")));
}

function compareTypes(before: Schema, after: Schema, report: Report): void {
  const from = typeSet(before);
  const to = typeSet(after);
  if (canonical(from?.slice().sort()) === canonical(to?.slice().sort())) return;
  const shown = { before: from?.join(" | ") ?? "any", after: to?.join(" | ") ?? "any" };
  if (to && (!from || typesWithin(to, from))) report("type-narrowed", shown);
  else if (from && (!to || typesWithin(from, to))) report("type-widened", shown);
  else report("type-changed", shown);
}

/** `enum` and `const` as one set of allowed values, except when both sides use `const` alone. */
function compareValues(before: Schema, after: Schema, report: Report): void {
  const onlyConst = before.enum === undefined && after.enum === undefined;
  if (onlyConst) {
    const [from, to] = [before.const, after.const];
    if (from === undefined && to !== undefined) report("const-added", { after: to });
    else if (from !== undefined && to === undefined) report("const-removed", { before: from });
    else if (canonical(from) !== canonical(to)) report("const-changed", { before: from, after: to });
    return;
  }
  const allowed = (schema: Schema): unknown[] | undefined =>
    Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : undefined;
  const from = allowed(before);
  const to = allowed(after);
  if (!from && to) return report("enum-added", { after: to });
  if (from && !to) return report("enum-removed", { before: from });
  const keys = (list: unknown[]): Map<string, unknown> => new Map(list.map((value) => [canonical(value), value]));
  const [fromKeys, toKeys] = [keys(from!), keys(to!)];
  for (const key of fromKeys.keys()) if (!toKeys.has(key)) report("enum-value-removed", { detail: key });
  for (const key of toKeys.keys()) if (!fromKeys.has(key)) report("enum-value-added", { detail: key });
}

function compareBounds(before: Schema, after: Schema, report: Report): void {
  for (const { keyword } of BOUNDS) {
    const [from, to] = [before[keyword], after[keyword]] as Array<number | undefined>;
    if (from === to) continue;
    if (from === undefined) report(`${keyword}-added`, { after: to });
    else if (to === undefined) report(`${keyword}-removed`, { before: from });
    else report(`${keyword}-${to < from ? "decreased" : "increased"}`, { before: from, after: to });
  }
  for (const keyword of RESTRICTIONS) {
    const [from, to] = [before[keyword], after[keyword]];
    if (canonical(from) === canonical(to)) continue;
    if (from === undefined) report(`${keyword}-added`, { after: to });
    else if (to === undefined) report(`${keyword}-removed`, { before: from });
    else report(`${keyword}-changed`, { before: from, after: to });
  }
}

const names = (value: unknown): string[] => (Array.isArray(value) ? (value as string[]) : []);

function compareObjects(scope: SchemaScope, before: Schema, after: Schema, location: string, report: Report): void {
  const from = (isObject(before.properties) ? before.properties : {}) as Record<string, unknown>;
  const to = (isObject(after.properties) ? after.properties : {}) as Record<string, unknown>;
  const [requiredBefore, requiredAfter] = [new Set(names(before.required)), new Set(names(after.required))];
  const at = (name: string): string => `${location}.${name}`;
  for (const name of Object.keys(from)) if (!(name in to)) report("property-removed", { location: at(name) });
  for (const name of Object.keys(to)) {
    if (!(name in from))
      report(requiredAfter.has(name) ? "required-property-added" : "property-added", { location: at(name) });
    else compareSchemas(scope, from[name], to[name], at(name));
  }
  // A field added or removed is reported above with its requiredness; here only fields on both sides
  // or named by `required` alone (as in a `then`).
  for (const name of requiredAfter)
    if (!requiredBefore.has(name) && !(name in to && !(name in from)))
      report("property-became-required", { location: at(name) });
  for (const name of requiredBefore)
    if (!requiredAfter.has(name) && !(name in from && !(name in to)))
      report("property-became-optional", { location: at(name) });

  const [openBefore, openAfter] = [before.additionalProperties !== false, after.additionalProperties !== false];
  if (openBefore && !openAfter) report("additional-properties-closed");
  else if (!openBefore && openAfter) report("additional-properties-opened");
  else if (openBefore && (isObject(before.additionalProperties) || isObject(after.additionalProperties))) {
    compareSchemas(scope, before.additionalProperties, after.additionalProperties, `${location}.*`);
  }

  const dependencies = (schema: Schema): Set<string> => {
    const map = (isObject(schema.dependentRequired) ? schema.dependentRequired : {}) as Record<string, unknown>;
    return new Set(
      Object.entries(map).flatMap(([field, needs]) => names(needs).map((need) => `${field} requires ${need}`)),
    );
  };
  const [dependsBefore, dependsAfter] = [dependencies(before), dependencies(after)];
  for (const pair of dependsAfter) if (!dependsBefore.has(pair)) report("dependent-required-added", { detail: pair });
  for (const pair of dependsBefore) if (!dependsAfter.has(pair)) report("dependent-required-removed", { detail: pair });
}

function compareItems(scope: SchemaScope, before: Schema, after: Schema, location: string): void {
  if (before.items !== undefined || after.items !== undefined)
    compareSchemas(scope, before.items, after.items, `${location}[]`);
  const [from, to] = [before.prefixItems, after.prefixItems].map((list) => (Array.isArray(list) ? list : [])) as [
    unknown[],
    unknown[],
  ];
  for (let index = 0; index < Math.max(from.length, to.length); index++)
    compareSchemas(scope, from[index], to[index], `${location}[${index}]`);
}

/**
 * Pairs the branches of a combinator: by the component they reference, their title or their
 * description (a cross-field rule quotes the specification), then by equal shape; one branch left
 * on each side is the same branch, changed.
 */
function pairBranches(
  before: unknown[],
  after: unknown[],
): { pairs: Array<[number, number]>; removed: number[]; added: number[] } {
  const pairs: Array<[number, number]> = [];
  const [leftBefore, leftAfter] = [new Set(before.keys()), new Set(after.keys())];
  const identity = (node: unknown): string | undefined => {
    if (!isObject(node)) return undefined;
    if (typeof node.$ref === "string") return `ref ${node.$ref}`;
    if (typeof node.title === "string") return `title ${node.title}`;
    return typeof node.description === "string" ? `description ${node.description}` : undefined;
  };
  for (const match of [identity, (node: unknown) => canonical(node)]) {
    for (const i of leftBefore) {
      const key = match(before[i]);
      if (key === undefined) continue;
      const j = [...leftAfter].find((candidate) => match(after[candidate]) === key);
      if (j === undefined) continue;
      pairs.push([i, j]);
      leftBefore.delete(i);
      leftAfter.delete(j);
    }
  }
  if (leftBefore.size === 1 && leftAfter.size === 1) {
    pairs.push([[...leftBefore][0]!, [...leftAfter][0]!]);
    return { pairs, removed: [], added: [] };
  }
  return { pairs, removed: [...leftBefore], added: [...leftAfter] };
}

function compareCombinators(scope: SchemaScope, before: Schema, after: Schema, location: string, report: Report): void {
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const branches = (keyword: string): void => {
    const [from, to] = [list(before[keyword]), list(after[keyword])];
    const { pairs, removed, added } = pairBranches(from, to);
    const kebab = keyword === "allOf" ? "all-of" : keyword === "anyOf" ? "any-of" : "one-of";
    for (const i of removed) report(`${kebab}-branch-removed` as RuleName, { detail: schemaLabel(from[i]) });
    for (const j of added) report(`${kebab}-branch-added` as RuleName, { detail: schemaLabel(to[j]) });
    for (const [i, j] of pairs) compareSchemas(scope, from[i], to[j], `${location} ${keyword}[${j}]`);
  };
  branches("allOf");
  for (const keyword of ALTERNATIVES) {
    const kebab = keyword === "anyOf" ? "any-of" : "one-of";
    const [has, had] = [after[keyword] !== undefined, before[keyword] !== undefined];
    // A first set of alternatives restricts; only between two sets do more branches widen.
    if (has && !had) report(`${kebab}-added`);
    else if (had && !has) report(`${kebab}-removed`);
    else if (has) branches(keyword);
  }
}

function compareConditionals(
  scope: SchemaScope,
  before: Schema,
  after: Schema,
  location: string,
  report: Report,
): void {
  const [had, has] = [before.if !== undefined, after.if !== undefined];
  if (!had && !has) return;
  if (!had) return report("conditional-added");
  if (!has) return report("conditional-removed");
  if (canonical(before.if) !== canonical(after.if)) return report("condition-changed");
  for (const keyword of ["then", "else"]) {
    if (before[keyword] !== undefined || after[keyword] !== undefined)
      compareSchemas(scope, before[keyword], after[keyword], `${location} ${keyword}`);
  }
}

function compareNot(scope: SchemaScope, before: Schema, after: Schema, location: string, report: Report): void {
  const [had, has] = [before.not !== undefined, after.not !== undefined];
  if (!had && has) report("not-added");
  else if (had && !has) report("not-removed");
  else if (had) compareSchemas({ ...scope, negated: !scope.negated }, before.not, after.not, `${location} not`);
}

function compareDefaults(before: Schema, after: Schema, report: Report): void {
  const [from, to] = [before.default, after.default];
  if (canonical(from) === canonical(to)) return;
  if (from === undefined) report("default-added", { after: to });
  else if (to === undefined) report("default-removed", { before: from });
  else report("default-changed", { before: from, after: to });
}

/** An `x-media` limit as a number: seconds, megabytes and pixels as given, an aspect ratio `W:H` as W/H. */
function mediaNumber(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  const ratio = typeof value === "string" ? /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(value) : null;
  return ratio ? Number(ratio[1]) / Number(ratio[2]) : undefined;
}

function compareMedia(before: unknown, after: unknown, report: Report): void {
  if (!isObject(before) || !isObject(after)) {
    if (isObject(before) !== isObject(after)) report("keyword-changed", { detail: "x-media", before, after });
    return;
  }
  // `forms` and `formats` absent means "not shown", so only two stated lists are compared.
  for (const [key, added, removed] of [
    ["forms", "media-form-added", "media-form-removed"],
    ["formats", "media-format-added", "media-format-removed"],
  ] as const) {
    if (!Array.isArray(before[key]) || !Array.isArray(after[key])) continue;
    const [from, to] = [before[key] as string[], after[key] as string[]];
    for (const item of from) if (!to.includes(item)) report(removed, { detail: item });
    for (const item of to) if (!from.includes(item)) report(added, { detail: item });
  }
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (key === "forms" || key === "formats" || canonical(before[key]) === canonical(after[key])) continue;
    const [from, to] = [mediaNumber(before[key]), mediaNumber(after[key])];
    const bound = key.startsWith("max") ? "upper" : key.startsWith("min") ? "lower" : undefined;
    const shown = { detail: key, before: before[key], after: after[key] };
    if (!bound || (from === undefined && before[key] !== undefined) || (to === undefined && after[key] !== undefined)) {
      report("media-rule-changed", shown);
      continue;
    }
    if (from !== undefined && from === to) continue; // the same limit spelled another way: 16:9 and 32:18
    // A limit stated where none was restricts; a limit dropped relaxes.
    const tighter = from === undefined || (to !== undefined && (bound === "upper" ? to < from : to > from));
    report(tighter ? "media-limit-tightened" : "media-limit-relaxed", shown);
  }
}

function compareServiceExtensions(before: Schema, after: Schema, report: Report): void {
  const [from, to] = [names(before["x-terminal-values"]), names(after["x-terminal-values"])];
  for (const value of to) if (!from.includes(value)) report("terminal-status-added", { detail: value });
  for (const value of from) if (!to.includes(value)) report("terminal-status-removed", { detail: value });
  if (before["x-retry-after"] !== after["x-retry-after"])
    report("retry-after-changed", { before: before["x-retry-after"], after: after["x-retry-after"] });
}

function compareAccess(before: Schema, after: Schema, report: Report): void {
  for (const [keyword, rule] of [
    ["readOnly", "read-only"],
    ["writeOnly", "write-only"],
  ] as const) {
    const [was, is] = [before[keyword] === true, after[keyword] === true];
    if (!was && is) report(`${rule}-added`);
    else if (was && !is) report(`${rule}-removed`);
  }
}

/** Whether every branch of the union requires `property` with a constant (or enum) of its own: then a discriminator adds no rule. */
function taggedBy(doc: OpenApiDocument, schema: Schema, property: string): boolean {
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
  return (
    branches.length > 0 &&
    branches.every((branch) => {
      const resolved = resolve(doc, branch);
      const tag = isObject(resolved.properties) ? resolved.properties[property] : undefined;
      return (
        isObject(tag) &&
        (tag.const !== undefined || Array.isArray(tag.enum)) &&
        names(resolved.required).includes(property)
      );
    })
  );
}

function compareDiscriminators(scope: SchemaScope, before: Schema, after: Schema, report: Report): void {
  if (canonical(before.discriminator) === canonical(after.discriminator)) return;
  const property = (schema: Schema): string | undefined =>
    isObject(schema.discriminator) && typeof schema.discriminator.propertyName === "string"
      ? schema.discriminator.propertyName
      : undefined;
  const [from, to] = [property(before), property(after)];
  const [taggedBefore, taggedAfter] = [
    from !== undefined && taggedBy(scope.sides.before, before, from),
    to !== undefined && taggedBy(scope.sides.after, after, to),
  ];
  if ((from === undefined || taggedBefore) && (to === undefined || taggedAfter))
    return report("discriminator-stated", { detail: to ?? from });
  if (from === undefined) return report("discriminator-added", { detail: to });
  if (to === undefined) return report("discriminator-removed", { detail: from });
  report("discriminator-changed", { before: before.discriminator, after: after.discriminator });
}
