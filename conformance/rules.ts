/**
 * Which rules of the specification's catalogue (spec/rules.yaml) each result observes. The binding
 * lives in the checks (`Check.rules`: result name -> rule ids); the catalogue says only what code
 * cannot: the words, and why a rule no check names is unchecked. A rule reference is an id, a
 * pattern with `*` (`*.body.*`), or either prefixed `route:`, which keeps only the rules whose
 * description pointers lie under the result's own operation (a body field of that route); with no
 * result's route, a `route:` reference reaches only rules with a pointer on some operation, since no
 * result could keep another. A reference prefixed `!` takes out the rules it names: those a pattern
 * reaches that the check cannot observe.
 */
import { readCatalogue, type Catalogue, type Rule } from "../spec/catalogue.ts";
import type { Check } from "./check.ts";
import type { CheckResult } from "./results.ts";

const ROUTE = "route:";
const EXCEPT = "!";
/** A pointer on an operation (a path's method), not a component. */
const ON_OPERATION = /^\/paths\/[^/]+\/[a-z]+(?:\/|$)/;

/** A result name as a check writes it, `{…}` standing for what the check puts in. */
function templatePattern(template: string): RegExp {
  const parts = template.split(/\{[^}]*\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join("[^]*")}$`);
}

/** The template of `check` that `name` was written from: the one with the most fixed text, when several fit. */
export function templateOf(check: Check, name: string): string | undefined {
  const fitting = Object.keys(check.rules ?? {}).filter((template) => templatePattern(template).test(name));
  return fitting.sort((a, b) => b.replace(/\{[^}]*\}/g, "").length - a.replace(/\{[^}]*\}/g, "").length)[0];
}

const idPattern = (reference: string): RegExp =>
  new RegExp(
    `^${reference
      .replace(ROUTE, "")
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join("[^]*")}$`,
  );

/**
 * The JSON pointers of a result's operations in the bundle: one for `POST /v1/images/i-a`, both for
 * a job's `POST /v1/images/i-a -> GET /v1/images/{id}` (a rule of its create or of its poll route).
 */
const operationPointers = (route: string): string[] =>
  route.split(" -> ").flatMap((operation) => {
    const [method, path] = operation.split(" ");
    return method && path ? [`/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/${method.toLowerCase()}`] : [];
  });

/** The rules a reference names, for a result on `route` (any route when undefined). */
export function rulesNamed(catalogue: Catalogue, reference: string, route?: string): Rule[] {
  const pattern = idPattern(reference);
  const under = reference.startsWith(ROUTE) && route !== undefined ? operationPointers(route) : undefined;
  const onSomeOperation = reference.startsWith(ROUTE) && route === undefined;
  return catalogue.rules.filter(
    (rule) =>
      pattern.test(rule.id) &&
      (!onSomeOperation || (rule.openapi ?? []).some((pointer) => ON_OPERATION.test(pointer))) &&
      (under === undefined ||
        (rule.openapi ?? []).some((pointer) =>
          under.some((operation) => pointer === operation || pointer.startsWith(`${operation}/`)),
        )),
  );
}

/** The rules a template's references name together, for a result on `route` (any when undefined), less those a `!` reference names. */
export function rulesOf(catalogue: Catalogue, references: readonly string[], route?: string): Rule[] {
  const except = new Set(
    references
      .filter((reference) => reference.startsWith(EXCEPT))
      .flatMap((reference) => rulesNamed(catalogue, reference.slice(EXCEPT.length)).map((rule) => rule.id)),
  );
  const named = references
    .filter((reference) => !reference.startsWith(EXCEPT))
    .flatMap((reference) => rulesNamed(catalogue, reference, route));
  return [...new Map(named.map((rule) => [rule.id, rule])).values()].filter((rule) => !except.has(rule.id));
}

/** The rule ids a result observes: none for the suite's own results (a group skipped, a check stopped). */
export function resultRules(checks: readonly Check[], catalogue: Catalogue, result: CheckResult): string[] {
  const check = checks.find((candidate) => candidate.group === result.group);
  const template = check && templateOf(check, result.name);
  if (!check || template === undefined) return [];
  const route = result.route === "*" ? undefined : result.route;
  return rulesOf(catalogue, check.rules?.[template] ?? [], route)
    .map((rule) => rule.id)
    .sort();
}

/** Each rule's checks, as `group: template`, derived from the checks' bindings. */
export function checksByRule(checks: readonly Check[], catalogue: Catalogue): Map<string, string[]> {
  const byRule = new Map<string, string[]>(catalogue.rules.map((rule) => [rule.id, []]));
  for (const check of checks) {
    for (const [template, references] of Object.entries(check.rules ?? {})) {
      for (const rule of rulesOf(catalogue, references)) byRule.get(rule.id)?.push(`${check.group}: ${template}`);
    }
  }
  return byRule;
}

/** Why a rule was not checked in a run. */
export const UNCHECKED_WHY = {
  /** The catalogue: no client can see it (spec/rules.yaml `observable: false`). */
  "not-observable": "not observable",
  /** The catalogue: a client could see it, but no check reads it. */
  "no-check": "observable without a check",
  /** A check that names it did not run: the declaration lacks what it needs (a field, a stateful target). */
  declaration: "needing a declaration",
  /** A check that names it is in the declaration's `skipGroups`. */
  "group-skipped": "in a skipped group",
  /** Its check ran, and skipped the results that observe it, each with a reason. */
  skipped: "skipped by their check",
  /** Its check ran, and no result of this run observed it (its routes are not implemented, the run stopped). */
  "not-run": "not reached",
} as const;
export type UncheckedWhy = keyof typeof UNCHECKED_WHY;

/** A rule no passed or failed result of the run observed, and why. */
export interface UncheckedRule {
  id: string;
  why: UncheckedWhy;
  /** The reason in words: the catalogue's, or each check's (`billing: the declaration gives no outcomeMarkers`). */
  detail: string;
}

export interface RuleCoverage {
  /** Rules a result of this run observed (passed or failed). */
  checked: number;
  total: number;
  /** Rules the catalogue says no client can observe. */
  notObservable: number;
  /** Rules a client could observe that no check reads (the catalogue's). */
  noCheck: number;
  /** The rules not checked in this run, by id, each with why (`total - checked` of them). */
  unchecked: UncheckedRule[];
  /** How many rules were not checked for each reason. */
  uncheckedBy: Record<UncheckedWhy, number>;
}

/** The detail of the result suite.ts writes for a group the declaration's skipGroups names. */
export const GROUP_SKIPPED = "skipped by the target's declaration";

/** Gives each result of the checks its rule ids (the suite's own results have none). */
export function annotateRules(
  checks: readonly Check[],
  results: readonly CheckResult[],
  catalogue: Catalogue = readCatalogue(),
): void {
  for (const result of results) {
    const rules = resultRules(checks, catalogue, result);
    if (rules.length > 0) result.rules = rules;
  }
}

/** `POST /v1/images/i-a` for a pointer on that operation, else undefined. */
function routeOfPointer(pointer: string): string | undefined {
  const match = /^\/paths\/([^/]+)\/([a-z]+)(?:\/|$)/.exec(pointer);
  return match ? `${match[2]!.toUpperCase()} ${match[1]!.replace(/~1/g, "/").replace(/~0/g, "~")}` : undefined;
}

/** Why each check naming `rule` observed nothing of it in the run, most telling first. */
function whyNotChecked(
  rule: Rule,
  groups: readonly string[],
  results: readonly CheckResult[],
): Omit<UncheckedRule, "id"> {
  if (rule.observable === false) return { why: "not-observable", detail: rule.unchecked ?? "" };
  if (groups.length === 0)
    return { why: "no-check", detail: `${rule.unchecked ?? ""}${rule.declare ? ` (declare ${rule.declare})` : ""}` };
  const unimplemented = new Map(
    results
      .filter((result) => result.group === "*" && result.outcome === "skip")
      .map((result) => [result.route, result.detail ?? ""]),
  );
  const routes = (rule.openapi ?? []).map(routeOfPointer);
  const reasons = groups.map((group): Omit<UncheckedRule, "id"> => {
    const skipped = results.find(
      (result) =>
        result.group === group && result.route === "*" && result.name === `group ${group}` && result.outcome === "skip",
    );
    if (skipped?.detail === GROUP_SKIPPED) return { why: "group-skipped", detail: `${group}: skipGroups names it` };
    if (skipped) return { why: "declaration", detail: `${group}: ${skipped.detail ?? ""}` };
    const skips = [
      ...new Set(
        results
          .filter((result) => result.group === group && result.outcome === "skip" && result.rules?.includes(rule.id))
          .map((result) => result.detail ?? ""),
      ),
    ];
    if (skips.length)
      return {
        why: "skipped",
        detail: `${group}: ${skips.slice(0, 2).join("; ")}${skips.length > 2 ? `; and ${skips.length - 2} more reasons` : ""}`,
      };
    const stopped = results.find(
      (result) => result.group === group && result.name === "check finished" && result.outcome === "skip",
    );
    if (stopped) return { why: "not-run", detail: `${group}: ${stopped.detail ?? ""}` };
    if (routes.length > 0 && routes.every((route) => route !== undefined && unimplemented.has(route)))
      return { why: "not-run", detail: `${group}: ${unimplemented.get(routes[0]!)}` };
    return { why: "not-run", detail: `${group}: no result of this run observed it` };
  });
  const order: readonly UncheckedWhy[] = ["declaration", "group-skipped", "skipped", "not-run"];
  const first = order.find((why) => reasons.some((reason) => reason.why === why)) ?? "not-run";
  return { why: first, detail: reasons.map((reason) => reason.detail).join("; ") };
}

/**
 * How many rules the results checked (a result passed or failed on them), of how many, and each
 * rule that none checked with why: the catalogue's reason, or what each check naming it did.
 */
export function ruleCoverage(
  results: readonly CheckResult[],
  checks: readonly Check[],
  catalogue: Catalogue = readCatalogue(),
): RuleCoverage {
  const checked = new Set(
    results.filter((result) => result.outcome !== "skip").flatMap((result) => result.rules ?? []),
  );
  const byRule = checksByRule(checks, catalogue);
  const unchecked = catalogue.rules
    .filter((rule) => !checked.has(rule.id))
    .map((rule) => ({
      id: rule.id,
      ...whyNotChecked(rule, [...new Set((byRule.get(rule.id) ?? []).map((check) => check.split(":")[0]!))], results),
    }));
  const uncheckedBy = Object.fromEntries(
    Object.keys(UNCHECKED_WHY).map((why) => [why, unchecked.filter((rule) => rule.why === why).length]),
  ) as Record<UncheckedWhy, number>;
  return {
    checked: catalogue.rules.length - unchecked.length,
    total: catalogue.rules.length,
    notObservable: catalogue.rules.filter((rule) => rule.observable === false).length,
    noCheck: catalogue.rules.filter((rule) => rule.observable !== false && (byRule.get(rule.id) ?? []).length === 0)
      .length,
    unchecked,
    uncheckedBy,
  };
}
