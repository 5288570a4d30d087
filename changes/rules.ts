/**
 * Every rule the comparers apply, with how it is classified for client code and what the release
 * notes say. Two kinds:
 *
 * - route rules have a fixed severity;
 * - schema rules have an effect on the set of values a schema accepts (`narrowing`, `widening`,
 *   or `incompatible` when neither set holds the other), and the severity follows from the
 *   direction: a request schema is what the service accepts, so narrowing it breaks clients that
 *   send what it no longer accepts; a response schema is what clients receive, so widening it
 *   breaks clients that handle only what it held (a new JobStatus value they switch on).
 *   Under `not` the effect is reversed. A schema rule may fix its severity for one direction
 *   where the set view misleads (a removed response field is read by clients even though removing
 *   it widens the set).
 */
import type { Direction, Severity } from "./severity.ts";

export type { Direction } from "./severity.ts";
export type Effect = "narrowing" | "widening" | "incompatible";

interface Said {
  detail?: string;
  before?: unknown;
  after?: unknown;
}

interface RouteRule {
  severity: Severity;
  says(said: Said): string;
}

interface SchemaRule {
  effect: Effect;
  /** Fixed severities that override the effect in one direction. */
  request?: Severity;
  response?: Severity;
  says(said: Said): string;
}

export type Rule = RouteRule | SchemaRule;

/** Plain text: the JSON report is data, and the Markdown renderer formats it. */
const code = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));
const values = (value: unknown): string => (Array.isArray(value) ? value.map(code).join(", ") : code(value));
const fromTo = ({ before, after }: Said): string =>
  `${before === undefined ? "none" : code(before)} → ${after === undefined ? "none" : code(after)}`;

/** Bounds: for an upper bound a lower value narrows; for a lower bound a higher value narrows. */
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxItems", "maxLength", "maxProperties"] as const;
const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minItems", "minLength", "minProperties"] as const;
export const BOUNDS: ReadonlyArray<{ keyword: Bound; upper: boolean }> = [
  ...UPPER_BOUNDS.map((keyword) => ({ keyword, upper: true })),
  ...LOWER_BOUNDS.map((keyword) => ({ keyword, upper: false })),
];

/** Keywords whose addition restricts values and whose change cannot be ordered (two patterns). */
export const RESTRICTIONS = ["pattern", "format", "multipleOf"] as const;

/** Combinators whose branches are alternatives: adding one widens. */
export const ALTERNATIVES = ["anyOf", "oneOf"] as const;

function boundRules(): Record<string, SchemaRule> {
  const rules: Record<string, SchemaRule> = {};
  for (const { keyword, upper } of BOUNDS) {
    rules[`${keyword}-added`] = { effect: "narrowing", says: ({ after }) => `now has ${keyword} ${code(after)}` };
    rules[`${keyword}-removed`] = {
      effect: "widening",
      says: ({ before }) => `no longer has ${keyword} (was ${code(before)})`,
    };
    rules[`${keyword}-decreased`] = {
      effect: upper ? "narrowing" : "widening",
      says: (said) => `${keyword} lowered, ${fromTo(said)}`,
    };
    rules[`${keyword}-increased`] = {
      effect: upper ? "widening" : "narrowing",
      says: (said) => `${keyword} raised, ${fromTo(said)}`,
    };
  }
  for (const keyword of RESTRICTIONS) {
    rules[`${keyword}-added`] = { effect: "narrowing", says: ({ after }) => `now has ${keyword} ${code(after)}` };
    rules[`${keyword}-removed`] = {
      effect: "widening",
      says: ({ before }) => `no longer has ${keyword} (was ${code(before)})`,
    };
    rules[`${keyword}-changed`] = { effect: "incompatible", says: (said) => `${keyword} changed, ${fromTo(said)}` };
  }
  for (const keyword of ALTERNATIVES) {
    const kebab = keyword === "anyOf" ? "any-of" : "one-of";
    rules[`${kebab}-added`] = { effect: "narrowing", says: () => `must now match one of the ${keyword} branches` };
    rules[`${kebab}-removed`] = { effect: "widening", says: () => `no longer has ${keyword}` };
    rules[`${kebab}-branch-added`] = { effect: "widening", says: ({ detail }) => `${keyword} branch added: ${detail}` };
    rules[`${kebab}-branch-removed`] = {
      effect: "narrowing",
      says: ({ detail }) => `${keyword} branch removed: ${detail}`,
    };
  }
  return rules;
}

const ROUTE_RULES = {
  "route-added": { severity: "compatible", says: ({ detail }) => (detail ? `new model ${detail}` : "new route") },
  "route-removed": {
    severity: "breaking",
    says: ({ detail }) =>
      detail ? `model ${detail} removed (retired models answer 410 model_retired)` : "route removed",
  },
  "route-deprecated": { severity: "compatible", says: () => "deprecated" },
  // The URLs a client sends stay the same, but typed code names a route by its template (openapi-fetch's
  // paths, client.api.GET("/v1/images/{id}", { params: { path: { id } } })), so it no longer compiles.
  "path-template-changed": {
    severity: "breaking",
    says: (said) =>
      `path template renamed, ${fromTo(said)}: the URLs sent are unchanged, but code typed by the template (the path's key, its path parameter's name) must follow`,
  },
  "operation-id-changed": {
    severity: "breaking",
    says: (said) => `operationId changed, ${fromTo(said)} (generated code names operations by it)`,
  },
  "parameter-added": { severity: "compatible", says: () => "new optional parameter" },
  "required-parameter-added": { severity: "breaking", says: () => "new required parameter" },
  "parameter-removed": { severity: "breaking", says: () => "parameter removed" },
  "parameter-became-required": { severity: "breaking", says: () => "parameter is now required" },
  "parameter-became-optional": { severity: "compatible", says: () => "parameter is now optional" },
  "request-body-added": { severity: "compatible", says: () => "now takes an optional request body" },
  "required-request-body-added": { severity: "breaking", says: () => "now requires a request body" },
  "request-body-removed": { severity: "breaking", says: () => "request body removed" },
  "request-body-became-required": { severity: "breaking", says: () => "request body is now required" },
  "request-body-became-optional": { severity: "compatible", says: () => "request body is now optional" },
  "request-media-type-added": { severity: "compatible", says: ({ detail }) => `now also accepts ${code(detail)}` },
  "request-media-type-removed": { severity: "breaking", says: ({ detail }) => `no longer accepts ${code(detail)}` },
  "success-status-added": {
    severity: "breaking",
    says: ({ detail }) => `may now answer ${detail}, a success status clients do not expect`,
  },
  "error-status-added": { severity: "compatible", says: ({ detail }) => `may now answer ${detail}` },
  "response-status-removed": { severity: "breaking", says: ({ detail }) => `no longer answers ${detail}` },
  "response-media-type-added": { severity: "compatible", says: ({ detail }) => `may now answer ${code(detail)}` },
  "response-media-type-removed": { severity: "breaking", says: ({ detail }) => `no longer answers ${code(detail)}` },
  "response-header-added": { severity: "compatible", says: ({ detail }) => `new header ${code(detail)}` },
  "response-header-removed": { severity: "breaking", says: ({ detail }) => `header ${code(detail)} removed` },
  "response-header-became-optional": {
    severity: "breaking",
    says: ({ detail }) => `header ${code(detail)} is no longer always sent`,
  },
  "response-header-became-required": {
    severity: "compatible",
    says: ({ detail }) => `header ${code(detail)} is now always sent`,
  },
  "security-requirement-tightened": {
    severity: "breaking",
    says: ({ before, after }) =>
      `authentication now requires ${after} (was ${before}); a client holding only what it sent before is refused`,
  },
  "security-requirement-relaxed": {
    severity: "compatible",
    says: ({ before, after }) => `authentication now accepts ${after} (was ${before})`,
  },
  "security-scheme-changed": {
    severity: "breaking",
    says: ({ before, after }) => `now ${after} (was ${before}); clients must send their key the new way`,
  },
  // The service model reads the rules clients are generated from (limits, Retry-After, prices); a description it cannot read breaks them.
  "service-model-unreadable": {
    severity: "breaking",
    says: ({ detail }) => `the service model can no longer read the description: ${detail}`,
  },
  "service-model-readable": {
    severity: "compatible",
    says: ({ detail }) => `the service model can read the description again (the old one failed: ${detail})`,
  },
} satisfies Record<string, RouteRule>;

const SCHEMA_RULES = {
  // A client reads a response field and sends a request field; losing either breaks it, whatever
  // the set of values does.
  "property-removed": { effect: "widening", request: "breaking", response: "breaking", says: () => "field removed" },
  // Clients ignore response fields they do not know, and need not send new optional ones.
  "property-added": {
    effect: "narrowing",
    request: "compatible",
    response: "compatible",
    says: () => "new optional field",
  },
  "required-property-added": { effect: "narrowing", says: () => "new required field" },
  "property-became-required": { effect: "narrowing", says: () => "now required" },
  "property-became-optional": { effect: "widening", says: () => "no longer required" },
  "enum-value-added": { effect: "widening", says: ({ detail }) => `may now be ${detail}` },
  "enum-value-removed": { effect: "narrowing", says: ({ detail }) => `no longer allows ${detail}` },
  "enum-added": { effect: "narrowing", says: ({ after }) => `now limited to ${values(after)}` },
  "enum-removed": { effect: "widening", says: ({ before }) => `no longer limited to ${values(before)}` },
  "const-added": { effect: "narrowing", says: ({ after }) => `now must be ${code(after)}` },
  "const-removed": { effect: "widening", says: ({ before }) => `no longer must be ${code(before)}` },
  "const-changed": { effect: "incompatible", says: (said) => `constant changed, ${fromTo(said)}` },
  "type-narrowed": { effect: "narrowing", says: (said) => `type narrowed, ${fromTo(said)}` },
  "type-widened": { effect: "widening", says: (said) => `type widened, ${fromTo(said)}` },
  "type-changed": { effect: "incompatible", says: (said) => `type changed, ${fromTo(said)}` },
  "additional-properties-closed": {
    effect: "narrowing",
    says: () => "no longer accepts fields it does not list (additionalProperties: false)",
  },
  // Clients ignore response fields they do not know, so a response that may carry more is harmless.
  "additional-properties-opened": {
    effect: "widening",
    response: "compatible",
    says: () => "now accepts fields it does not list",
  },
  "dependent-required-added": { effect: "narrowing", says: ({ detail }) => `new dependency: ${detail}` },
  "dependent-required-removed": { effect: "widening", says: ({ detail }) => `dependency removed: ${detail}` },
  "all-of-branch-added": { effect: "narrowing", says: ({ detail }) => `new rule: ${detail}` },
  "all-of-branch-removed": { effect: "widening", says: ({ detail }) => `rule removed: ${detail}` },
  "conditional-added": { effect: "narrowing", says: () => "new if/then rule" },
  "conditional-removed": { effect: "widening", says: () => "if/then rule removed" },
  "condition-changed": { effect: "incompatible", says: () => "the if of a conditional rule changed" },
  "not-added": { effect: "narrowing", says: () => "new not exclusion" },
  "not-removed": { effect: "widening", says: () => "not exclusion removed" },
  // The service's behaviour for a request that omits the field changes (a default size sets the price).
  "default-changed": {
    effect: "incompatible",
    response: "compatible",
    says: (said) => `default changed, ${fromTo(said)}`,
  },
  "default-added": {
    effect: "widening",
    request: "compatible",
    response: "compatible",
    says: ({ after }) => `now states default ${code(after)}`,
  },
  "default-removed": {
    effect: "widening",
    request: "breaking",
    response: "compatible",
    says: ({ before }) => `no longer states default ${code(before)}`,
  },
  "media-form-added": { effect: "widening", says: ({ detail }) => `now accepts input form ${code(detail)}` },
  "media-form-removed": { effect: "narrowing", says: ({ detail }) => `no longer accepts input form ${code(detail)}` },
  "media-format-added": { effect: "widening", says: ({ detail }) => `now accepts format ${code(detail)}` },
  "media-format-removed": { effect: "narrowing", says: ({ detail }) => `no longer accepts format ${code(detail)}` },
  "media-limit-tightened": {
    effect: "narrowing",
    says: (said) => `media limit ${said.detail} tightened, ${fromTo(said)}`,
  },
  "media-limit-relaxed": { effect: "widening", says: (said) => `media limit ${said.detail} relaxed, ${fromTo(said)}` },
  "media-rule-changed": {
    effect: "incompatible",
    says: (said) => `media rule ${said.detail} changed, ${fromTo(said)}`,
  },
  // The typed client stops polling on terminal statuses and waits on Retry-After as these say.
  "terminal-status-added": {
    effect: "incompatible",
    request: "breaking",
    response: "breaking",
    says: ({ detail }) => `${detail} is now terminal`,
  },
  "terminal-status-removed": {
    effect: "incompatible",
    request: "breaking",
    response: "breaking",
    says: ({ detail }) => `${detail} is no longer terminal`,
  },
  "retry-after-changed": {
    effect: "incompatible",
    request: "breaking",
    response: "breaking",
    says: (said) => `x-retry-after changed, ${fromTo(said)}`,
  },
  // A read-only field is not for requests (the service ignores or refuses it); a write-only one is never returned.
  "read-only-added": {
    effect: "narrowing",
    request: "breaking",
    response: "compatible",
    says: () => "now read-only: the service ignores or refuses it in requests",
  },
  "read-only-removed": {
    effect: "widening",
    request: "compatible",
    response: "compatible",
    says: () => "no longer read-only",
  },
  "write-only-added": {
    effect: "narrowing",
    request: "compatible",
    response: "breaking",
    says: () => "now write-only: responses no longer carry it",
  },
  "write-only-removed": {
    effect: "widening",
    request: "compatible",
    response: "compatible",
    says: () => "no longer write-only",
  },
  // A discriminator names the property that tells branches apart; where every branch already
  // requires a constant there, the values the union accepts are the same.
  "discriminator-stated": {
    effect: "incompatible",
    request: "compatible",
    response: "compatible",
    says: ({ detail }) =>
      `discriminator ${code(detail)} stated or dropped; every branch already requires its own constant there, so the accepted values do not change`,
  },
  "discriminator-added": {
    effect: "narrowing",
    says: ({ detail }) => `branches now told apart by ${code(detail)}, which not every branch required as a constant`,
  },
  "discriminator-removed": {
    effect: "widening",
    says: ({ detail }) => `branches no longer told apart by ${code(detail)}`,
  },
  "discriminator-changed": { effect: "incompatible", says: (said) => `discriminator changed, ${fromTo(said)}` },
  // Any other keyword whose value changed: nothing shows the change only widens, so it counts as breaking.
  "keyword-changed": { effect: "incompatible", says: ({ detail }) => `${code(detail)} changed` },
} satisfies Record<string, SchemaRule>;

type Bound = (typeof UPPER_BOUNDS)[number] | (typeof LOWER_BOUNDS)[number];
export type RuleName =
  | keyof typeof ROUTE_RULES
  | keyof typeof SCHEMA_RULES
  | `${Bound}-${"added" | "removed" | "decreased" | "increased"}`
  | `${(typeof RESTRICTIONS)[number]}-${"added" | "removed" | "changed"}`
  | `${"any-of" | "one-of"}-${"added" | "removed" | "branch-added" | "branch-removed"}`;

// boundRules() builds exactly the names the template literal types above spell.
export const RULES = { ...ROUTE_RULES, ...SCHEMA_RULES, ...boundRules() } as unknown as Readonly<
  Record<RuleName, Rule>
>;

const FLIP: Record<Effect, Effect> = { narrowing: "widening", widening: "narrowing", incompatible: "incompatible" };

export function severityOf(rule: Rule, direction: Direction | undefined, negated: boolean): Severity {
  if ("severity" in rule) return rule.severity;
  if (!direction) throw new Error("a schema rule needs a direction");
  const fixed = rule[direction];
  if (fixed && !negated) return fixed;
  const effect = negated ? FLIP[rule.effect] : rule.effect;
  if (effect === "incompatible") return "breaking";
  return (direction === "request") === (effect === "narrowing") ? "breaking" : "compatible";
}
