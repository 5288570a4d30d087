/**
 * What a request asks of the sandbox, read from its own strings so that the typed client and curl
 * can ask alike: an outcome marker anywhere in a string field (a prompt, a media URL), and media
 * durations in media URL fragments.
 *
 *   [sandbox:failed]  [sandbox:timeout]  [sandbox:succeeded]   the job ends in that terminal status
 *   [sandbox:moderation=input_csam]                           the create answers the moderation block
 *   https://host/clip.mp4#duration=12                         the media lasts 12 seconds
 */
import type { JsonSchema } from "../model/document.ts";
import type { ServiceModel } from "../model/service-model.ts";
import type { MediaRule } from "../runtime/costs/pricing.ts";

export type Outcome = { readonly status: string } | { readonly moderation: string };

export class MarkerError extends Error {
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`${field}: ${rule}`);
  }
}

const MARKER = /sandbox:([a-z_]+)(?:=([a-z_]+))?/g;
const MODERATION = "moderation";
const DURATION = /#(?:[^#]*[&;])?duration=(\d+(?:\.\d+)?)(?:[&;]|$)/;

/** Each string of a body with the field it sits in (`prompt`, `reference_images[1]`). */
function* strings(body: unknown): Generator<[string, string]> {
  if (typeof body !== "object" || body === null) return;
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === "string") yield [`body.${name}`, value];
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) if (typeof item === "string") yield [`body.${name}[${index}]`, item];
    }
  }
}

/** The outcome a body's marker asks for, or null; a marker naming nothing known is an error. */
export function outcomeOf(model: ServiceModel, body: unknown): Outcome | null {
  let found: Outcome | null = null;
  for (const [field, text] of strings(body)) {
    for (const [marker, word, value] of text.matchAll(MARKER)) {
      const reasons = model.errors.moderation.reasons;
      let outcome: Outcome;
      if (word === MODERATION && value !== undefined && reasons.includes(value)) outcome = { moderation: value };
      else if (value === undefined && word !== undefined && model.jobStatus.terminal.includes(word))
        outcome = { status: word };
      else {
        const asked = [
          ...model.jobStatus.terminal.map((status) => `sandbox:${status}`),
          `sandbox:${MODERATION}=<${reasons.join("|")}>`,
        ];
        throw new MarkerError(field, `"${marker}" is not a sandbox marker (${asked.join(", ")})`);
      }
      if (found !== null && JSON.stringify(found) !== JSON.stringify(outcome))
        throw new MarkerError(field, `"${marker}" contradicts an earlier marker`);
      found = outcome;
    }
  }
  return found;
}

/** The duration a media string names in its URL fragment (`#duration=12`), or null. */
export function durationIn(media: string): number | null {
  const match = DURATION.exec(media);
  return match ? Number(match[1]) : null;
}

const HEIGHT = /#(?:[^#]*[&;])?height=(\d+)(?:[&;]|$)/;

/** The sandbox's name for the upscale mode field (`precise` or `creative`), whose name the description does not show. */
export const UPSCALE_MODE_FIELD = "mode";

/**
 * The facts a price reads that the body does not hold (x-pricing's `fact` conditions), as the
 * sandbox derives them: `mode` from its own field UPSCALE_MODE_FIELD, `result_resolution` from the
 * input's `#height=N` times `upscale_factor` (`#height=720` doubled is `1440p`). A fact it cannot
 * derive is left out, and the quote then has no price.
 */
export function priceFacts(
  body: Readonly<Record<string, unknown>>,
  facts: Readonly<Record<string, readonly unknown[]>>,
  mediaFields: readonly string[],
): Record<string, string> {
  const derived: Record<string, string> = {};
  const mode = body[UPSCALE_MODE_FIELD];
  if ("mode" in facts && typeof mode === "string") derived.mode = mode;
  const input = mediaFields.map((field) => body[field]).find((value) => typeof value === "string") as
    | string
    | undefined;
  const height = input === undefined ? null : HEIGHT.exec(input);
  const factor = Number(body.upscale_factor);
  if ("result_resolution" in facts && height && Number.isFinite(factor))
    derived.result_resolution = `${Math.round(Number(height[1]) * factor)}p`;
  return derived;
}

/** The duration limits a media field states (`x-media`), some only when another field has a value. */
interface DurationLimits {
  readonly minDurationSeconds?: number;
  readonly maxDurationSeconds?: number;
  readonly maxCombinedDurationSeconds?: number;
  readonly conditionalLimits?: ReadonlyArray<{
    readonly when: { readonly field: string; readonly equals: unknown };
    readonly limits: { readonly maxDurationSeconds?: number };
  }>;
}

/**
 * The first duration limit a body's media break, as `body.<field> (#duration): <rule>`, or null: the
 * durations its URLs name (`#duration=N`), on every route, priced or not (a URL naming none is
 * taken to be within them).
 */
export function mediaDurationProblem(schema: JsonSchema | undefined, body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null;
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  for (const [field, property] of Object.entries(properties)) {
    const limits = property["x-media"] as DurationLimits | undefined;
    const value = (body as Record<string, unknown>)[field];
    // Stryker disable next-line ConditionalExpression: equivalent: an absent field's value names no duration, so nothing below finds a problem
    if (!limits || value === undefined) continue;
    const seconds = (Array.isArray(value) ? value : [value]).flatMap((item) => {
      const found = typeof item === "string" ? durationIn(item) : null;
      return found === null ? [] : [found];
    });
    const max = Math.min(
      limits.maxDurationSeconds ?? Infinity,
      ...(limits.conditionalLimits ?? [])
        .filter(({ when }) => (body as Record<string, unknown>)[when.field] === when.equals)
        .map(({ limits: conditional }) => conditional.maxDurationSeconds ?? Infinity),
    );
    const where = `body.${field} (#duration)`;
    if (seconds.some((length) => length > max)) return `${where}: must be at most ${max} seconds`;
    if (seconds.some((length) => length < (limits.minDurationSeconds ?? 0)))
      return `${where}: must be at least ${limits.minDurationSeconds} seconds`;
    const total = seconds.reduce((sum, length) => sum + length, 0);
    if (total > (limits.maxCombinedDurationSeconds ?? Infinity))
      return `${where}: must be at most ${limits.maxCombinedDurationSeconds} seconds combined`;
  }
  return null;
}

/**
 * The durations of the priced media fields of a body, as quoteRoute takes them: the URL's
 * `#duration=N`, else the configured default kept within the field's duration limits (the smallest
 * stated maximum, the minimum, and an even share of a combined maximum).
 */
export function mediaDurations(
  body: Readonly<Record<string, unknown>>,
  media: Readonly<Record<string, MediaRule>>,
  defaultSeconds: number,
): Record<string, number | number[]> {
  const durations: Record<string, number | number[]> = {};
  for (const [field, rule] of Object.entries(media)) {
    const value = body[field];
    if (value === undefined) continue;
    const items = Array.isArray(value) ? value : [value];
    const maxima = [
      rule.maxDurationSeconds,
      ...(rule.conditionalLimits ?? []).map((limit) => limit.limits.maxDurationSeconds),
    ];
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: the share of no items would be Infinity (a combined maximum over 0), which lowers no minimum
    if (rule.maxCombinedDurationSeconds !== undefined && items.length > 0)
      maxima.push(rule.maxCombinedDurationSeconds / items.length);
    const max = Math.min(...maxima.filter((limit): limit is number => limit !== undefined));
    const fallback = Math.max(rule.minDurationSeconds ?? 0, Math.min(defaultSeconds, max));
    const seconds = items.map((item) => (typeof item === "string" ? durationIn(item) : null) ?? fallback);
    durations[field] = rule.list ? seconds : (seconds[0] ?? fallback);
  }
  return durations;
}
