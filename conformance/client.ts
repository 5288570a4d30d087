/**
 * The suite's requests on behalf of one API key. It keeps within the target's rate limit as the
 * `X-RateLimit-*` headers report it, honours `Retry-After` itself (nothing is sent with that key
 * before the wait is over; everything waits after a rate-limited 429 that spent the window, which
 * may be the per-IP one) and resends a request the rate limiter refused, after the wait. Every
 * response goes through the session's observers.
 */
import type { TargetConfig } from "./config.ts";
import { Charges, Slots, type Semaphore } from "./coordination.ts";
import type { Contract, ContractOperation } from "../contract/contract.ts";
import type { Spend } from "./cost.ts";
import { AnswerBoundError, bearer, send, type Exchange, type RequestSpec, type Transport } from "./http.ts";
import { conditionsOf } from "../contract/retry-after.ts";

/**
 * What a client and the jobs it follows need of their run (the session, session.ts, gives it): said
 * here so that the clients, the jobs and the session read top-down.
 */
export interface ClientRun {
  readonly contract: Contract;
  readonly config: TargetConfig;
  readonly transport: Transport;
  readonly requests: Semaphore;
  readonly signal: AbortSignal;
  readonly spend: Spend;
  /** Nothing is sent with any key before then (a rate-limited 429 that spent a window). */
  blockedUntil: number;
  waitUntil(time: number, why: string): Promise<void>;
  sleep(ms: number): Promise<void>;
  pollIntervalMs(poll: ContractOperation, outlasting?: boolean): number;
  observe(seen: Observed): void;
}

/** One response of the run, as observers see it. */
export interface Observed {
  readonly client: Client;
  readonly op: ContractOperation;
  readonly exchange: Exchange;
  readonly options: SendOptions;
}

/** A job the client follows (jobs.ts): what is needed to poll it. */
export interface FollowedJob {
  readonly poll: ContractOperation;
  readonly pollSpec: RequestSpec;
}

export interface SendOptions {
  /** The description holds the request valid: it may go through Prism's validation proxy. */
  positive?: boolean;
  /** The rate limiter's 429 is what the caller provokes: it is returned as it is, not waited out and resent. */
  expectTooMany?: boolean;
  /**
   * Sent however few requests the window has left, and whatever another key's rate-limited 429 made
   * the run wait for (the bursts, which provoke the refusals that wait is for).
   */
  unpaced?: boolean;
  /** A create sent with a slot held: the suite's other jobs in flight on this key then. */
  jobsInFlight?: number;
}

/** Requests a client keeps in hand below the window's remaining count, for requests already on their way. */
const RESERVE = 1;
/** A rate-limited request is sent again at most this many times. */
const RESENDS = 2;

export class Client {
  readonly slots: Slots;
  readonly charges = new Charges();
  /** The suite's jobs on this key not yet seen in a terminal status. */
  readonly jobs = new Set<FollowedJob>();
  /** Every job a create of this key started: when, and whether it was seen in a terminal status. */
  readonly launched: Array<{ readonly op: ContractOperation; readonly at: number; over(): boolean }> = [];
  /** Jobs the suite stopped following without a terminal status: the target may still count them. */
  unsure = 0;
  /** Nothing is sent with this key before then (Retry-After). */
  blockedUntil = 0;
  /** Requests sent with this client. */
  sent = 0;
  private window: { remaining: number; resetAt: number } | null = null;
  private pending = 0;

  constructor(
    readonly session: ClientRun,
    /** How reports name the key (`main`, `free plan`, ...). */
    readonly name: string,
    readonly apiKey: string,
    concurrency: number,
  ) {
    this.slots = new Slots(concurrency);
  }

  authorized(): Record<string, string> {
    return bearer(this.apiKey);
  }

  async send(op: ContractOperation, spec: RequestSpec, options: SendOptions = {}): Promise<Exchange> {
    for (let resends = 0; ; resends++) {
      const exchange = await this.sendOnce(op, spec, options);
      const rateLimited =
        exchange.status === 429 && conditionsOf(this.session.contract, exchange.json).has("rate-limited");
      if (!rateLimited || options.expectTooMany || spec.headers.prefer !== undefined || resends === RESENDS)
        return exchange;
    }
  }

  private async sendOnce(op: ContractOperation, spec: RequestSpec, options: SendOptions): Promise<Exchange> {
    await this.ready(options);
    this.pending++;
    this.sent++;
    let exchange: Exchange;
    try {
      const { maxAnswerBytes, requestTimeoutSeconds } = this.session.config;
      const limits = { maxBytes: maxAnswerBytes, timeoutMs: requestTimeoutSeconds * 1000 };
      exchange = await this.session.requests.use(() =>
        send(
          options.positive ? this.session.transport.sendUrl : this.session.transport.targetUrl,
          spec,
          this.session.signal,
          limits,
        ),
      );
    } catch (error) {
      // A stopped run's abort is not the target's doing.
      if (this.session.signal.aborted) throw error;
      throw new NoAnswer(op.route, spec, error as NodeJS.ErrnoException);
    } finally {
      this.pending--;
    }
    this.record(exchange);
    this.session.observe({ client: this, op, exchange, options });
    return exchange;
  }

  /** Waits out Retry-After, and the window's reset when it has no request to spare. */
  private async ready(options: SendOptions): Promise<void> {
    for (;;) {
      const now = Date.now();
      const blocked = Math.max(this.blockedUntil, options.unpaced ? 0 : this.session.blockedUntil);
      if (blocked > now) {
        await this.session.waitUntil(blocked, `Retry-After of a 429 to the ${this.name} key`);
        continue;
      }
      const window = this.window;
      if (!options.unpaced && window && now < window.resetAt && window.remaining - this.pending <= RESERVE) {
        await this.session.waitUntil(window.resetAt + 100, `the reset of the ${this.name} key's rate-limit window`);
        this.window = null;
        continue;
      }
      return;
    }
  }

  private record(exchange: Exchange): void {
    const names = this.session.contract.model.rateLimitHeaders;
    const remaining = numericHeader(exchange, names.remaining);
    const reset = numericHeader(exchange, names.reset);
    if (remaining !== null && reset !== null) {
      const resetAt = exchange.receivedAt + reset * 1000;
      // Answers arrive out of order: within one window the lowest count is the truest.
      const sameWindow =
        this.window !== null && exchange.receivedAt < this.window.resetAt && resetAt < this.window.resetAt + 1500;
      this.window = sameWindow
        ? { remaining: Math.min(remaining, this.window!.remaining), resetAt: this.window!.resetAt }
        : { remaining, resetAt };
    }
    // A 429 chosen with Prism's Prefer header is the mock's example, not the state of its limits.
    const selected = exchange.request.headers.prefer !== undefined;
    const retryAfter =
      exchange.status === 429 && !selected
        ? numericHeader(exchange, this.session.contract.model.retryAfterHeader)
        : null;
    if (retryAfter === null) return;
    const until = exchange.receivedAt + retryAfter * 1000;
    this.blockedUntil = Math.max(this.blockedUntil, until);
    // A spent window may be the per-IP one, which every key shares.
    if (remaining === 0 && conditionsOf(this.session.contract, exchange.json).has("rate-limited")) {
      this.session.blockedUntil = Math.max(this.session.blockedUntil, until);
    }
  }
}

/**
 * A request the target gave no usable HTTP answer to (the connection was reset or refused, the
 * answer passed its size or time bound): the check sending it fails, naming the route.
 */
export class NoAnswer extends Error {
  constructor(
    readonly route: string,
    readonly request: RequestSpec,
    cause: NodeJS.ErrnoException,
  ) {
    super(
      cause instanceof AnswerBoundError
        ? `${route}: ${cause.message}`
        : `${route} got no HTTP answer: ${cause.code ? `${cause.code}, ` : ""}${cause.message}`,
    );
  }
}

export function numericHeader(exchange: Exchange, name: string): number | null {
  const value = exchange.headers.get(name);
  return value !== null && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : null;
}
