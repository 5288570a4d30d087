/** Checks of option values shared by the client and the limiter, naming the bad field and the rule. */
import { InvalidInputError } from "./errors.ts";

/** `record[key]`; InvalidInputError naming `field` and the keys there are, when `key` is none of them. */
export function oneOf<V>(field: string, record: Readonly<Record<string, V>>, key: string): V {
  if (Object.hasOwn(record, key)) return record[key] as V;
  throw new InvalidInputError(field, `must be one of ${Object.keys(record).join(", ")}`);
}

/**
 * `value`, a whole number from `min` on, or `fallback` when absent. Every such option is a count or
 * a duration, and setTimeout's largest delay bounds them all: a longer delay fires at once.
 */
export function integer(field: string, value: number | undefined, fallback: number, min = 1): number {
  const max = 2 ** 31 - 1;
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min)
    throw new InvalidInputError(field, `must be a ${min ? "positive" : "non-negative"} integer`);
  if (value > max) throw new InvalidInputError(field, `must be at most ${max}`);
  return value;
}
