/**
 * Creates and the jobs they start. Every create request of the suite goes through `createJob`, so
 * the suite never has more of its jobs in flight on an account than the declared cap: a create
 * that should start a job waits for a free slot and holds it until the job is seen in a terminal
 * status; a job the target should not have started (an invalid body it accepted) is followed all
 * the same, so that its slot is freed when it ends. Polls use only ids that create responses gave.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Slot } from "./coordination.ts";
import type { Client, SendOptions } from "./client.ts";
import type { TargetConfig } from "./config.ts";
import { requestPath, type ContractOperation } from "../contract/contract.ts";
import { accepted, type Exchange, type RequestSpec } from "./http.ts";
import { conditionsOf } from "../contract/retry-after.ts";

export interface Created {
  readonly exchange: Exchange;
  /** The job, when the target accepted and its create response names an id to poll. */
  readonly job?: Job;
  /** Why an accepted job is not followed. */
  readonly unfollowed?: string;
}

/** How many times a create refused as queue full is sent again when only jobs the suite lost track of may fill the queue. */
const UNSURE_RETRIES = 3;

const queueFull = (client: Client, exchange: Exchange): boolean =>
  exchange.status === 429 && conditionsOf(client.session.contract, exchange.json).has("queue-full");

/**
 * Sends a create. `expected` says whether the description holds it valid: such a create is sent
 * with a slot held, and on a queue-full 429 it waits for one of the suite's own jobs to end and is
 * sent again (a fixed wait is the wrong response); an invalid one is sent at once, and waits for a
 * slot only when the target answers queue full before it judges the body.
 */
/**
 * Sends a create while holding `slot` (none: nothing held). A create that gets no answer (NoAnswer)
 * gives the slot back: otherwise the cap would fill with jobs that never started.
 */
export function sendHolding(
  client: Client,
  op: ContractOperation,
  spec: RequestSpec,
  slot: Slot | undefined,
  options: SendOptions,
): Promise<Exchange> {
  return client.send(op, spec, options).catch((error: unknown) => {
    slot?.release();
    throw error;
  });
}

export async function createJob(
  client: Client,
  op: ContractOperation,
  spec: RequestSpec,
  expected: "accept" | "reject",
  giveUp?: GiveUp,
): Promise<Created> {
  let slot: Slot | undefined = expected === "accept" ? await client.slots.acquire() : undefined;
  const sendIt = (): Promise<Exchange> =>
    sendHolding(client, op, spec, slot, {
      positive: expected === "accept",
      ...(slot ? { jobsInFlight: client.slots.inFlight - 1 } : {}),
    });
  let exchange = await sendIt();
  if (!slot && queueFull(client, exchange)) {
    slot = await client.slots.acquire();
    exchange = await sendIt();
  }
  // The suite's followed jobs end in time; jobs it lost track of may too, so a few polls' time is given them.
  for (
    let patience = UNSURE_RETRIES;
    slot && queueFull(client, exchange) && (client.jobs.size > 0 || (client.unsure > 0 && patience-- > 0));
  ) {
    await (client.jobs.size > 0
      ? client.slots.released()
      : client.session.sleep(client.session.pollIntervalMs(client.session.contract.pollOf(op) ?? op)));
    exchange = await sendIt();
  }
  if (!accepted(exchange)) {
    slot?.release();
    return { exchange };
  }
  return follow(client, op, exchange, slot ?? client.slots.take(), giveUp);
}

/**
 * Creates a job inside the account's charges; resolves once the job has ended (its stable polls may
 * still run). A job of exact price (`credits`) may run beside the billing check's measurement and
 * tells it what it charged; one of unknown price (null) waits until the measurement is done.
 */
export function chargedCreate(
  client: Client,
  op: ContractOperation,
  spec: RequestSpec,
  credits: number | null,
  giveUp?: GiveUp,
  /** Told once the create is answered, before its job ends. */
  answered?: (created: Created) => void,
): Promise<Created> {
  return client.charges.charge(credits, async (report) => {
    const created = await createJob(client, op, spec, "accept", giveUp);
    answered?.(created);
    const job = created.job;
    if (job && credits !== null)
      report({
        what: `${op.route} (${job.id})`,
        credits,
        charged: () => job.terminal === client.session.contract.model.jobStatus.success,
        op,
        spec,
      });
    await job?.ended;
    return created;
  });
}

/** A charged create (chargedCreate) handed to `then` once its job and its stable polls are done. */
export function chargedJob<T>(
  client: Client,
  op: ContractOperation,
  spec: RequestSpec,
  credits: number | null,
  then: (created: Created) => T | Promise<T>,
  giveUp?: GiveUp,
): Promise<T> {
  return chargedCreate(client, op, spec, credits, giveUp).then(async (created) => {
    await created.job?.done;
    return then(created);
  });
}

/** Follows the job an accepted create started, holding `slot` until it ends. */
export function follow(
  client: Client,
  op: ContractOperation,
  exchange: Exchange,
  slot: Slot,
  giveUp?: GiveUp,
): Created {
  const created = followed(client, op, exchange, slot, giveUp);
  // A stateless target's jobs never end, nor run on: they are not left running.
  if (client.session.config.stateful)
    client.launched.push({ op, at: exchange.receivedAt, over: () => (created.job?.terminal ?? null) !== null });
  return created;
}

/** The create response field holding a job's id: the description's, else the declaration's (jobIdFields), else null. */
export function idFieldOf(config: TargetConfig, op: ContractOperation): string | null {
  if (!op.create) return null;
  return op.create.idField ?? config.jobIdFields?.[op.create.label] ?? null;
}

function followed(client: Client, op: ContractOperation, exchange: Exchange, slot: Slot, giveUp?: GiveUp): Created {
  const poll = client.session.contract.pollOf(op);
  const idField = idFieldOf(client.session.config, op);
  if (!poll || idField === null) {
    // The suite cannot see when this job ends, so its slot stays taken for the rest of the run.
    return {
      exchange,
      unfollowed: `no create response field of ${op.route} names the job's id (the description shows none, and jobIdFields gives none), so ${poll?.route ?? "its poll route"} cannot be called with a real id`,
    };
  }
  const id = (exchange.json as Record<string, unknown> | undefined)?.[idField];
  if (id === undefined || id === null || id === "") {
    slot.release();
    return { exchange, unfollowed: `the create response carries no ${idField}` };
  }
  return { exchange, job: new Job(client, op, poll, String(id), exchange, slot, giveUp) };
}

/** When to stop following a job that may still run: it keeps its slot, since the target may still count it. */
export interface GiveUp {
  readonly when: Promise<unknown>;
  readonly reason: string;
}

/** A job followed by polling its id until a terminal status, then `stablePolls` more. */
export class Job {
  readonly polls: Exchange[] = [];
  readonly pollSpec: RequestSpec;
  /** The first terminal status seen, or null. */
  terminal: string | null = null;
  /** Why polling stopped before a terminal status, or null. */
  stoppedBy: string | null = null;
  /** Resolves after the terminal status and the stable polls, or when polling stops. */
  readonly done: Promise<void>;
  /** Resolves once the job is over for the suite: a terminal status seen, or polling stopped. */
  readonly ended: Promise<void>;
  private readonly stop = new AbortController();
  private readonly interval: number;
  private markEnded!: () => void;

  constructor(
    readonly client: Client,
    readonly create: ContractOperation,
    readonly poll: ContractOperation,
    readonly id: string,
    readonly created: Exchange,
    private readonly slot: Slot,
    giveUp?: GiveUp,
  ) {
    const session = client.session;
    this.pollSpec = {
      method: poll.method,
      path: requestPath(session.contract, poll, { id }),
      headers: client.authorized(),
    };
    client.jobs.add(this);
    void giveUp?.when.then(() => this.stop.abort(giveUp.reason));
    this.ended = new Promise((resolve) => (this.markEnded = resolve));
    this.interval = session.pollIntervalMs(poll, giveUp !== undefined);
    this.done = this.follow().finally(() => this.markEnded());
  }

  /** The `status` of each 200 poll, in order. */
  get statuses(): string[] {
    return this.polls.filter((exchange) => exchange.status === 200).map(statusOf);
  }

  private async follow(): Promise<void> {
    try {
      await this.pollUntilDone();
    } catch (error) {
      // Once the run is stopped the job is left as it is; before, the failure ends the following.
      if (this.client.session.signal.aborted) return;
      this.stoppedBy = `polling failed: ${(error as Error).message}`;
      this.end(true);
    }
  }

  private async pollUntilDone(): Promise<void> {
    const session = this.client.session;
    const { config, contract } = session;
    const give = Date.now() + config.poll.timeoutSeconds * 1000;
    const signal = AbortSignal.any([session.signal, this.stop.signal]);
    let terminalAt = -1;
    for (;;) {
      try {
        // A stateful job is polled after a first interval: no job ends the moment it is created.
        if (this.polls.length > 0 || config.stateful) await sleep(this.interval, undefined, { signal });
      } catch (error) {
        // Given up: one poll at least is still made, below.
        if (session.signal.aborted) throw error;
      }
      if (this.stop.signal.aborted && this.polls.length > 0) {
        // Expected to run on: its slot stays taken for the rest of the run.
        this.stoppedBy = String(this.stop.signal.reason);
        this.client.jobs.delete(this);
        this.markEnded();
        return;
      }
      const exchange = await this.client.send(this.poll, this.pollSpec, { positive: true });
      this.polls.push(exchange);
      if (exchange.status !== 200) {
        this.stoppedBy = `a poll answered ${exchange.status}`;
        this.end(true);
        return;
      }
      const status = statusOf(exchange);
      if (terminalAt < 0 && contract.model.jobStatus.terminal.includes(status)) {
        terminalAt = this.polls.length - 1;
        this.terminal = status;
        session.spend.jobEnded(this.client.name, this.create, this.created, status);
        this.end(false);
      }
      // A stateless target answers every poll alike: one poll is all there is to see.
      if (!config.stateful) this.end(false);
      if (!config.stateful || (terminalAt >= 0 && this.polls.length - 1 - terminalAt >= config.poll.stablePolls))
        return;
      // Past the limit without a terminal status, it is given up after this poll: polled once at
      // least, however late its first poll came (its interval, a stage it was held for), and
      // never held for one more interval.
      if (terminalAt < 0 && Date.now() > give) {
        this.stoppedBy = `no terminal status within ${config.poll.timeoutSeconds} s (poll.timeoutSeconds)`;
        this.end(true);
        return;
      }
    }
  }

  /**
   * The job is over for the suite and its slot free. `unsure`: no terminal status was seen, so the
   * target may still count it in flight.
   */
  private end(unsure: boolean): void {
    if (unsure && this.client.jobs.has(this)) this.client.unsure++;
    this.client.jobs.delete(this);
    this.slot.release();
    this.markEnded();
  }
}

/** The jobs a run started on one key that it never saw end, and the latest they may end by. */
export interface StillRunning {
  readonly jobs: number;
  readonly routes: string[];
  /** Milliseconds since the epoch. */
  readonly until: number;
}

/**
 * The jobs `client` started that were never seen in a terminal status (given up, outlasting
 * poll.timeoutSeconds, unfollowable, or the run stopped), each bounded by the longer of
 * poll.timeoutSeconds and the longest the description says its route's jobs usually take; undefined
 * when there are none.
 */
export function stillRunning(client: Client): StillRunning | undefined {
  const { contract, config } = client.session;
  const open = client.launched.filter((launched) => !launched.over());
  if (open.length === 0) return undefined;
  const longest = (op: ContractOperation): number =>
    Math.max(config.poll.timeoutSeconds, contract.pollOf(op)?.polls?.poll.typicalDurationSeconds?.max ?? 0);
  return {
    jobs: open.length,
    routes: [...new Set(open.map((launched) => launched.op.route))],
    until: Math.max(...open.map((launched) => launched.at + longest(launched.op) * 1000)),
  };
}

export const statusOf = (exchange: Exchange): string =>
  String((exchange.json as { status?: unknown } | undefined)?.status);
