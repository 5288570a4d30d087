/**
 * 429 responses: the body must be one of the four variants of the description's 429 schema, and
 * `Retry-After` must be present exactly for the variants that send it. Every 429 seen in the run
 * is checked; a target may also ask for a burst that provokes the rate limiter.
 */
import type { ContractOperation } from "../contract.ts";
import type { Exchange } from "../http.ts";
import { documentedResponse } from "../response-check.ts";
import { retryAfterFor, variantsOf } from "../retry-after.ts";
import type { Session } from "../session.ts";

export const GROUP = "rate-limits";

export function checkTooManyRequests(session: Session, op: ContractOperation, exchange: Exchange): void {
  if (!session.runs(GROUP)) return;
  const curl = session.curl(exchange.request);
  const schema = documentedResponse(op, 429)?.content?.["application/json"]?.schema;
  if (!schema) {
    session.results.fail(GROUP, op.route, "429 is documented", `${op.route} answered 429, which it does not document`, curl);
    return;
  }
  const names = variantsOf(session.contract, schema);
  const { matching, sends } = retryAfterFor(session.contract, names, exchange.json);
  const prefer = exchange.request.headers.prefer;
  const label = `429 variant${prefer ? ` (${prefer})` : ""}`;
  session.results.expect(
    GROUP,
    op.route,
    `${label} has one of the variant shapes`,
    matching.length ? [] : [`body matches none of ${names.join(", ")}: ${exchange.text.slice(0, 300)}`],
    curl,
  );
  if (matching.length === 0) return;
  const name = `${label}: Retry-After exactly where the seed sends it`;
  if (sends === undefined) {
    session.results.skip(GROUP, op.route, name, `the body matches ${matching.join(", ")}, which disagree on Retry-After (x-retry-after)`);
    return;
  }
  const present = exchange.headers.has("retry-after");
  const problems =
    sends && !present
      ? [`Retry-After is missing on a ${matching.join("/")} 429`]
      : !sends && present
        ? [`Retry-After is sent on a ${matching.join("/")} 429, which the seed sends without it`]
        : [];
  session.results.expect(GROUP, op.route, name, problems, curl);
}

/** Provokes the rate limiter with X-RateLimit-Limit + 1 requests to the cheapest route. */
export async function rateLimitBurst(session: Session): Promise<void> {
  if (!session.runs(GROUP)) return;
  const op = session.selected().find((candidate) => candidate.method === "get" && !candidate.path.includes("{"));
  if (!session.config.rateLimitBurst || !op) {
    if (session.tooManyRequests === 0) {
      session.results.skip(GROUP, "*", "429 responses", "no 429 was seen; set rateLimitBurst in the target's declaration to provoke one");
    }
    return;
  }
  const request = { method: "get", path: op.path, headers: session.authorized() };
  const first = await session.call(op, request, true);
  const limit = Number(first.headers.get("x-ratelimit-limit"));
  const seenBefore = session.tooManyRequests;
  for (let sent = 1; Number.isFinite(limit) && sent <= limit && session.tooManyRequests === seenBefore; sent++) {
    await session.call(op, request, true);
  }
  session.results.expect(
    GROUP,
    op.route,
    "the rate limiter answers 429 once X-RateLimit-Limit requests are spent",
    session.tooManyRequests > seenBefore ? [] : [`no 429 after X-RateLimit-Limit (${first.headers.get("x-ratelimit-limit")}) + 1 requests`],
    session.curl(request),
  );
}
