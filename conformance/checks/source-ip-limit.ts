/**
 * The per-IP request limit (specification, Limits: "Requests per source IP | 1200 per minute
 * (default, may be tuned)", in fixed one-minute windows). Each answer's X-RateLimit-* report one
 * window, which a client cannot tell is its key's or its address's, so only a count shows the
 * address's limit missing: with sourceIpBurst, the run's very last requests go to an unpriced GET
 * over the declared keys in turn, twice the per-IP limit plus one, none of the keys reaching its own
 * limit. A burst shorter than a window touches at most two windows, so an honest target refuses one
 * of them with the rate-limited 429; all answered within a window's length is a limit missing. A
 * burst that took longer proves nothing, and says so. It spends the address's whole window.
 */
import { needing, STAGE, type Check } from "../check.ts";
import { sourceIpLimits, type SourceIpBurst } from "../config.ts";
import type { ContractOperation } from "../../contract/contract.ts";
import { conditionsOf } from "../../contract/retry-after.ts";
import type { Exchange } from "../http.ts";
import type { Session } from "../session.ts";

const GROUP = "source-ip-limit";
const LIMIT = "requests from one address past its per-IP limit get the rate-limited 429, whichever keys they carry";
const KEYS = "the burst's keys are the target's";

/** An unpriced GET without required parameters: the burst costs nothing. */
const burstRequest = (session: Session): ContractOperation | undefined => session.unpricedGets()[0];

interface Burst {
  /** The first 429, which ends the burst. */
  refusal?: Exchange;
  /** From the first request's sending to the last answer's arrival. */
  firstSentAt: number;
  lastReceivedAt: number;
  /** The declared keys the target refused as credentials, by index. */
  refusedKeys: Map<number, number>;
}

export const sourceIpLimit: Check = {
  group: GROUP,
  rules: {
    [LIMIT]: ["limits.rate.per-ip"],
    [KEYS]: [],
  },
  summary:
    "With sourceIpBurst, the run's last requests, spread over its keys so that none reaches its own limit, pass the address's per-IP limit and must get the rate-limited 429.",
  blockedBy: needing({ stateful: true, declared: ["sourceIpBurst"] }, (session) =>
    burstRequest(session)
      ? null
      : "the target implements no unpriced GET route without parameters to send the burst to",
  ),
  async run({ session, stage, status }) {
    // Spending the address's window stops every key of the run: these are its very last requests.
    await stage(STAGE.addressWindow);
    const declared = session.config.sourceIpBurst as SourceIpBurst;
    const { perSourceIp, windowSeconds } = sourceIpLimits(declared, session.contract);
    const requests = 2 * perSourceIp + 1;
    const op = burstRequest(session) as ContractOperation;
    const clients = declared.apiKeys.map((key) => session.client(key));
    const burst: Burst = { firstSentAt: Infinity, lastReceivedAt: 0, refusedKeys: new Map() };
    let sent = 0;
    const sender = async (): Promise<void> => {
      while (burst.refusal === undefined && sent < requests) {
        const index = sent % clients.length;
        const client = clients[index]!;
        sent++;
        // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator,StringLiteral: progress text, shown only on the run's 5-s ticks
        if (sent % 500 === 0) status(`${sent} of at most ${requests} requests sent`);
        const exchange = await client.send(
          op,
          { method: op.method, path: op.path, headers: client.authorized() },
          { unpaced: true, expectTooMany: true },
        );
        burst.firstSentAt = Math.min(burst.firstSentAt, exchange.sentAt);
        burst.lastReceivedAt = Math.max(burst.lastReceivedAt, exchange.receivedAt);
        if (exchange.status === 429) burst.refusal ??= exchange;
        if (exchange.status === 401) burst.refusedKeys.set(index, exchange.status);
      }
    };
    await Promise.all(Array.from({ length: session.config.parallelRequests }, sender));
    const spec = { method: op.method, path: op.path, headers: clients[0]!.authorized() };
    session.results.expect(
      GROUP,
      op.route,
      KEYS,
      [...burst.refusedKeys].map(([index, code]) => `sourceIpBurst.apiKeys[${index}] was answered ${code}`),
    );
    const verdict = judged(session, burst, { requests, perSourceIp, windowSeconds, keys: clients.length });
    if ("skip" in verdict) session.results.skip(GROUP, op.route, LIMIT, verdict.skip);
    else session.results.expect(GROUP, op.route, LIMIT, verdict.problems, session.curl(spec));
  },
};

/** What the burst shows: nothing past a window's length, else the limit honoured or missing. */
function judged(
  session: Session,
  burst: Burst,
  figures: { requests: number; perSourceIp: number; windowSeconds: number; keys: number },
): { skip: string } | { problems: string[] } {
  const { requests, perSourceIp, windowSeconds, keys } = figures;
  if (burst.refusal)
    return {
      problems: conditionsOf(session.contract, burst.refusal.json).has("rate-limited")
        ? []
        : [`the burst's 429 is not the rate limiter's: ${burst.refusal.text.slice(0, 200)}`],
    };
  const seconds = (burst.lastReceivedAt - burst.firstSentAt) / 1000;
  // Stryker disable next-line EqualityOperator: a span of exactly one window still touches at most two, and cannot be arranged to the millisecond
  if (seconds > windowSeconds)
    return {
      skip: `the ${requests} requests took ${seconds.toFixed(1)} s, longer than a ${windowSeconds}-second window, so they may have spanned three windows: a limit missing is not shown (more parallelRequests make the burst shorter)`,
    };
  return {
    problems: [
      `all ${requests} requests over ${keys} keys were answered within ${windowSeconds} s, none with 429: a per-IP limit of ${perSourceIp} lets at most ${2 * perSourceIp} through in two windows`,
    ],
  };
}
