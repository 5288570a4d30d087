/**
 * The durations of a request's media inputs, as the service measures them (Choices.mediaSeconds):
 * the limits each media field states (`x-media`), checked on every route, and the seconds a
 * per-second price reads.
 */
import type { JsonSchema } from "../model/document.ts";
import type { MediaRule } from "../runtime/costs/pricing.ts";

/** The seconds of a media string, or null when unknown. */
export type MediaSeconds = (media: string) => number | null;

/** The duration limits a media field states (`x-media`), some only when another field has a value. */
interface DurationLimits {
  readonly minDurationSeconds?: number;
  readonly maxDurationSeconds?: number;
  readonly maxCombinedDurationSeconds?: number;
  /** The media's seconds plus another field's (an output length) at most `maxSeconds` (V-B's 30 s). */
  readonly maxTotalWithField?: { readonly field: string; readonly maxSeconds: number };
  readonly conditionalLimits?: ReadonlyArray<{
    readonly when: { readonly field: string; readonly equals: unknown };
    readonly limits: { readonly maxDurationSeconds?: number };
  }>;
}

/**
 * The first duration limit a body's media break, as `body.<field> (#duration): <rule>`, or null: the
 * durations measured (the sandbox reads a URL's `#duration=N`), on every route, priced or not (a
 * medium of unknown length is taken to be within them).
 */
export function mediaDurationProblem(
  schema: JsonSchema | undefined,
  body: unknown,
  secondsOf: MediaSeconds,
): string | null {
  if (typeof body !== "object" || body === null) return null;
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  for (const [field, property] of Object.entries(properties)) {
    const limits = property["x-media"] as DurationLimits | undefined;
    const value = (body as Record<string, unknown>)[field];
    // Stryker disable next-line ConditionalExpression: equivalent: an absent field's value names no duration, so nothing below finds a problem
    if (!limits || value === undefined) continue;
    const seconds = (Array.isArray(value) ? value : [value]).flatMap((item) => {
      const found = typeof item === "string" ? secondsOf(item) : null;
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
    const other = limits.maxTotalWithField;
    const added = other && (body as Record<string, unknown>)[other.field];
    if (other && typeof added === "number" && total + added > other.maxSeconds)
      return `${where}: ${total} seconds plus body.${other.field} (${added}) must be at most ${other.maxSeconds} seconds`;
  }
  return null;
}

/**
 * The durations of the priced media fields of a body, as quoteRoute takes them: the measured
 * seconds, else the default kept within the field's duration limits (the smallest
 * stated maximum, the minimum, and an even share of a combined maximum).
 */
export function mediaDurations(
  body: Readonly<Record<string, unknown>>,
  media: Readonly<Record<string, MediaRule>>,
  defaultSeconds: number,
  secondsOf: MediaSeconds,
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
    const seconds = items.map((item) => (typeof item === "string" ? secondsOf(item) : null) ?? fallback);
    durations[field] = rule.list ? seconds : (seconds[0] ?? fallback);
  }
  return durations;
}
