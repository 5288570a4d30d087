/**
 * One run of the sequence phase (`Phase`, what fast-check calls the real system) and one sequence
 * in it (`Sequence`, its model): every step is sent with its party's key, its answer judged by the
 * oracle against the service model, and logged; a step whose answer the model does not allow ends
 * the sequence with a SequenceFailure, which fast-check then shrinks. Each sequence starts from a
 * settled account (its jobs ended, its balance read) and ends by polling its jobs to their end.
 */
import type { ContractOperation } from "../../contract/contract.ts";
import type { Client } from "../client.ts";
import type { Exchange, RequestSpec } from "../http.ts";
import { requestPath } from "../../contract/contract.ts";
import type { Session } from "../session.ts";
import { Coverage } from "./coverage.ts";
import { Oracle, type Verdict } from "./oracle.ts";
import type { Parties, Party } from "./parties.ts";
import { observedRules, type Condition, type StepKind } from "./steps.ts";

/** One job may be charged at most this share of the phase's allowance. */
const JOBS_PER_ALLOWANCE = 10;

/** Jobs a sequence keeps in flight at most where the cap is not declared (or larger). */
const OPEN_JOBS = 20;

/** A job a sequence started, as the target gave and showed it. */
export interface TrackedJob {
  /** The target's id. */
  readonly id: string;
  readonly create: ContractOperation;
  readonly poll: ContractOperation;
  readonly party: Party;
  /** The outcome its create asked for (`none`: no marker). */
  readonly asked: string;
  /** The terminal status it was seen in, or null. */
  terminal: string | null;
  /** When it was first seen terminal. */
  endedAt: number | null;
  /** It outlasts a sequence (3D): watched, never waited for. */
  readonly outlasting: boolean;
  /** Credits its create holds until it ends (a held price's `credits`), else 0. */
  readonly held: number;
  /** Credits its success charges, as the model priced its body (0 where no state followed it). */
  readonly price: number;
}

/** A step as it went: what was sent, what came back, and the oracle's verdict. */
export interface LoggedStep {
  readonly number: number;
  readonly kind: StepKind;
  readonly party: Party;
  readonly op: ContractOperation;
  readonly spec: RequestSpec;
  readonly exchange: Exchange;
  readonly verdict: Verdict;
  readonly conditions: readonly Condition[];
  /** The rules the answer observed (those it broke, when the verdict has problems). */
  readonly rules: readonly string[];
}

/** A step whose answer the specification does not allow: the sequence stops there. */
export class SequenceFailure extends Error {
  constructor(
    readonly step: LoggedStep,
    readonly log: readonly LoggedStep[],
    /** The command each step was sent in, by step number. */
    readonly commandOf: readonly number[],
    /** The sequence's number in the run. */
    readonly sequence: number,
  ) {
    super(`step ${step.number}: ${step.verdict.problems.join("; ")}`);
  }
}

/** What a step is before it is sent. */
export interface StepInput {
  readonly kind: StepKind;
  readonly party: Party;
  readonly op: ContractOperation;
  readonly spec: RequestSpec;
  readonly jobId?: string;
  /** The body as the model reads it, where the target's shape is its own (a quote's). */
  readonly modelBody?: unknown;
  /** A create: the outcome it asked for, and the price it is charged if none (for a repeat). */
  readonly asked?: string;
  readonly price?: number;
  readonly conditions: readonly Condition[];
}

/** Everything the phase keeps over the run: the parties and their clients, the jobs that ended, coverage, the credits it may still spend. */
export class Phase {
  readonly clients = new Map<string, Client>();
  /** Jobs seen ended in earlier sequences: polled again later. */
  readonly ended: TrackedJob[] = [];
  /** Jobs of earlier sequences still running (outlasting, or given up): never waited for again. */
  readonly left: TrackedJob[] = [];
  /** Failures met, each with its whole log (shrinking may meet several). */
  readonly failures: SequenceFailure[] = [];
  sequencesRun = 0;
  steps = 0;
  /** When each accepted upload of an account was answered: the phase keeps to a share of its window. */
  readonly uploads = new Map<string, number[]>();
  /** The kinds of step whose answers were judged. */
  readonly judgedKinds = new Set<StepKind>();
  /** Creates the phase chose not to send, by model label, each with why (the reports name them). */
  readonly skipped = new Map<string, Set<string>>();

  notSent(model: string, why: string): void {
    let reasons = this.skipped.get(model);
    if (!reasons) this.skipped.set(model, (reasons = new Set()));
    reasons.add(why);
  }

  /** The most one job may be charged: a share of the allowance, so that one expensive body does not spend it all. */
  get creditsPerJob(): number {
    return Math.ceil(this.allowance.most / JOBS_PER_ALLOWANCE);
  }

  /** Credits the phase's jobs may still be charged: its allowance, within what the home account held beyond the rest of the run (read by the first sequence). */
  credits = 0;
  private balanceRead = false;

  /** Jobs a sequence has in flight at most: one more than the home account's cap, where declared, so that the cap is reached. */
  readonly openJobs: number;

  /** What the phase observed, of what it can (set once the phase knows its steps: domain.ts). */
  coverage = new Coverage(new Map());

  constructor(
    readonly session: Session,
    readonly parties: Parties,
    /** The account the phase owns: its state is modelled whole. */
    readonly home: string,
    /** The most the phase's jobs may be charged, and what the rest of the run may spend with the home key. */
    private readonly allowance: { readonly most: number; readonly besides: number },
  ) {
    for (const party of parties.all)
      this.clients.set(party.key, party.account === "main" && !party.second ? session.main : session.client(party.key));
    const cap = home === "main" ? session.config.concurrency : session.config.otherAccount?.concurrency;
    this.openJobs = Math.min((cap ?? OPEN_JOBS) + 1, OPEN_JOBS + 1);
  }

  /** The jobs earlier sequences left running, polled once by their creators: those that ended join the ended ones. */
  private async lookAtLeft(): Promise<void> {
    const { terminal } = this.session.contract.model.jobStatus;
    for (const job of [...this.left]) {
      const client = this.client(job.party);
      const path = requestPath(this.session.contract, job.poll, { id: job.id });
      const exchange = await client.send(job.poll, { method: "get", path, headers: client.authorized() });
      const status = String((exchange.json as { status?: unknown } | undefined)?.status);
      if (exchange.status !== 200 || !terminal.includes(status)) continue;
      job.terminal = status;
      job.endedAt = exchange.receivedAt;
      this.left.splice(this.left.indexOf(job), 1);
      this.ended.push(job);
    }
  }

  /** Whether the phase may upload with `account` without nearing its window (a Retry-After would stop the key). */
  mayUpload(account: string): boolean {
    const { perAccount, windowSeconds } = this.session.contract.model.limits.uploads;
    const since = Date.now() - windowSeconds * 1000;
    return (this.uploads.get(account) ?? []).filter((at) => at > since).length < perAccount / 2;
  }

  client(party: Party): Client {
    return this.clients.get(party.key)!;
  }

  /** The parties acting for `account`. */
  of(account: string): Party[] {
    return this.parties.all.filter((party) => party.account === account);
  }

  /** A new sequence: the jobs earlier ones left running looked at, its account's balance read, an oracle starting there. */
  async begin(number: number): Promise<Sequence> {
    const { session } = this;
    await this.lookAtLeft();
    const credits = session.contract.operations.find(
      (op) => op.facts.operationId === session.contract.model.account.creditsOperationId,
    );
    const balances = new Map<string, number | null>();
    const home = this.of(this.home)[0]!;
    if (credits && session.config.stateful) {
      const exchange = await this.client(home).send(credits, {
        method: "get",
        path: credits.path,
        headers: this.client(home).authorized(),
      });
      const total = (exchange.json as Record<string, unknown> | undefined)?.[
        session.contract.model.account.availableField
      ];
      balances.set(this.home, exchange.status === 200 && Number.isInteger(total) ? (total as number) : null);
    }
    if (!this.balanceRead) {
      this.balanceRead = true;
      const held = balances.get(this.home);
      const beyond = held === null || held === undefined ? this.allowance.most : held - this.allowance.besides;
      this.credits = Math.max(0, Math.min(this.allowance.most, beyond));
    }
    const { failure, success } = session.contract.model.jobStatus;
    const oracle = new Oracle(session.contract, session.config, this.parties, {
      balances,
      at: Date.now(),
      carried: this.left.map((job) => ({
        targetId: job.id,
        create: job.create,
        party: job.party,
        asked: job.asked === "none" ? null : failure.includes(job.asked) || job.asked === success ? job.asked : null,
        held: job.held,
        price: job.price,
      })),
      ...(session.earlierJobs ? { earlierJobsUntil: session.earlierJobs.until } : {}),
    });
    for (const job of this.ended) oracle.remember(job.id, job.create, job.party, job.terminal!, job.endedAt!);
    this.sequencesRun++;
    return new Sequence(this, number, oracle);
  }
}

/** One sequence: its oracle, its jobs, its log. */
export class Sequence {
  readonly jobs: TrackedJob[] = [];
  readonly log: LoggedStep[] = [];
  /** The last step sent, for a repeat. */
  last: StepInput | undefined;
  /** The index of the command running, in the list the sequence runs. */
  command = 0;
  /** The command during which each step was sent, by step number. */
  readonly commandOf: number[] = [];

  constructor(
    readonly phase: Phase,
    readonly number: number,
    readonly oracle: Oracle,
  ) {}

  /** Sends the step, judges its answer, logs it; throws SequenceFailure on an answer the model does not allow. */
  async step(input: StepInput): Promise<{ exchange: Exchange; verdict: Verdict }> {
    const { phase } = this;
    const exchange = await phase.client(input.party).send(input.op, input.spec, { positive: true });
    const verdict = this.oracle.judge(
      {
        op: input.op,
        party: input.party,
        spec: input.spec,
        ...(input.jobId !== undefined ? { jobId: input.jobId } : {}),
        ...(input.modelBody !== undefined ? { modelBody: input.modelBody } : {}),
      },
      exchange,
    );
    const decided = verdict.takenAs;
    const logged: LoggedStep = {
      number: this.log.length + 1,
      kind: input.kind,
      party: input.party,
      op: input.op,
      spec: input.spec,
      exchange,
      verdict,
      conditions: input.conditions,
      // A leniency (an answer the model never gives, that the specification allows) observes no rule.
      rules: decided ? observedRules(input.kind, input.op, decided) : [],
    };
    this.log.push(logged);
    this.commandOf.push(this.command);
    this.last = input;
    phase.steps++;
    if (verdict.problems.length) {
      // The failing step breaks the rules of the answers that were due.
      const broken = {
        ...logged,
        rules: [...new Set(verdict.due.flatMap((due) => observedRules(input.kind, input.op, due)))],
      };
      this.log[this.log.length - 1] = broken;
      const failure = new SequenceFailure(broken, [...this.log], [...this.commandOf], this.number);
      phase.failures.push(failure);
      throw failure;
    }
    phase.judgedKinds.add(input.kind);
    if (input.kind === "upload" && exchange.status === 200)
      phase.uploads.set(input.party.account, [...(phase.uploads.get(input.party.account) ?? []), exchange.receivedAt]);
    phase.coverage.observed(logged.rules, input.conditions);
    return { exchange, verdict };
  }

  /** The spec of a poll of `job`'s id. */
  pollSpec(job: TrackedJob, party: Party): RequestSpec {
    const { contract } = this.phase.session;
    return {
      method: "get",
      path: requestPath(contract, job.poll, { id: job.id }),
      headers: this.phase.client(party).authorized(),
    };
  }
}
