/**
 * What the independent server "measures" of a media input. It fetches nothing (nothing may reach
 * the network), so a duration is derived from the input's text: the same input always measures
 * the same, and different inputs differ, as files do. Durations fall inside the field's stated
 * per-item range (x-media), in its lower part, as real clips mostly do.
 */
import { createHash } from "node:crypto";
import { HOSTED_CLIPS } from "./setup.ts";

export interface DurationRange {
  readonly minSeconds: number;
  readonly maxSeconds: number;
}

/** The span a measured duration falls in above the range's lower end. */
const SPREAD_SECONDS = 8;

/** A hosted clip's own seconds; else a whole number of seconds within `range` (its lower end plus up to SPREAD_SECONDS). */
export function measuredSeconds(input: string, range: DurationRange): number {
  const hosted = HOSTED_CLIPS[input];
  if (hosted !== undefined) return hosted;
  const high = Math.min(range.maxSeconds, range.minSeconds + SPREAD_SECONDS);
  const digest = createHash("sha1").update(input).digest();
  return range.minSeconds + (digest.readUInt32BE(0) % (high - range.minSeconds + 1));
}
