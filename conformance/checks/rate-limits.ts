/**
 * 429 responses: the body must be one of the four variants of the description's 429 schema, and
 * `Retry-After` must be present exactly for the variants that send it. Every 429 seen in the run
 * is checked; a target may also ask for a burst that provokes the rate limiter.
 */
import type { JsonSchema } from "../../src/openapi/document.ts";
import type { ContractOperation } from "../contract.ts";
import type { Exchange } from "../http.ts";
import { documentedResponse, schemaProblems } from "../response-check.ts";
import type { Session } from "../session.ts";

export const GROUP = "rate-limits";

/** The names of the component schemas the 429 body's anyOf/oneOf lists. */
function variantNames(session: Session, op: ContractOperation): string[] {
  const schema = documentedResponse(op, 429)?.content?.["application/json"]?.schema;
  if (!schema) return [];
  const union = session.contract.deref(schema);
  const members = (union.anyOf ?? union.oneOf ?? []) as Array<{ $ref?: string }>;
  return members.map((member) => (member.$ref ?? "").split("/").at(-1) ?? "");
}

/**
 * Whether a 429 with this variant's body carries Retry-After, from the variant schema's
 * x-retry-after (the seed: only the rate limiter and the cooldown send it).
 */
function sendsRetryAfter(session: Session, name: string): boolean {
  const flag = session.contract.deref<JsonSchema>({ $ref: `#/components/schemas/${name}` })["x-retry-after"];
  if (typeof flag !== "boolean") throw new Error(`429 variant ${name} does not say whether it sends Retry-After (x-retry-after)`);
  return flag;
}

export function checkTooManyRequests(session: Session, op: ContractOperation, exchange: Exchange): void {
  if (!session.runs(GROUP)) return;
  const curl = session.curl(exchange.request);
  const names = variantNames(session, op);
  if (names.length === 0) {
    session.results.fail(GROUP, op.route, "429 is documented", `${op.route} answered 429, which it does not document`, curl);
    return;
  }
  const matching = names.filter((name) => !schemaProblems(session.contract, { $ref: `#/components/schemas/${name}` }, exchange.json));
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
  const wanted = matching.map((name) => sendsRetryAfter(session, name));
  if (prefer) {
    session.results.skip(
      GROUP,
      op.route,
      `${label}: Retry-After exactly where the seed sends it`,
      "Prism sends every header declared on the 429 response, whichever example the Prefer header selects",
    );
    return;
  }
  const present = exchange.headers.has("retry-after");
  const problems =
    wanted.every((value) => value) && !present
      ? [`Retry-After is missing on a ${matching.join("/")} 429`]
      : wanted.every((value) => !value) && present
        ? [`Retry-After is sent on a ${matching.join("/")} 429, which the seed sends without it`]
        : [];
  session.results.expect(GROUP, op.route, `${label}: Retry-After exactly where the seed sends it`, problems, curl);
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
