/**
 * How CI judges a promised figure against its goal (`npm run bench:guard`; the figures are
 * guards.ts's): measured once, and when past its goal at the first, twice more and judged by the
 * median of the three, so that one slow moment of a shared machine does not fail CI; a figure within
 * its goal is not measured again. A measurement that fails is taken again, and fails the figure
 * only when it fails CONFIRMATIONS times in a row.
 */
import { median } from "./measurement.ts";

export interface Guard {
  /** What the figure is, with its unit: "client per-call time against bare openapi-fetch, a poll". */
  readonly figure: string;
  /** The goal: the figure at most or at least this. */
  readonly goal: { readonly most: number } | { readonly least: number };
  /** One measurement of the figure; `note` hears what went into it (the rounds' own figures), for the log. */
  measure(note?: (detail: string) => void): Promise<number>;
  /** Whether a second measurement could differ (a size cannot). */
  readonly varies: boolean;
}

/** Whether `value` meets `goal`. */
export const meets = (value: number, goal: Guard["goal"]): boolean =>
  "most" in goal ? value <= goal.most : value >= goal.least;

/** How many measurements judge a figure past its goal at the first: the median of these. */
export const CONFIRMATIONS = 3;

export interface Verdict {
  readonly guard: Guard;
  /** Every measurement taken, in order. */
  readonly values: readonly number[];
  /** The value judged: the only one, or the median of CONFIRMATIONS. */
  readonly value: number;
  readonly passed: boolean;
}

/**
 * One measurement of `guard`: a measurement that failed (a server of the measurement that hung up
 * on a loaded machine) is taken again, up to CONFIRMATIONS attempts, each failure told to `note`;
 * the last failure is thrown when every attempt failed.
 */
async function measured(guard: Guard, note?: (detail: string) => void): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await guard.measure(note);
    } catch (error) {
      if (attempt >= CONFIRMATIONS) throw error;
      note?.(`measurement ${attempt} failed (${(error as Error).message}); measuring again`);
    }
  }
}

/** Measures `guard`, again up to CONFIRMATIONS in all when the first is past the goal, and judges it. */
export async function judge(guard: Guard, note?: (detail: string) => void): Promise<Verdict> {
  const values = [await measured(guard, note)];
  if (guard.varies && !meets(values[0]!, guard.goal))
    while (values.length < CONFIRMATIONS) values.push(await measured(guard, note));
  const value = median(values);
  return { guard, values, value, passed: meets(value, guard.goal) };
}
