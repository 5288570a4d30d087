/**
 * The limits of a media input that only the target measures (its duration, frame size and bytes,
 * `x-media`): no body the suite writes shows them broken, since a URL's text says nothing of the
 * file behind it. Where the declaration gives inputs the target can fetch with what it measures of
 * them (`mediaInputs`), each create field an input breaks a limit of is sent it, in a named example
 * otherwise valid, and must be refused with 400 and the error body. A field whose seconds plus
 * another field's are limited (`maxTotalWithField`: V-B's input video plus output length, 30 s) is
 * sent each input within its own limits with the other field's smallest value past the total.
 */
import { needing, type Check } from "../check.ts";
import type { MediaInput } from "../config.ts";
import type { ContractOperation } from "../../contract/contract.ts";
import { sendInvalid, validRequests } from "../requests.ts";
import { responseProblems } from "../response-check.ts";
import type { Session } from "../session.ts";

const GROUP = "media-limits";
const REFUSED = "refuses {field} of {measured}, past its {limit}";
const PAST_TOTAL = "refuses {field} of {measured} with {other} of {value}, past their most of {limit} together";

/** The limits a field's `x-media` states that a measured input can break. */
interface MediaLimits {
  readonly kind?: string;
  readonly minDurationSeconds?: number;
  readonly maxDurationSeconds?: number;
  readonly maxWidth?: number;
  readonly maxHeight?: number;
  readonly maxSizeMB?: number;
  readonly maxTotalWithField?: { readonly field: string; readonly maxSeconds: number };
}

/** What of `limits` a declared input breaks (`25 s`, `the 20 s most`), or null where it breaks none. */
function broken(input: MediaInput, limits: MediaLimits): { measured: string; limit: string } | null {
  const past = (value: number | undefined, bound: number | undefined, unit: string, most: boolean) =>
    value !== undefined && bound !== undefined && (most ? value > bound : value < bound)
      ? { measured: `${value} ${unit}`, limit: `${most ? "most" : "least"} of ${bound} ${unit}` }
      : null;
  return (
    past(input.seconds, limits.maxDurationSeconds, "s", true) ??
    past(input.seconds, limits.minDurationSeconds, "s", false) ??
    past(input.width, limits.maxWidth, "px wide", true) ??
    past(input.height, limits.maxHeight, "px high", true) ??
    past(input.megabytes, limits.maxSizeMB, "MB", true)
  );
}

/** A request's change and what the answer's result is named. */
interface Case {
  /** What is sent, as the failure names it: `video of 25 s`. */
  readonly what: string;
  readonly input: MediaInput;
  readonly body: Readonly<Record<string, unknown>>;
  readonly name: string;
}

/**
 * Each media field of a create route with the declared inputs that break one of its limits, and,
 * where its seconds plus another field's are limited, the inputs within its own limits sent with
 * the other field's smallest whole value (within that field's range) that passes the total.
 */
function cases(session: Session, op: ContractOperation): Case[] {
  const properties = (op.requestSchema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(properties).flatMap(([field, property]) => {
    const limits = property["x-media"] as MediaLimits | undefined;
    if (!limits) return [];
    const value = (input: MediaInput) => (property.type === "array" ? [input.url] : input.url);
    return (session.config.mediaInputs ?? []).flatMap((input): Case[] => {
      if (input.kind !== limits.kind) return [];
      const past = broken(input, limits);
      if (past) {
        const name = REFUSED.replace("{field}", field)
          .replace("{measured}", past.measured)
          .replace("{limit}", past.limit);
        return [{ what: `${field} of ${past.measured}`, input, body: { [field]: value(input) }, name }];
      }
      const total = limits.maxTotalWithField;
      const other = total && properties[total.field];
      if (!total || !other || input.seconds === undefined) return [];
      const added = Math.floor(total.maxSeconds - input.seconds) + 1;
      const range = other as { minimum?: number; maximum?: number };
      if (added < (range.minimum ?? 0) || added > (range.maximum ?? Infinity)) return [];
      const name = PAST_TOTAL.replace("{field}", field)
        .replace("{measured}", `${input.seconds} s`)
        .replace("{other}", total.field)
        .replace("{value}", String(added))
        .replace("{limit}", `${total.maxSeconds} s`);
      const what = `${field} of ${input.seconds} s with ${total.field} of ${added}`;
      return [{ what, input, body: { [field]: value(input), [total.field]: added }, name }];
    });
  });
}

export const mediaLimits: Check = {
  group: GROUP,
  rules: { [REFUSED]: ["route:video-upscales.input-limits"], [PAST_TOTAL]: ["route:videos.v-b.length-limits"] },
  summary:
    "With mediaInputs: each create field that a declared input breaks a limit of (duration, frame size, bytes) is sent it, in a named example otherwise valid, and refused with 400; a field whose seconds plus another field's are limited (V-B's input video plus output length) is sent each input within its own limits with the other field's smallest value past the total, and refused with 400.",
  blockedBy: needing({
    declared: [{ field: "mediaInputs", gives: "media inputs the target can fetch, with what it measures of them" }],
  }),
  async run({ session }) {
    // Refused negatives, as request-validation's: they spare the main key's rate-limit window.
    const client = session.negatives;
    const sends = session
      .selected()
      .filter((op) => op.facts.kind === "create")
      .flatMap((op) => {
        const base = validRequests(session, op, client)[0];
        // Stryker disable next-line ConditionalExpression: equivalent: every create of the description takes a JSON object body, so its first valid request's body is neither a non-object nor null and those guards never return early
        if (!base || typeof base.spec.body !== "object" || base.spec.body === null) return [];
        return cases(session, op).map(async ({ what, input, body, name }) => {
          const spec = { ...base.spec, body: { ...(base.spec.body as Record<string, unknown>), ...body } };
          const exchange = await sendInvalid(session, client, op, spec);
          session.results.expect(
            GROUP,
            op.route,
            name,
            exchange.status === 400
              ? responseProblems(session.contract, op, exchange)
              : [`answered ${exchange.status}, not 400, to ${what} (${input.url})`],
            session.curl(spec),
          );
        });
      });
    await Promise.all(sends);
  },
};
