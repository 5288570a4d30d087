/**
 * One conformance run against one target: the description, the declaration, the keys the suite
 * sends with, the results, the run's time limit and the observers every response goes through.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Client, type ClientRun, type Observed } from "./client.ts";
import { DECLARED_KEYS, declaredKeys, type TargetConfig } from "./config.ts";
import type { Contract, ContractOperation, NamedExample } from "../contract/contract.ts";
import { Semaphore } from "./coordination.ts";
import { priceOf, quotedBody, Spend } from "./cost.ts";
import { curl, type RequestSpec, type Transport } from "./http.ts";
import type { StillRunning } from "./jobs.ts";
import { Results } from "./results.ts";
import { escapeForTerminal, redactor } from "./shown-text.ts";

/** Polling interval where neither the declaration nor the description gives one. */
const DEFAULT_POLL_MS = 5_000;

/** A wait (Retry-After, a window's reset) that would end after the run's time limit. */
export class WaitPastDeadline extends Error {}

export interface SessionOptions {
  contract: Contract;
  config: TargetConfig;
  transport: Transport;
  /** The main key; its account runs the jobs. */
  apiKey: string;
  /** Whether Prism's validation proxy sits in front of the target. */
  proxied: boolean;
  /** Aborts every request and wait when the run is interrupted or out of time. */
  signal: AbortSignal;
  /** When the run's time is up (milliseconds since the epoch). */
  deadline: number;
  /** Jobs an earlier run on this target left running, as its report gave them. */
  earlierJobs?: StillRunning;
  /** When an earlier run on this target used the freePool key's pool (milliseconds since the epoch), as its report gave it. */
  earlierFreePoolUse?: number;
  /** Every response of the run goes to it (the checks' observers). */
  observe(seen: Observed): void;
  progress(line: string): void;
  /** Takes every key and credential the run holds out of a text it prints or writes; none: the keys of `transport`. */
  redact?: (text: string) => string;
}

export class Session implements ClientRun {
  readonly results: Results;
  readonly contract: Contract;
  readonly config: TargetConfig;
  readonly transport: Transport;
  readonly proxied: boolean;
  readonly signal: AbortSignal;
  readonly deadline: number;
  readonly requests: Semaphore;
  readonly spend: Spend;
  readonly main: Client;
  /**
   * The client refused negatives go through (request-validation and the generated near misses, about
   * half of a run's requests): the planDiscounts key's where declared, so that they spend that key's
   * rate-limit window rather than the main key's; else the main key's. Its account is on a paid
   * plan (its creates are discounted), and the suite already measures its charges (plan-prices):
   * a negative runs as one of them, never beside a measurement.
   */
  readonly negatives: Client;
  readonly progress: (line: string) => void;
  readonly earlierJobs: StillRunning | undefined;
  readonly earlierFreePoolUse: number | undefined;
  /** When this run started using the freePool key's pool: the next run's report reader skips the pool until a day has passed. */
  freePoolUsedAt: number | undefined;
  /** Nothing is sent with any key before then (a rate-limited 429 that spent a window). */
  blockedUntil = 0;

  private readonly clients = new Map<string, Client>();
  private readonly observer: (seen: Observed) => void;

  constructor(options: SessionOptions) {
    const redact = options.redact ?? redactor(Object.values(options.transport.secrets));
    this.results = new Results((text) => escapeForTerminal(redact(text)), redact);
    this.contract = options.contract;
    this.config = options.config;
    this.transport = options.transport;
    this.proxied = options.proxied;
    this.signal = options.signal;
    this.deadline = options.deadline;
    this.progress = options.progress;
    this.earlierJobs = options.earlierJobs;
    this.earlierFreePoolUse = options.earlierFreePoolUse;
    this.requests = new Semaphore(options.config.parallelRequests);
    this.spend = new Spend(options.contract);
    this.observer = options.observe;
    this.main = new Client(this, "main", options.apiKey, this.concurrency);
    this.clients.set(options.apiKey, this.main);
    const discounted = options.config.planDiscounts?.apiKey;
    this.negatives = discounted ? this.client(discounted) : this.main;
  }

  /**
   * The most jobs the suite has in flight on the main account: the declared cap, else the
   * description's Ultra cap (which is not the account's cap: that is unknown, see concurrency.ts).
   */
  get concurrency(): number {
    return this.config.concurrency ?? this.contract.model.limits.concurrency.maxOnUltra;
  }

  /** The client of another key the declaration gives (one account each); its jobs run one at a time. */
  client(apiKey: string): Client {
    let client = this.clients.get(apiKey);
    if (!client) this.clients.set(apiKey, (client = new Client(this, this.keyName(apiKey), apiKey, 1)));
    return client;
  }

  /** How reports name a key: by the declaration fields that give it. */
  private keyName(apiKey: string): string {
    const roles = DECLARED_KEYS.flatMap((key) => declaredKeys(key, this.config))
      .filter((key) => key.value === apiKey)
      .map((key) => key.name);
    return roles.join(" and ") || "other";
  }

  /** The operations the target declares it implements (areas and models). */
  selected(): ContractOperation[] {
    return this.contract.operations.filter((op) => this.implements(op));
  }

  /** The unpriced GETs without required parameters the target implements: what a burst of requests may spend a window on at no cost. */
  unpricedGets(): ContractOperation[] {
    return this.selected().filter(
      (op) =>
        op.method === "get" &&
        op.parameters.every((parameter) => !parameter.required) &&
        !this.contract.model.priceTables[op.path],
    );
  }

  implements(op: ContractOperation): boolean {
    const { areas, models } = this.config;
    if (areas && !areas.includes(op.area)) return false;
    return !(models && op.create && !models.includes(op.create.label));
  }

  runs(group: string): boolean {
    return !this.config.skipGroups.includes(group);
  }

  curl(request: RequestSpec): string {
    return curl(this.transport, request);
  }

  /**
   * The named examples a create route is tried with: every one, or (createExamples "one") the
   * cheapest at the standard price, since each is a real job.
   */
  createExamples(op: ContractOperation): NamedExample[] {
    const examples = op.requestExamples;
    if (this.config.createExamples === "all" || examples.length === 0) return examples;
    const credits = (example: NamedExample): number =>
      priceOf(this.contract, op, quotedBody({ path: op.path, body: example.value })).credits ?? Infinity;
    return [examples.reduce((best, next) => (credits(next) < credits(best) ? next : best))];
  }

  /**
   * How often a job of this poll route is polled: declared, else the area's cadence, else 5 s. A
   * job expected to outlast poll.timeoutSeconds is polled no faster than the cadence: it is only
   * watched while the others run.
   */
  pollIntervalMs(poll: ContractOperation, outlasting = false): number {
    const cadence = poll.polls?.poll.intervalSeconds ? poll.polls.poll.intervalSeconds.min * 1000 : null;
    const declared = this.config.poll.intervalMs;
    if (outlasting && cadence !== null) return Math.max(declared ?? 0, cadence);
    return declared ?? cadence ?? DEFAULT_POLL_MS;
  }

  sleep(ms: number): Promise<void> {
    return sleep(ms, undefined, { signal: this.signal });
  }

  /** Sleeps until `time`; throws WaitPastDeadline rather than sleep past the run's time limit. */
  async waitUntil(time: number, why: string): Promise<void> {
    if (time > this.deadline) {
      throw new WaitPastDeadline(
        `waiting ${Math.ceil((time - Date.now()) / 1000)} s for ${why} would pass the run's time limit`,
      );
    }
    await this.sleep(time - Date.now());
  }

  /** Requests sent per key, for the summary. */
  requestsSent(): Record<string, number> {
    return Object.fromEntries([...this.clients.values()].map((client) => [client.name, client.sent]));
  }

  observe(seen: Observed): void {
    this.spend.answered(seen.client.name, seen.op, seen.exchange);
    this.observer(seen);
  }
}
