/**
 * What the specification leaves open about one request or job, as explicit inputs of the model: the
 * outcome a create asks for, how long a media input lasts (the service measures it), the price
 * facts a body does not hold, when a job ends and how long it can be polled, and the ids it gets.
 * The sandbox answers them from its config and the markers its requests carry (sandbox/choices.ts);
 * the conformance suite's oracle from a target's declaration, leaving a job's end to what it sees.
 */
import type { AreaModel } from "../model/service-model.ts";

/** A terminal status the job ends in, or the moderation block the create answers with. */
export type Outcome = { readonly status: string } | { readonly moderation: string };

/** A request whose ask cannot be read (a marker naming nothing known): a 400 naming the field. */
export class AskError extends Error {
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`${field}: ${rule}`);
  }
}

export interface JobTiming {
  /** Milliseconds from creation to the terminal status; Infinity: the job ends when told (ServiceState.endJob). */
  readonly runMs: number;
  /** Milliseconds a finished job can still be polled. */
  readonly retentionMs: number;
}

export interface Choices {
  /** The outcome a create body asks for, or null (the account's default); throws AskError. */
  outcome(body: unknown): Outcome | null;
  /** The seconds a media input lasts, or null when unknown (then the field's default applies). */
  mediaSeconds(media: string): number | null;
  /** The seconds of a media input whose length is unknown. */
  readonly defaultMediaSeconds: number;
  /** Facts a price reads that the body does not hold (x-pricing `fact` conditions), as far as known. */
  priceFacts(
    body: Readonly<Record<string, unknown>>,
    facts: Readonly<Record<string, readonly unknown[]>>,
    mediaFields: readonly string[],
  ): Record<string, string>;
  /** When an area's jobs end and how long they stay. */
  timing(area: AreaModel): JobTiming;
  /** A new job's id: the prefix and an opaque part, or the `sequence`-th integer. */
  jobId(prefix: string, integer: boolean, sequence: number): string;
  /** Whose failures the cooldown counts together (not shown): an account's, all its keys', or each key's. */
  readonly cooldownScope: "account" | "key";
  /** Which ends count as failed generations for the cooldown (not shown): any unsuccessful one, or `failed` only. */
  readonly cooldownCounts: "unsuccessful" | "failed";
  /**
   * The field a succeeded poll gives its result URL in where the poll schema names no result field
   * (lip sync, video upscale: "Result URLs are present in the poll response", under a name not shown).
   */
  readonly unshownResultField?: string;
}
