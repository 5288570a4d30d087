/**
 * The limits of a media input that only the target measures (its duration, frame size and bytes,
 * `x-media`): no body the suite writes shows them broken, since a URL's text says nothing of the
 * file behind it. Where the declaration gives inputs the target can fetch with what it measures of
 * them (`mediaInputs`), each create field an input breaks a limit of is sent it, in a named example
 * otherwise valid, and must be refused with 400 and the error body.
 */
import { needing, type Check } from "../check.ts";
import type { MediaInput } from "../config.ts";
import type { ContractOperation } from "../../contract/contract.ts";
import { sendInvalid, validRequests } from "../requests.ts";
import { responseProblems } from "../response-check.ts";
import type { Session } from "../session.ts";

const GROUP = "media-limits";
const REFUSED = "refuses {field} of {measured}, past its {limit}";

/** The limits a field's `x-media` states that a measured input can break. */
interface MediaLimits {
  readonly kind?: string;
  readonly minDurationSeconds?: number;
  readonly maxDurationSeconds?: number;
  readonly maxWidth?: number;
  readonly maxHeight?: number;
  readonly maxSizeMB?: number;
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

/** Each media field of a create route with the declared inputs that break one of its limits. */
function cases(session: Session, op: ContractOperation) {
  const properties = (op.requestSchema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(properties).flatMap(([field, property]) => {
    const limits = property["x-media"] as MediaLimits | undefined;
    if (!limits) return [];
    return (session.config.mediaInputs ?? []).flatMap((input) => {
      const past = input.kind === limits.kind ? broken(input, limits) : null;
      return past ? [{ field, list: property.type === "array", input, ...past }] : [];
    });
  });
}

export const mediaLimits: Check = {
  group: GROUP,
  rules: { [REFUSED]: ["route:video-upscales.input-limits"] },
  summary:
    "With mediaInputs: each create field that a declared input breaks a limit of (duration, frame size, bytes) is sent it, in a named example otherwise valid, and refused with 400.",
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
        return cases(session, op).map(async ({ field, list, input, measured, limit }) => {
          const body = { ...(base.spec.body as Record<string, unknown>), [field]: list ? [input.url] : input.url };
          const spec = { ...base.spec, body };
          const exchange = await sendInvalid(session, client, op, spec);
          const name = REFUSED.replace("{field}", field).replace("{measured}", measured).replace("{limit}", limit);
          session.results.expect(
            GROUP,
            op.route,
            name,
            exchange.status === 400
              ? responseProblems(session.contract, op, exchange)
              : [`answered ${exchange.status}, not 400, to ${field} of ${measured} (${input.url})`],
            session.curl(spec),
          );
        });
      });
    await Promise.all(sends);
  },
};
