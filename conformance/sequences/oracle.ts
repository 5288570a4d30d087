/**
 * The oracle: after each answer of the target, it asks the service model (behaviour/) which answers
 * the specification allows from every state the target may be in, and fails the step when the
 * target's is none of them. Where the specification leaves a choice, it accepts every allowed answer
 * and follows the one the target took: the states the answer fits go on, the others are dropped.
 */
import { newCall } from "../../behaviour/rules.ts";
import { answered, type Answered } from "../../behaviour/service.ts";
import type { AccountSettings, ServiceSettings } from "../../behaviour/settings.ts";
import { ServiceState } from "../../behaviour/state.ts";
import type { Contract, ContractOperation } from "../../contract/contract.ts";
import { conditionsOf } from "../../contract/retry-after.ts";
import type { Job } from "../../behaviour/jobs.ts";
import type { TargetConfig } from "../config.ts";
import type { Exchange, RequestSpec } from "../http.ts";
import { idFieldOf } from "../jobs.ts";
import { responseProblems } from "../response-check.ts";
import { unstatedAcceptance } from "../unstated.ts";
import { priceOf } from "../cost.ts";
import { describeReply, misfit } from "./fits.ts";
import { mediaSeconds } from "./inputs.ts";
import { OWNERSHIP } from "./steps.ts";
import type { Parties, Party } from "./parties.ts";
import { declaredOutcome, targetChoices } from "./target-choices.ts";
import { distinct, ended, endingLevels, forkWorld, openJobs, type World } from "./worlds.ts";

/** A request of a sequence, as the oracle judges its answer. */
export interface Step {
  readonly op: ContractOperation;
  readonly party: Party;
  readonly spec: RequestSpec;
  /** The target's id of the job a poll asks for. */
  readonly jobId?: string;
  /** The body as the model reads it, where the target takes a shape of its own (a quote's, `costRequest`). */
  readonly modelBody?: unknown;
}

export interface Verdict {
  /** Why the answer is not one the specification allows; empty when it is. */
  readonly problems: readonly string[];
  /** What decided the answers the model allowed: its rules' names, `handler` for an operation's answer. */
  readonly due: readonly string[];
  /** The answers the model allowed, for a failure's report. */
  readonly allowed: readonly string[];
  /** The model's rule whose answer the target's was taken as (null: the operation's handler), or the leniency that allowed it. */
  readonly takenAs?: string;
}

/** A job an earlier sequence left running: the model holds it running, its end open. */
export interface CarriedJob {
  readonly targetId: string;
  readonly create: ContractOperation;
  readonly party: Party;
  /** The outcome its create asked for, or null. */
  readonly asked: string | null;
  /** Credits its create holds until it ends (a held price), else 0; the balance read leaves them out. */
  readonly held: number;
  /** Credits its success charges where not held (the model's price for its body), else 0. */
  readonly price: number;
}

/** What the oracle starts from: each paid account's balance as read (null: unknown), and when the phase began. */
export interface OracleStart {
  readonly balances: ReadonlyMap<string, number | null>;
  readonly at: number;
  /** Jobs of earlier sequences still running. */
  readonly carried?: readonly CarriedJob[];
  /** Until when jobs an earlier run left on the main account may hold its cap. */
  readonly earlierJobsUntil?: number;
}

/** The quote operation, whose request's shape is the target's own (`costRequest`): the model reads its `modelBody`. */
const QUOTE_OPERATION = "quoteCost";

/** Endings tried for one answer, at most, before the oracle calls it one no state explains. */
const TRIED_AT_MOST = 20_000;

export class Oracle {
  private worlds: World[];
  /** Jobs whose create asked for an outcome (a declared marker): they end in it; others in any terminal status. */
  private readonly asked = new Set<string>();
  private readonly declaredCaps: ReadonlySet<string>;

  constructor(
    private readonly contract: Contract,
    private readonly config: TargetConfig,
    parties: Parties,
    private readonly start: OracleStart,
  ) {
    const carried = start.carried ?? [];
    // The balance read leaves out what running jobs hold: the model holds it again, on top of the read.
    const balances = new Map(start.balances);
    for (const job of carried) {
      const read = balances.get(job.party.account);
      if (read !== null && read !== undefined) balances.set(job.party.account, read + job.held);
    }
    const settings = settingsOf(contract, config, parties, balances);
    this.declaredCaps = new Set(
      Object.entries(settings.accounts).flatMap(([name, account]) =>
        Number.isFinite(account.concurrency) ? [name] : [],
      ),
    );
    const paid = parties.all.filter((party) => party.plan === "paid").map((party) => party.account);
    this.worlds = targetChoices(contract.model, config).map((choices) => ({
      state: new ServiceState(contract.model, settings, choices),
      jobs: new Map(),
      unknownCooldown: new Set(paid),
    }));
    for (const job of carried) this.carry(job, start.at);
  }

  /** Holds `job` running in every state, its end open, with what its create holds. */
  private carry(job: CarriedJob, at: number): void {
    for (const world of this.worlds) {
      const { state } = world;
      const route = state.routes.get(job.create.path);
      if (!route) continue;
      const area = state.areas.get(route.areaId)!;
      const account = state.accounts.byName.get(job.party.account)!;
      const id = state.jobs.nextId(area.jobIdPrefix ?? `${area.segment}_`, route.idType === "integer");
      const running = {
        id,
        accountName: job.party.account,
        key: job.party.key,
        route,
        createdAt: at,
        endAt: Number.POSITIVE_INFINITY,
        expireAt: Number.POSITIVE_INFINITY,
        outcome: job.asked ?? this.contract.model.jobStatus.success,
        // Held or not, what it ends charging: a plain job's charge lands after the read that began the sequence.
        credits: job.held > 0 ? job.held : job.price,
        held: job.held > 0,
        outputs: 1,
        settled: false,
      };
      account.start(running);
      state.jobs.add(running);
      world.jobs.set(job.targetId, id);
    }
    if (job.asked !== null) for (const world of this.worlds) this.asked.add(world.jobs.get(job.targetId)!);
  }

  /**
   * A job an earlier sequence saw end, so that its polls now (later moments) are judged: the model
   * holds it ended in `status` at `at`, owned by `party`'s account.
   */
  remember(targetId: string, create: ContractOperation, party: Party, status: string, at: number): void {
    for (const world of this.worlds) {
      const { state } = world;
      const route = state.routes.get(create.path);
      if (!route) continue;
      const area = state.areas.get(route.areaId)!;
      const id = state.jobs.nextId(area.jobIdPrefix ?? `${area.segment}_`, route.idType === "integer");
      state.jobs.add({
        id,
        accountName: party.account,
        key: party.key,
        route,
        createdAt: at,
        endAt: at,
        expireAt: at + area.timing.retentionMs,
        outcome: status,
        credits: 0,
        held: false,
        outputs: 1,
        settled: true,
      });
      world.jobs.set(targetId, id);
    }
  }

  /** The credits the model's job of `targetId` is charged if it succeeds (the same in every state), or 0 where none follows it. */
  chargeOf(targetId: string): number {
    for (const world of this.worlds) {
      const job = world.state.jobs.get(world.jobs.get(targetId) ?? "");
      if (job) return job.credits;
    }
    return 0;
  }

  /** How many states the target may be in. */
  get states(): number {
    return this.worlds.length;
  }

  /** The target's ids of the jobs of `account` whose end no answer has shown yet (in some state). */
  openTargetJobs(account: string): string[] {
    const open = new Set<string>();
    for (const world of this.worlds) {
      const ids = new Set(openJobs(world, account).map((job) => job.id));
      for (const [target, model] of world.jobs) if (ids.has(model)) open.add(target);
    }
    return [...open];
  }

  /** Judges the target's answer to `step` and follows it. */
  judge(step: Step, exchange: Exchange): Verdict {
    const { contract } = this;
    const shape = responseProblems(contract, step.op, exchange);
    const reused = this.reusedId(step, exchange);
    if (reused) shape.push(reused);
    const context = {
      contract,
      op: step.op,
      pricesKnown: this.config.standardPrices && step.party.plan === "paid" && this.exactPrice(step),
    };
    // Each state's answer with the fewest of its open jobs ended that fits; every state's answers are kept for a failure's report.
    const fitting: Array<{ world: World; answer: Answered }> = [];
    const tried: Answered[] = [];
    for (const world of this.worlds) {
      const jobs = this.relevant(world, step);
      for (const level of endingLevels(
        jobs,
        (job) => this.outcomes(job),
        (job) => this.expected(job),
      )) {
        const answers = level.map((ending) => {
          const branch = ended(world, ending, exchange.sentAt);
          return { world: branch, answer: answered(branch.state, this.callOf(branch, step, exchange)) };
        });
        tried.push(...answers.map(({ answer }) => answer));
        const fits = answers.filter(({ answer }) => misfit(answer.reply, exchange, context) === null);
        if (fits.length) {
          fitting.push(...fits);
          break;
        }
        if (tried.length > TRIED_AT_MOST) break;
      }
    }
    const allowed = [...new Set(tried.map((answer) => describeReply(contract, answer.reply)))];
    const due = [...new Set(tried.map((answer) => decider(step, answer)))];
    if (fitting.length > 0) {
      this.worlds = distinct(fitting.map(({ world, answer }) => this.follow(world, step, exchange, answer)));
      return { problems: shape, allowed, due, takenAs: decider(step, fitting[0]!.answer) };
    }
    const lenient = this.lenient(step, exchange);
    if (lenient) {
      this.worlds = distinct(lenient.worlds);
      return { problems: shape, allowed, due, takenAs: lenient.why };
    }
    const closest = [...new Set(tried.map((answer) => misfit(answer.reply, exchange, context)!))];
    // Said, so that a verdict the oracle could not finish is not read as the target's fault alone.
    if (tried.length > TRIED_AT_MOST)
      closest.push(
        `(the oracle stopped after ${tried.length} of the ways the jobs in flight may have ended; a later one might explain the answer)`,
      );
    return { problems: closest.concat(shape), allowed, due };
  }

  /**
   * The price the step's answer states or charges is one the target must give: no media input whose
   * seconds only the target measures (none declared), no fact the body does not hold.
   */
  private exactPrice(step: Step): boolean {
    const quoted =
      step.op.facts.operationId === QUOTE_OPERATION
        ? (step.modelBody as { model?: string; body?: unknown } | undefined)
        : undefined;
    const op = quoted ? this.contract.operations.find((candidate) => candidate.create?.slug === quoted.model) : step.op;
    const body = (quoted ? quoted.body : step.spec.body) as Record<string, unknown> | undefined;
    if (!op?.create || !body) return true;
    const price = priceOf(this.contract, op, body, mediaSeconds(this.config.mediaInputs ?? [], body));
    return price.credits !== null && !price.atMost;
  }

  /** Why an accepted create's job id is not a new job's: it is the id of a job an earlier create started. */
  private reusedId(step: Step, exchange: Exchange): string | null {
    const field = step.op.create && exchange.status === 200 ? idFieldOf(this.config, step.op) : null;
    const id = field === null ? undefined : (exchange.json as Record<string, unknown> | undefined)?.[field];
    if (id === undefined || !this.worlds.some((world) => world.jobs.has(String(id)))) return null;
    return `the create answered ${field} ${JSON.stringify(id)}, the id of a job an earlier create started: each create starts a job of its own`;
  }

  /** The open jobs whose end could change the answer to `step`. */
  private relevant(world: World, step: Step): Job[] {
    const kind = step.op.facts.kind;
    if (kind === "poll") {
      const job = world.state.jobs.get(world.jobs.get(step.jobId ?? "") ?? "");
      return job && job.accountName === step.party.account && !Number.isFinite(job.endAt) ? [job] : [];
    }
    const reads = kind === "create" || step.op.facts.operationId === this.contract.model.account.creditsOperationId;
    return reads ? openJobs(world, step.party.account) : [];
  }

  /** The statuses an open job may end in: the one its create asked for, else any terminal one. */
  private outcomes(job: Job): readonly string[] {
    return this.asked.has(job.id) ? [job.outcome] : this.contract.model.jobStatus.terminal;
  }

  /** The status a job is expected to end in (a job asked for none is expected to succeed), or null. */
  private expected(job: Job): string | null {
    return this.asked.has(job.id) ? job.outcome : this.contract.model.jobStatus.success;
  }

  /** The model's view of the request: the same request, a poll naming the model's id of the job. */
  private callOf(world: World, step: Step, exchange: Exchange) {
    const url = new URL(step.spec.path, "http://target.invalid");
    const params: Record<string, string> = {};
    if (step.jobId !== undefined) params.id = world.jobs.get(step.jobId) ?? step.jobId;
    const body = step.modelBody ?? step.spec.body;
    return newCall({
      op: step.op.facts,
      params,
      query: url.searchParams,
      ip: "conformance",
      key: step.party.key,
      authorization: `Bearer ${step.party.key}`,
      now: exchange.sentAt,
      text: body === undefined ? "" : JSON.stringify(body),
      contentType: body === undefined ? null : "application/json",
      utf8: true,
    });
  }

  /** A state the answer fit, moved on by what the answer tells: the job a create started, a cooldown cleared. */
  private follow(world: World, step: Step, exchange: Exchange, answer: Answered): World {
    const { model } = this.contract;
    const reply = answer.reply;
    if (step.op.create && reply.status === 200) {
      const field = idFieldOf(this.config, step.op);
      const modelId = field === null ? undefined : (reply.body as Record<string, unknown>)[field];
      const targetId = field === null ? undefined : (exchange.json as Record<string, unknown> | undefined)?.[field];
      if (modelId !== undefined && targetId !== undefined) {
        world.jobs.set(String(targetId), String(modelId));
        if (declaredOutcome(model, this.config.outcomeMarkers, step.spec.body) !== null)
          this.asked.add(String(modelId));
      }
    }
    if (step.op.facts.kind === "poll" && reply.status === 200) {
      const job = world.state.jobs.get(world.jobs.get(step.jobId ?? "") ?? "");
      if (job?.route.family && (reply.body as { status?: string }).status === model.jobStatus.success)
        world.unknownCooldown.delete(job.accountName);
    }
    return world;
  }

  /**
   * Answers the model never gives that the specification still allows here, and what they tell: a
   * rate-limited 429 (other programs share the address's window); a queue-full 429 where the cap is
   * not declared or an earlier run's jobs may hold it; a spend-limit 429 where no spend limit is
   * declared (then it stays); a cooldown 429 on an account whose failures before the phase are
   * unknown (then the pause stands); a 400 to a body with media the target fetches, or of a shape
   * the description does not show.
   */
  private lenient(step: Step, exchange: Exchange): { worlds: World[]; why: string } | null {
    const { contract, config } = this;
    const seen = conditionsOf(contract, exchange.json);
    const account = step.party.account;
    const create = step.op.facts.kind === "create";
    const same = (why: string) => ({ worlds: this.worlds, why });
    if (exchange.status === 429 && seen.has("rate-limited") && seen.size === 1) return same("rate limited");
    if (exchange.status === 429 && create && seen.has("queue-full")) {
      const earlier = account === "main" && (this.start.earlierJobsUntil ?? 0) > exchange.sentAt;
      if (!this.declaredCaps.has(account) || earlier) return same("queue full, the cap not known");
    }
    // The second account is declared with no spend limit; another paid account may have one nobody declared.
    if (
      exchange.status === 429 &&
      create &&
      seen.has("spend-limit") &&
      step.party.plan === "paid" &&
      account !== "other"
    ) {
      return {
        worlds: this.worlds.map((world) => {
          const next = forkWorld(world);
          const ledger = next.state.accounts.byName.get(account)!.ledger;
          ledger.setSpendLimit(ledger.spending());
          return next;
        }),
        why: "spend limit reached, none declared",
      };
    }
    const family = step.op.create?.family;
    const secondsField = contract.model.errors.tooManyRequests.variants.find(
      (v) => v.condition === "cooldown",
    )?.secondsField;
    if (exchange.status === 429 && create && seen.has("cooldown") && family && secondsField) {
      const json = exchange.json as Record<string, unknown>;
      const seconds = Number(json[secondsField] ?? (json.error as Record<string, unknown> | undefined)?.[secondsField]);
      const unknown = this.worlds.filter((world) => world.unknownCooldown.has(account));
      if (unknown.length && Number.isFinite(seconds))
        return {
          worlds: unknown.map((world) => {
            const next = forkWorld(world);
            const owner = next.state.accounts.byName.get(account)!;
            next.state.cooldowns.pause(
              next.state.cooldownId(owner, step.party.key, family),
              exchange.sentAt + seconds * 1000,
            );
            return next;
          }),
          why: "paused by failures before the phase",
        };
    }
    if (exchange.status === 400) {
      const body = step.spec.body;
      const media = Object.keys((body ?? {}) as object).filter((field) => step.op.create?.media[field] !== undefined);
      const declared = new Set((config.mediaInputs ?? []).map((input) => input.url));
      const fetched = media.some((field) => {
        const value = (body as Record<string, unknown>)[field];
        return (Array.isArray(value) ? value : [value]).some((item) => typeof item === "string" && !declared.has(item));
      });
      if (fetched) return same("a media input the target fetches may be unusable");
      if (unstatedAcceptance(step.op, body, config.describedShapes))
        return same("a request shape the description does not show");
    }
    return null;
  }
}

/** What decided an answer: its rule's name, the ownership of a job polled by another account, else the operation's handler. */
function decider(step: Step, answer: Answered): string {
  if (answer.rule) return answer.rule;
  return step.op.facts.kind === "poll" && answer.reply.status === 403 ? OWNERSHIP : "handler";
}

/** The model's settings for the phase's parties: what the declaration states, the balances read, the limits the target keeps. */
function settingsOf(
  contract: Contract,
  config: TargetConfig,
  parties: Parties,
  balances: ReadonlyMap<string, number | null>,
): ServiceSettings {
  const { model } = contract;
  const retired =
    config.retiredModel && config.retiredModel.apiKey === undefined
      ? model.createRoutes.filter((route) => route.label === config.retiredModel!.model).map((route) => route.slug)
      : [];
  const accounts: Record<string, AccountSettings> = {};
  for (const party of parties.all) {
    const known = accounts[party.account];
    if (known) {
      accounts[party.account] = { ...known, keys: [...known.keys, party.key] };
      continue;
    }
    const cap =
      party.account === "main" ? config.concurrency : party.account === "other" ? config.otherAccount?.concurrency : 0;
    accounts[party.account] = {
      keys: [party.key],
      plan: party.plan,
      // Only the total is read: the model holds it as the month's allowance.
      credits: { monthlyLimit: balances.get(party.account) ?? Number.MAX_SAFE_INTEGER, extra: 0 },
      concurrency: cap ?? Number.POSITIVE_INFINITY,
      monthlySpendLimit: null,
      retiredModels: party.account === "main" ? retired : [],
      outcome: model.jobStatus.success,
      discounts: {},
      dailyFreePool: null,
    };
  }
  const { requests, uploads, cooldown } = model.limits;
  const pause = config.cooldownPauseSeconds;
  return {
    accounts,
    rates: {},
    limits: {
      // The address's and the keys' windows are shared with every other program: the model never refuses for them.
      requests: {
        perKey: Number.POSITIVE_INFINITY,
        perSourceIp: Number.POSITIVE_INFINITY,
        windowSeconds: requests.windowSeconds,
      },
      uploads: { perAccount: uploads.perAccount, windowSeconds: uploads.windowSeconds },
      cooldown: {
        consecutiveFailures: cooldown.consecutiveFailures,
        withinSeconds: cooldown.withinSeconds,
        pauseSeconds: pause ?? cooldown.pauseSeconds,
        growthSeconds: pause ?? cooldown.growthSeconds,
      },
    },
  };
}
