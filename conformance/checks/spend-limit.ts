/**
 * The monthly spend limit: on the account the declaration names (spendLimit), a create whose quote
 * passes what the limit lets it spend is refused with the spend-limit 429, without Retry-After (no
 * wait clears it), and sent again a little later it is refused again: retrying does not clear it.
 */
import { needing, type Check } from "../check.ts";
import { accepted } from "../http.ts";
import { priceOf, quotedBody } from "../cost.ts";
import { validRequests } from "../requests.ts";
import { responseProblems } from "../response-check.ts";
import { conditionsOf } from "../../contract/retry-after.ts";
import type { Session } from "../session.ts";

const GROUP = "spend-limit";
/** How long the retry waits: long enough to be a retry, short beside a run. */
const RETRY_AFTER_MS = 1_500;

/**
 * The cheapest create request of exact price above what the limit lets the account spend, outside
 * the cooldown's family (the cooldown check may pause it on the same account).
 */
function pastLimit(session: Session) {
  const declared = session.config.spendLimit;
  if (!declared) return undefined;
  const client = session.client(declared.apiKey);
  const family = session.contract.model.limits.cooldown.family;
  return session
    .selected()
    .filter((op) => op.create !== undefined && op.create.family !== family)
    .flatMap((op) =>
      validRequests(session, op, client).map((request) => ({
        op,
        request,
        price: priceOf(session.contract, op, quotedBody(request.spec)),
      })),
    )
    .filter(({ price }) => price.credits !== null && !price.atMost && price.credits > declared.credits)
    .sort((a, b) => (a.price.credits ?? 0) - (b.price.credits ?? 0))[0];
}

export const spendLimit: Check = {
  group: GROUP,
  rules: {
    "a create past the monthly spend limit is refused with the spend-limit 429": [
      "errors.429-spend-limit",
      "errors.429-four-conditions",
    ],
    "the spend-limit 429 carries no Retry-After": ["errors.spend-limit-no-retry-after"],
    "retrying does not clear the spend limit": ["errors.spend-limit-not-cleared-by-retry"],
  },
  summary:
    "With spendLimit: a create past the account's monthly spend limit is refused with the spend-limit 429 without Retry-After, and retrying does not clear it.",
  blockedBy: needing(
    {
      stateful: true,
      declared: [{ field: "spendLimit", gives: "a key of an account whose monthly spend limit is nearly reached" }],
    },
    (session) =>
      pastLimit(session)
        ? null
        : `no implemented create request has an exact standard price above spendLimit.credits (${session.config.spendLimit!.credits})`,
  ),
  spend(session) {
    const found = pastLimit(session);
    // Refused when the target keeps the limit; a target that does not would run them.
    return found
      ? [0, 1].map(() => ({
          key: session.client(session.config.spendLimit!.apiKey).name,
          what: `${found.op.route} (spend limit)`,
          price: found.price,
        }))
      : [];
  },
  async run({ session, status }) {
    const { op, request } = pastLimit(session)!;
    const client = session.client(session.config.spendLimit!.apiKey);
    const { contract } = session;
    const curl = session.curl(request.spec);
    // Not expectTooMany: a rate-limited 429 on the way is waited out and resent, not judged as the spend limit's.
    const send = () => client.send(op, request.spec);
    const refused = (exchange: Awaited<ReturnType<typeof send>>): boolean =>
      exchange.status === 429 && conditionsOf(contract, exchange.json).has("spend-limit");
    status("sending a create past the spend limit");
    const first = await send();
    const problems = refused(first)
      ? responseProblems(contract, op, first)
      : [`answered ${first.status}, not the spend-limit 429: ${first.text.slice(0, 200)}`];
    session.results.expect(
      GROUP,
      op.route,
      "a create past the monthly spend limit is refused with the spend-limit 429",
      problems,
      curl,
    );
    if (!refused(first)) return;
    const retryAfter = first.headers.get(contract.model.retryAfterHeader);
    session.results.expect(
      GROUP,
      op.route,
      "the spend-limit 429 carries no Retry-After",
      retryAfter === null ? [] : [`${contract.model.retryAfterHeader}: ${retryAfter}, though no wait clears the limit`],
      curl,
    );
    await session.sleep(RETRY_AFTER_MS);
    const again = await send();
    const cleared = accepted(again)
      ? [`the same create sent again ${RETRY_AFTER_MS / 1000} s later was accepted`]
      : refused(again)
        ? []
        : [`sent again, it answered ${again.status}, not the spend-limit 429: ${again.text.slice(0, 200)}`];
    session.results.expect(GROUP, op.route, "retrying does not clear the spend limit", cleared, curl);
  },
};
