/**
 * Creates and the jobs they start. Every create request of the suite goes through `createJob`, so
 * the suite never has more of its jobs in flight on an account than the declared cap: a create
 * that should start a job waits for a free slot and holds it until the job is seen in a terminal
 * status; a job the target should not have started (an invalid body it accepted) is followed all
 * the same, so that its slot is freed when it ends. Polls use only ids that create responses gave.
 */
import type { Slot } from "./coordination.ts";
import type { Client } from "./client.ts";
import type { ContractOperation } from "./contract.ts";
import type { Exchange, RequestSpec } from "./http.ts";
import { conditionsOf } from "./retry-after.ts";

export interface Created {
  readonly exchange: Exchange;
  /** The job, when the target accepted and its create response names an id to poll. */
  readonly job?: Job;
  /** Why an accepted job is not followed. */
  readonly unfollowed?: string;
}

export const accepted = (exchange: Exchange): boolean => exchange.status >= 200 && exchange.status < 300;

const queueFull = (client: Client, exchange: Exchange): boolean =>
  exchange.status === 429 && conditionsOf(client.session.contract, exchange.json).has("queue-full");

/**
 * Sends a create. `expected` says whether the description holds it valid: such a create is sent
 * with a slot held, and on a queue-full 429 it waits for one of the suite's own jobs to end and is
 * sent again (a fixed wait is the wrong response); an invalid one is sent at once, and waits for a
 * slot only when the target answers queue full before it judges the body.
 */
export async function createJob(client: Client, op: ContractOperation, spec: RequestSpec, expected: "accept" | "reject"): Promise<Created> {
  let slot: Slot | undefined = expected === "accept" ? await client.slots.acquire() : undefined;
  const sendIt = (): Promise<Exchange> =>
    client.send(op, spec, { positive: expected === "accept", ...(slot ? { jobsInFlight: client.slots.inFlight - 1 } : {}) });
  let exchange = await sendIt();
  if (!slot && queueFull(client, exchange)) {
    slot = await client.slots.acquire();
    exchange = await sendIt();
  }
  while (slot && queueFull(client, exchange) && client.slots.inFlight > 1) {
    await client.slots.released();
    exchange = await sendIt();
  }
  if (!accepted(exchange)) {
    slot?.release();
    return { exchange };
  }
  return follow(client, op, exchange, slot ?? client.slots.take());
}

/** Follows the job an accepted create started, holding `slot` until it ends. */
export function follow(client: Client, op: ContractOperation, exchange: Exchange, slot: Slot): Created {
  const poll = client.session.contract.pollOf(op);
  const idField = op.create?.idField ?? null;
  if (!poll || idField === null) {
    // The suite cannot see when this job ends, so its slot stays taken for the rest of the run.
    return { exchange, unfollowed: `no create response field of ${op.route} names the job's id (the description shows none), so ${poll?.route ?? "its poll route"} cannot be called with a real id` };
  }
  const id = (exchange.json as Record<string, unknown> | undefined)?.[idField];
  if (id === undefined || id === null || id === "") {
    slot.release();
    return { exchange, unfollowed: `the create response carries no ${idField}` };
  }
  return { exchange, job: new Job(client, op, poll, String(id), exchange, slot) };
}

/** A job followed by polling its id until a terminal status, then `stablePolls` more. */
export class Job {
  readonly polls: Exchange[] = [];
  readonly pollSpec: RequestSpec;
  /** The first terminal status seen, or null. */
  terminal: string | null = null;
  /** Why polling stopped before a terminal status, or null. */
  stoppedBy: string | null = null;
  /** Resolves when a terminal status is seen or polling stops: the job's slot is free then. */
  readonly settled: Promise<void>;
  /** Resolves after the stable polls. */
  readonly done: Promise<void>;
  private settle!: () => void;

  constructor(
    readonly client: Client,
    readonly create: ContractOperation,
    readonly poll: ContractOperation,
    readonly id: string,
    readonly created: Exchange,
    private readonly slot: Slot,
  ) {
    const session = client.session;
    this.pollSpec = { method: poll.method, path: session.contract.requestPath(poll, { id }), headers: client.authorized() };
    this.settled = new Promise((resolve) => (this.settle = resolve));
    client.jobs.add(this);
    this.done = this.follow().finally(() => this.end());
  }

  /** The `status` of each 200 poll, in order. */
  get statuses(): string[] {
    return this.polls.filter((exchange) => exchange.status === 200).map(statusOf);
  }

  private async follow(): Promise<void> {
    const session = this.client.session;
    const { config, contract } = session;
    const give = Date.now() + config.poll.timeoutSeconds * 1000;
    const interval = session.pollIntervalMs(this.poll);
    let terminalAt = -1;
    for (;;) {
      if (this.polls.length > 0) await session.sleep(interval);
      if (Date.now() > give) {
        this.stoppedBy = `no terminal status within ${config.poll.timeoutSeconds} s (poll.timeoutSeconds)`;
        return;
      }
      const exchange = await this.client.send(this.poll, this.pollSpec, { positive: true });
      this.polls.push(exchange);
      if (exchange.status !== 200) {
        this.stoppedBy = `a poll answered ${exchange.status}`;
        return;
      }
      const status = statusOf(exchange);
      if (terminalAt < 0 && contract.model.jobStatus.terminal.includes(status)) {
        terminalAt = this.polls.length - 1;
        this.terminal = status;
        session.spend.jobEnded(this);
        this.end();
      }
      // A stateless target answers every poll alike: one poll is all there is to see.
      if (!config.stateful || (terminalAt >= 0 && this.polls.length - 1 - terminalAt >= config.poll.stablePolls)) return;
    }
  }

  private end(): void {
    this.client.jobs.delete(this);
    this.slot.release();
    this.settle();
  }
}

export const statusOf = (exchange: Exchange): string => String((exchange.json as { status?: unknown } | undefined)?.status);
