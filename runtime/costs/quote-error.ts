/** An invalid quote request: the message names the field and the rule it breaks. */
export class QuoteError extends Error {
  constructor(
    /** Where the problem is: `path`, `body.size`, `media.video`. */
    readonly field: string,
    /** The rule it breaks, e.g. `must be one of 1K, 2K`. */
    readonly rule: string,
  ) {
    super(`quote: ${field}: ${rule}`);
    this.name = "QuoteError";
  }
}
