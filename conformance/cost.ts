/**
 * What a run costs, at the description's standard prices (the quote of runtime/costs over the
 * service model's price tables): the estimate stated before a run against a real target, the
 * budget it must stay within, and the credits spent by the jobs seen to succeed and the priced
 * searches answered. Media priced by duration is quoted at its longest allowed duration, as an
 * upper bound; a request whose price is not shown is counted and named.
 */
import type { MediaRule } from "../runtime/costs/pricing.ts";
import { quoteRoute, type QuoteLine } from "../runtime/costs/quote.ts";
import type { Contract, ContractOperation } from "../contract/contract.ts";
import { accepted, type Exchange } from "./http.ts";

export interface Price {
  /** Standard credits, or null where the description shows no price for the request. */
  credits: number | null;
  /** `credits` is the most it can be: a media duration it depends on is taken at its limit. */
  atMost: boolean;
  /** Why `credits` is null. */
  reason?: string;
  /** The exact quote's lines. */
  breakdown?: readonly QuoteLine[];
}

/** The body a quote reads: the JSON body, or a GET's query parameters. */
export function quotedBody(request: { path: string; body?: unknown }): Record<string, unknown> {
  if (request.body !== undefined) return request.body as Record<string, unknown>;
  return Object.fromEntries(new URL(request.path, "http://query").searchParams);
}

/** The longest durations each media field of `body` may have, or null where a field has no limit. */
function longest(
  media: Readonly<Record<string, MediaRule>>,
  body: Record<string, unknown>,
): Record<string, number | number[]> | null {
  const durations: Record<string, number | number[]> = {};
  for (const [field, rule] of Object.entries(media)) {
    const value = body[field];
    if (value === undefined) continue;
    const items = Array.isArray(value) ? value.length : 1;
    const share =
      rule.maxCombinedDurationSeconds !== undefined ? rule.maxCombinedDurationSeconds / Math.max(items, 1) : undefined;
    const each = Math.min(rule.maxDurationSeconds ?? Infinity, share ?? Infinity);
    if (!Number.isFinite(each)) return null;
    durations[field] = rule.list ? Array.from({ length: items }, () => each) : each;
  }
  return durations;
}

/** The standard price of sending `body` to `op`; 0 for routes the description does not price. */
export function priceOf(
  contract: Contract,
  op: ContractOperation,
  body: Record<string, unknown>,
  /** Durations in seconds by media field, and the facts a price reads that the body does not hold. */
  media?: Record<string, number | number[] | string>,
): Price {
  const tables = contract.model.priceTables;
  const table = tables[op.path];
  if (!table || table.method !== op.method) return { credits: 0, atMost: false };
  try {
    const exact = quoteRoute(tables, op.path, body, media);
    if (exact.credits !== null) return { credits: exact.credits, atMost: false, breakdown: exact.breakdown };
    const bounds = media ? null : longest(table.media, body);
    const bound = bounds ? quoteRoute(tables, op.path, body, bounds) : exact;
    return bound.credits === null
      ? { credits: null, atMost: false, reason: bound.reason ?? "" }
      : { credits: bound.credits, atMost: true };
  } catch (error) {
    return { credits: null, atMost: false, reason: (error as Error).message };
  }
}

/** A priced request a check will send, for the estimate. */
export interface PlannedSpend {
  /** The key's name (`main`, `free plan`, ...): each is its own account. */
  key: string;
  /** `POST /v1/images/i-a "text-to-image"` */
  what: string;
  price: Price;
  /** It spends only what the account holds beyond the rest of the run's spending with the key (the sequences): it never runs the account dry. */
  fitsBalance?: true;
}

export interface SpendTotal {
  /** Sum of the known prices (upper bounds included). */
  credits: number;
  /** Some of `credits` is an upper bound. */
  atMost: boolean;
  requests: number;
  /** Requests with no shown price, named. */
  unpriced: string[];
}

export function total(spends: readonly PlannedSpend[]): SpendTotal {
  const priced = spends.filter((spend) => spend.price.credits !== null);
  return {
    credits: priced.reduce((sum, spend) => sum + (spend.price.credits ?? 0), 0),
    atMost: priced.some((spend) => spend.price.atMost),
    requests: spends.length,
    unpriced: spends
      .filter((spend) => spend.price.credits === null)
      .map((spend) => `${spend.what} (${spend.price.reason})`),
  };
}

const credits = (figure: SpendTotal): string =>
  `${figure.atMost ? "at most " : ""}${figure.credits.toLocaleString("en")} credits`;

/** The estimate as lines for the console: per key, and the requests with no shown price. */
export function describeEstimate(spends: readonly PlannedSpend[]): string[] {
  const lines = ["cost at the description's standard prices (plan discounts and promotions not applied):"];
  for (const key of [...new Set(spends.map((spend) => spend.key))]) {
    const figure = total(spends.filter((spend) => spend.key === key));
    lines.push(
      `  ${key} key: ${figure.requests} priced request${figure.requests === 1 ? "" : "s"}, ${credits(figure)}`,
    );
  }
  const unpriced = total(spends).unpriced;
  if (unpriced.length)
    lines.push(
      `  no price shown for ${unpriced.length} of them, not counted:`,
      ...unpriced.map((what) => `    ${what}`),
    );
  if (spends.length === 0) lines.push("  nothing priced is sent");
  return lines;
}

/** The credits spent while the run goes: jobs seen to succeed and priced requests answered 2xx. */
export class Spend {
  readonly spent: PlannedSpend[] = [];

  constructor(private readonly contract: Contract) {}

  /** A job of `key` started by `created`, an answer of `create`, was seen in the `terminal` status. */
  jobEnded(key: string, create: ContractOperation, created: Exchange, terminal: string): void {
    if (terminal !== this.contract.model.jobStatus.success) return;
    // A create response that states the job's credits names the charge better than a bound.
    const stated = (created.json as Record<string, unknown> | undefined)?.[this.contract.model.account.priceField];
    if (typeof stated === "number")
      this.spent.push({ key, what: create.route, price: { credits: stated, atMost: false } });
    else this.record(key, create, created);
  }

  /** A priced request that is charged per request (a stock search), answered 2xx. */
  answered(key: string, op: ContractOperation, exchange: Exchange): void {
    if (!accepted(exchange) || this.contract.model.priceTables[op.path]?.pricing?.charged !== "per-request") return;
    this.record(key, op, exchange);
  }

  private record(key: string, op: ContractOperation, exchange: Exchange): void {
    this.spent.push({ key, what: op.route, price: priceOf(this.contract, op, quotedBody(exchange.request)) });
  }
}

/** What a check group plans to spend, for the balance preflight. */
export interface GroupSpend {
  readonly group: string;
  readonly spends: readonly PlannedSpend[];
}

/** A key whose account's balance is below what the run could spend with it, and what would make it do. */
export interface Shortfall {
  /** The key's name (`main`, `free plan`, ...). */
  readonly key: string;
  readonly balance: number;
  /** What the run could spend with the key. */
  readonly need: SpendTotal;
  /** Credits to add to the account. */
  readonly add: number;
  /** Groups whose skipping brings the spend within the balance, most spending first, with what each spends with the key. */
  readonly skip: ReadonlyArray<{ readonly group: string; readonly credits: number }>;
}

/**
 * The keys whose balance cannot pay for what the run could spend with them: each with the credits
 * to add, or the groups to skip (the fewest, most spending first, that bring it within the balance).
 * Keys whose balance is unknown are not judged. Groups are tried most spending first until one alone
 * closes the gap; of those that would, the least spending is named.
 */
export function shortfalls(groups: readonly GroupSpend[], balances: ReadonlyMap<string, number>): Shortfall[] {
  const found: Shortfall[] = [];
  for (const [key, balance] of balances) {
    const need = total(
      groups.flatMap((group) => group.spends.filter((spend) => spend.key === key && !spend.fitsBalance)),
    );
    if (need.credits <= balance) continue;
    const byGroup = groups
      .map((group) => ({
        group: group.group,
        credits: total(group.spends.filter((spend) => spend.key === key && !spend.fitsBalance)).credits,
      }))
      .filter((group) => group.credits > 0)
      .sort((a, b) => b.credits - a.credits);
    // The fewest groups: the most spending first, until one alone closes the gap, then the least spending that does.
    const skip: Array<{ group: string; credits: number }> = [];
    let left = need.credits;
    const rest = [...byGroup];
    while (left > balance && rest.length > 0) {
      const closing = rest.filter((group) => left - group.credits <= balance).at(-1);
      const next = closing ?? rest[0]!;
      skip.push(next);
      rest.splice(rest.indexOf(next), 1);
      left -= next.credits;
    }
    found.push({ key, balance, need, add: need.credits - balance, skip });
  }
  return found;
}

/** One line per shortfall, for the refusal to start. */
export function describeShortfall(shortfall: Shortfall): string {
  const { key, balance, need, add, skip } = shortfall;
  const groups = skip.map((group) => `${group.group} (${group.credits.toLocaleString("en")})`).join(", ");
  return `the ${key} key's account holds ${balance.toLocaleString("en")} credits and the run could spend ${credits(need)} with it: add ${add.toLocaleString("en")} credits to it, or skip ${groups} (skipGroups, CONFORMANCE_SKIP)`;
}
