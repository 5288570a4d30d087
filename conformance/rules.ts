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

export interface RuleCoverage {
  /** Rules a result of this run observed (passed or failed). */
  checked: number;
  total: number;
  /** Rules the catalogue says no request can observe. */
  notObservable: number;
}

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

/** How many rules the results checked (a result passed or failed on them), of how many. */
export function ruleCoverage(results: readonly CheckResult[], catalogue: Catalogue = readCatalogue()): RuleCoverage {
  const checked = new Set(
    results.filter((result) => result.outcome !== "skip").flatMap((result) => result.rules ?? []),
  );
  return {
    checked: checked.size,
    total: catalogue.rules.length,
    notObservable: catalogue.rules.filter((rule) => rule.observable === false).length,
  };
}
