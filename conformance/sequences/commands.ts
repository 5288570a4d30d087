/**
 * The steps a sequence is made of, as fast-check commands over a Sequence (the model: the oracle
 * and the jobs) and the Phase (the real target, through the parties' clients): creates of any
 * model with bodies drawn from the request schemas or the named examples, polls by the owner, by
 * another key of its account, by another account and by the Free plan, polls of jobs that ended
 * in earlier sequences, waits, credit reads, quotes, uploads, posts, stock searches, and repeats.
 */
import fc from "fast-check";
import type { Outcome } from "../../behaviour/choices.ts";
import type { ContractOperation } from "../../contract/contract.ts";
import { requestPath } from "../../contract/contract.ts";
import type { Body } from "../../contract/bodies/near-misses.ts";
import { priceOf } from "../cost.ts";
import { positiveArbitrary } from "../generation/generated.ts";
import type { Exchange, RequestSpec } from "../http.ts";
import { followable, hasPrompt, marked } from "../requests.ts";
import type { Party } from "./parties.ts";
import type { Phase, Sequence, TrackedJob } from "./sequence.ts";
import { mediaSeconds, withDeclaredMedia } from "./inputs.ts";
import type { Condition, StepKind } from "./steps.ts";
import { markerFor } from "./target-choices.ts";

export type Asked = "none" | "failed" | "timeout" | "moderation";
export type InputClass = "example" | "drawn" | "declared";

type Command = fc.AsyncCommand<Sequence, Phase>;

/** The conditions of a party acting on its own account's resources or another's. */
function partyConditions(party: Party, owner?: Party): Condition[] {
  return [
    `plan=${party.plan}`,
    `key=${party.second ? "second" : "first"}`,
    ...(owner ? [`account=${owner.account === party.account ? "same" : "other"}` as Condition] : []),
  ];
}

/** Where the phase stands on what a step may do: the parties of each role, the operations, the credits left. */
export class Steps {
  constructor(readonly phase: Phase) {}

  /** Parties of the phase's own account (its state is modelled whole). */
  get home(): Party[] {
    return this.phase.of(this.phase.home);
  }

  /** Parties of other accounts: they may only ask for what is not theirs, or what their plan refuses. */
  get strangers(): Party[] {
    return this.phase.parties.all.filter((party) => party.account !== this.phase.home);
  }

  get free(): Party | undefined {
    return this.phase.parties.all.find((party) => party.plan === "free");
  }

  op(operationId: string): ContractOperation | undefined {
    return this.phase.session.selected().find((op) => op.facts.operationId === operationId);
  }

  /** The creates a sequence may send: implemented, their jobs followable. */
  creates(): ContractOperation[] {
    const { session } = this.phase;
    return session.selected().filter((op) => op.create && followable(session, op));
  }

  /** The job outlasts a sequence (the description's typical duration is past poll.timeoutSeconds: 3D). */
  outlasting(op: ContractOperation): boolean {
    const { session } = this.phase;
    const typical = session.contract.pollOf(op)?.polls?.poll.typicalDurationSeconds;
    return typical !== null && typical !== undefined && typical.min > session.config.poll.timeoutSeconds;
  }

  /** The outcome asked for, as the marker the body carries; null where no marker asks for it here. */
  outcomeOf(op: ContractOperation, asked: Asked, reason: number): Outcome | null {
    if (asked === "none" || !hasPrompt(op)) return null;
    const { model } = this.phase.session.contract;
    const reasons = model.errors.moderation.reasons;
    return asked === "moderation" ? { moderation: reasons[reason % reasons.length]! } : { status: asked };
  }
}

/** Jobs whose end is open that a credits read leaves open, at most: more are polled first, once. */
const OPEN_BEFORE_READ = 4;

/**
 * Jobs in flight at a credits read, at most: more are polled until they end (within the declared
 * poll timeout), else the read is left out. The oracle explains a balance by the ways the jobs may
 * have ended, 2^n ways for n jobs even when each ends as asked; under load, a dozen jobs could still
 * run after one round of polls, past the endings it tries.
 */
const OPEN_AT_READ = 10;

/** Jobs that outlast the phase (3D) it keeps running at once, at most: each holds a slot of the cap to its end. */
const OUTLASTING_AT_MOST = 2;

/** A create: its model, its body (a named example or one drawn), the outcome it asks for, and who sends it. */
export class CreateCommand implements Command {
  constructor(
    readonly op: ContractOperation,
    readonly body: Body,
    readonly input: InputClass,
    readonly asked: Asked,
    readonly by: number,
    readonly reason = 0,
    /** Which declared media input goes into each field the price reads the seconds of. */
    readonly media = 0,
  ) {}

  check(sequence: Readonly<Sequence>): boolean {
    // A bounded number of jobs whose end is open, so the states the oracle keeps stay few; those of
    // earlier sequences still running count; a job that outlasts the phase only while few do.
    const { phase } = sequence;
    const open = sequence.jobs.filter((job) => job.terminal === null).length + phase.left.length;
    const outlasting = [...sequence.jobs, ...phase.left].filter(
      (job) => job.outlasting && job.terminal === null,
    ).length;
    return open < phase.openJobs && (!new Steps(phase).outlasting(this.op) || outlasting < OUTLASTING_AT_MOST);
  }

  async run(sequence: Sequence, phase: Phase): Promise<void> {
    const steps = new Steps(phase);
    const parties = [...steps.home, ...(steps.free ? [steps.free] : [])];
    const party = parties[this.by % parties.length]!;
    const { session } = phase;
    const { contract, config } = session;
    let outcome = steps.outcomeOf(this.op, this.asked, this.reason);
    const { body, declared } = withDeclaredMedia(session.config, session.contract, this.op, this.body, this.media);
    const paid = party.plan === "paid";
    const label = this.op.create!.label;
    if (paid && steps.outlasting(this.op) && phase.home === "main")
      return phase.notSent(
        label,
        "its jobs outlast the phase, and the main account's cap must be free for the other checks",
      );
    // A job the phase may be charged for needs an exact price within the credits left (and a share of them); else it asks to fail.
    const price = priceOf(contract, this.op, body, mediaSeconds(config.mediaInputs ?? [], body));
    const charged =
      paid && (outcome === null || ("status" in outcome && outcome.status === contract.model.jobStatus.success));
    const why =
      price.credits === null || price.atMost
        ? "its price is not exact (not shown, or it reads media seconds no declared input gives)"
        : price.credits > Math.min(phase.credits, phase.creditsPerJob)
          ? `its price (${price.credits}) is past what the phase may spend on one job (${Math.min(phase.credits, phase.creditsPerJob)})`
          : null;
    if (charged && why !== null) {
      outcome = steps.outcomeOf(this.op, "failed", 0);
      if (outcome === null || markerFor(config.outcomeMarkers, outcome) === null)
        return phase.notSent(
          label,
          `${why}, and no declared marker can make it fail (outcomeMarkers.failed, in a prompt)`,
        );
    }
    const marker = outcome ? markerFor(config.outcomeMarkers, outcome) : null;
    if (outcome && marker === null)
      return phase.notSent(
        label,
        `no declared marker asks for ${this.asked} (outcomeMarkers), or the request has no prompt`,
      );
    const spec: RequestSpec = {
      method: "post",
      path: this.op.path,
      headers: phase.client(party).authorized(),
      body,
    };
    const sent = marker ? marked(spec, marker) : spec;
    if (marker && !contract.validBody(this.op, sent.body))
      return phase.notSent(label, "the marker in its prompt makes the body invalid");
    const asked = outcome === null ? "none" : "moderation" in outcome ? "moderation" : outcome.status;
    if (charged && outcome === null) phase.credits -= price.credits ?? 0;
    const { exchange } = await sequence.step({
      kind: "create",
      party,
      op: this.op,
      spec: sent,
      asked,
      ...(charged && outcome === null && price.credits !== null ? { price: price.credits } : {}),
      conditions: [
        `model=${this.op.create!.label}`,
        `input=${declared ? "declared-media" : this.input}`,
        `outcome=${asked}`,
        ...partyConditions(party),
      ],
    });
    if (charged && outcome === null && exchange.status !== 200) phase.credits += price.credits ?? 0;
    track(sequence, this.op, party, asked, exchange);
  }

  toString(): string {
    return `create ${this.op.create?.label} (${this.input}, asks ${this.asked}) by party ${this.by}`;
  }
}

/** The job a create's answer started, followed by the sequence (where the answer names its id). */
function track(sequence: Sequence, op: ContractOperation, party: Party, asked: string, exchange: Exchange): void {
  const { phase } = sequence;
  const { contract } = phase.session;
  const id = createdId(phase, op, exchange.json);
  const poll = contract.pollOf(op);
  if (exchange.status !== 200 || id === null || !poll) return;
  const stated = Number((exchange.json as Record<string, unknown>)[contract.model.account.priceField] ?? 0);
  sequence.jobs.push({
    id,
    create: op,
    poll,
    party,
    asked,
    terminal: null,
    endedAt: null,
    outlasting: new Steps(phase).outlasting(op),
    held: op.create?.priceHeld && Number.isFinite(stated) ? stated : 0,
    price: sequence.oracle.chargeOf(id),
  });
}

/** Who polls a job: its creator, another key of its account, a key of another account, the Free plan's key. */
export type Poller = "owner" | "same-account" | "other-account" | "free";

function pollerOf(steps: Steps, job: TrackedJob, who: Poller): Party | undefined {
  const all = steps.phase.parties.all;
  switch (who) {
    case "owner":
      return job.party;
    case "same-account":
      return all.find((party) => party.account === job.party.account && party.key !== job.party.key);
    case "other-account":
      // The bystander's key before the main one: the main key's window is the busiest of the run.
      return [...all]
        .sort((a, b) => Number(a.account === "main") - Number(b.account === "main"))
        .find((party) => party.account !== job.party.account && party.plan === "paid");
    case "free":
      return steps.free;
  }
}

/** A poll of one of the sequence's jobs (`earlier`: of a job that ended in an earlier sequence). */
export class PollCommand implements Command {
  constructor(
    readonly job: number,
    readonly who: Poller,
    readonly earlier = false,
    /** The first of the sequence's jobs of this model (a label), rather than the `job`-th. */
    readonly model?: string,
  ) {}

  private pool(sequence: Readonly<Sequence>): readonly TrackedJob[] {
    const jobs = this.earlier ? sequence.phase.ended : sequence.jobs;
    return this.model === undefined ? jobs : jobs.filter((job) => job.create.create?.label === this.model).slice(0, 1);
  }

  check(sequence: Readonly<Sequence>): boolean {
    return this.pool(sequence).length > 0;
  }

  async run(sequence: Sequence, phase: Phase): Promise<void> {
    const pool = this.pool(sequence);
    const job = pool[this.job % pool.length]!;
    const party = pollerOf(new Steps(phase), job, this.who);
    if (!party) return;
    await pollJob(sequence, job, party, this.earlier ? "later" : "soon");
  }

  toString(): string {
    return `poll ${this.earlier ? "an earlier sequence's" : "a"} job ${this.job} by ${this.who}`;
  }
}

/** Polls `job` as `party`; the owner's answer moves the job on. */
export async function pollJob(
  sequence: Sequence,
  job: TrackedJob,
  party: Party,
  moment: "soon" | "later" | "end",
): Promise<void> {
  const { exchange } = await sequence.step({
    kind: "poll",
    party,
    op: job.poll,
    spec: sequence.pollSpec(job, party),
    jobId: job.id,
    conditions: [
      `model=${job.create.create!.label}`,
      `moment=${moment}`,
      `outcome=${job.asked}`,
      ...partyConditions(party, job.party),
    ],
  });
  const status = (exchange.json as { status?: unknown } | undefined)?.status;
  const { terminal } = sequence.phase.session.contract.model.jobStatus;
  if (
    party.account === job.party.account &&
    exchange.status === 200 &&
    terminal.includes(String(status)) &&
    job.terminal === null
  ) {
    job.terminal = String(status);
    job.endedAt = exchange.receivedAt;
  }
}

/**
 * The account's jobs in flight polled before its balance is read: once when more than
 * OPEN_BEFORE_READ run, then until at most OPEN_AT_READ do or `deadline` passes. Whether few enough
 * run (those earlier sequences left running counted) for the read to be judged.
 */
async function fewInFlight(sequence: Sequence, account: string, deadline: number): Promise<boolean> {
  const { session, left } = sequence.phase;
  const open = () => sequence.jobs.filter((job) => job.terminal === null && job.party.account === account);
  const carried = left.filter((job) => job.party.account === account).length;
  const tooMany = () => open().length + carried > OPEN_AT_READ;
  const pollAll = async () => {
    for (const job of open()) await pollJob(sequence, job, job.party, "soon");
  };
  if (open().length > OPEN_BEFORE_READ) await pollAll();
  // Only the sequence's own jobs are polled here: those carried from earlier ones are looked at as a sequence begins.
  while (tooMany() && open().length > 0 && Date.now() <= deadline) {
    await session.sleep(Math.min(...open().map((job) => session.pollIntervalMs(job.poll))));
    await pollAll();
  }
  return !tooMany();
}

/** A read of `party`'s account's balance, unless too many of its jobs still run by `deadline` (fewInFlight). */
export async function readCredits(
  sequence: Sequence,
  party: Party,
  deadline = Date.now() + sequence.phase.session.config.poll.timeoutSeconds * 1000,
): Promise<void> {
  const built = buildOther(new Steps(sequence.phase), "credits", 0);
  if (!built || !(await fewInFlight(sequence, party.account, deadline))) return;
  await sequence.step({
    kind: "credits",
    party,
    op: built.op,
    spec: { ...built.spec, headers: sequence.phase.client(party).authorized() },
    conditions: [...built.conditions, ...partyConditions(party)],
  });
}

/** A pause between steps: later moments of the jobs in flight. */
export class WaitCommand implements Command {
  constructor(readonly ms: number) {}

  check(): boolean {
    return true;
  }

  async run(_sequence: Sequence, phase: Phase): Promise<void> {
    await phase.session.sleep(this.ms);
  }

  toString(): string {
    return `wait ${this.ms} ms`;
  }
}

/** A request to one of the operations that are neither creates nor polls. */
export class OtherCommand implements Command {
  constructor(
    readonly kind: Exclude<StepKind, "create" | "poll">,
    readonly by: number,
    /** What varies: the search route and query, the post's license, the quoted request. */
    readonly detail: number,
  ) {}

  check(): boolean {
    return true;
  }

  async run(sequence: Sequence, phase: Phase): Promise<void> {
    const steps = new Steps(phase);
    const built = buildOther(steps, this.kind, this.detail);
    if (!built) return;
    // The Free plan's key on the routes it may call (searches) and on those it may not: the home account's keys besides.
    const parties = [...steps.home, ...(steps.free ? [steps.free] : [])];
    const party = parties[this.by % parties.length]!;
    if (this.kind === "upload" && !phase.mayUpload(party.account)) return;
    if (this.kind === "credits") return readCredits(sequence, party);
    await sequence.step({
      kind: this.kind,
      party,
      op: built.op,
      spec: { ...built.spec, headers: phase.client(party).authorized() },
      ...(built.modelBody !== undefined ? { modelBody: built.modelBody } : {}),
      conditions: [...built.conditions, ...partyConditions(party)],
    });
  }

  toString(): string {
    return `${this.kind} (${this.detail}) by party ${this.by}`;
  }
}

/** The request of a step of `kind`, as sent and, where its shape is the target's own, as the model reads it. */
function buildOther(
  steps: Steps,
  kind: Exclude<StepKind, "create" | "poll">,
  detail: number,
): { op: ContractOperation; spec: RequestSpec; modelBody?: unknown; conditions: Condition[] } | null {
  const { config, contract } = steps.phase.session;
  const operationId = { credits: "getAccountCredits", quote: "quoteCost", upload: "createUpload", post: "createPost" };
  if (kind === "search") {
    const searches = steps.phase.session.selected().filter((op) => op.facts.freePlan);
    if (!searches.length) return null;
    const op = searches[detail % searches.length]!;
    const queries = ["", "sea", "forest at night"];
    const query = queries[Math.floor(detail / searches.length) % queries.length]!;
    const path = `${requestPath(contract, op)}${query ? `${op.path.includes("?") ? "&" : "?"}query=${encodeURIComponent(query)}` : ""}`;
    return { op, spec: { method: "get", path, headers: {} }, conditions: [`query=${query ? "text" : "none"}`] };
  }
  const op = steps.op(operationId[kind]);
  if (!op) return null;
  if (kind === "credits") return { op, spec: { method: "get", path: op.path, headers: {} }, conditions: [] };
  if (kind === "upload") {
    if (!config.uploadRequest) return null;
    return { op, spec: { method: "post", path: op.path, headers: {}, body: config.uploadRequest }, conditions: [] };
  }
  if (kind === "post") {
    const license =
      (op.requestSchema?.properties as Record<string, { enum?: unknown[] }> | undefined)?.license?.enum ?? [];
    const choice = license[detail % (license.length + 1)];
    const body = choice === undefined ? {} : { license: choice };
    return {
      op,
      spec: { method: "post", path: op.path, headers: {}, body },
      conditions: [`license=${String(choice ?? "default")}`],
    };
  }
  if (!config.costRequest) return null;
  const creates = steps.creates();
  const create = creates[detail % creates.length];
  const example = create?.requestExamples[0]?.value;
  if (!create || example === undefined) return null;
  const body = JSON.parse(
    JSON.stringify(config.costRequest)
      .replace('"{model}"', JSON.stringify(create.create!.slug))
      .replace('"{request}"', JSON.stringify(example)),
  ) as unknown;
  return {
    op,
    spec: { method: "post", path: op.path, headers: {}, body },
    // The model's quote request (the sandbox's shape, behaviour/handlers.ts): the model and the create request.
    modelBody: { model: create.create!.slug, body: example },
    conditions: [`model=${create.create!.label}`],
  };
}

/** The same request again, by the same party: a second charge, a second window count, a second search. */
export class RepeatCommand implements Command {
  check(sequence: Readonly<Sequence>): boolean {
    const last = sequence.last;
    if (last === undefined) return false;
    if (last.kind === "upload") return sequence.phase.mayUpload(last.party.account);
    // A create again is a second job, charged again: only one that asked to fail, or whose price the phase can still pay; and not one that outlasts the phase.
    if (last.kind === "create")
      return (
        !new Steps(sequence.phase).outlasting(last.op) &&
        (last.asked !== "none" || (last.price ?? Infinity) <= sequence.phase.credits)
      );
    return true;
  }

  async run(sequence: Sequence): Promise<void> {
    const last = sequence.last!;
    if (last.kind === "create" && last.asked === "none") sequence.phase.credits -= last.price ?? 0;
    const { exchange } = await sequence.step({
      ...last,
      conditions: [...last.conditions.filter((c) => !c.startsWith("repeat=")), "repeat=yes"],
    });
    if (last.kind === "create") track(sequence, last.op, last.party, last.asked ?? "none", exchange);
  }

  toString(): string {
    return "repeat the last request";
  }
}

/** The id a create response gives its job, or null. */
function createdId(phase: Phase, op: ContractOperation, json: unknown): string | null {
  const field = op.create?.idField ?? phase.session.config.jobIdFields?.[op.create?.label ?? ""];
  const id = field ? (json as Record<string, unknown> | undefined)?.[field] : undefined;
  return id === undefined || id === null || id === "" ? null : String(id);
}

/** The commands a random sequence is drawn from, with their weights. */
export function commandArbitraries(steps: Steps): Array<fc.Arbitrary<Command>> {
  const { session } = steps.phase;
  const creates = steps.creates();
  const bodies = creates.map((op) => {
    const examples = op.requestExamples.map((example) => example.value as Body);
    const drawn = positiveArbitrary(session.contract, op);
    const options: Array<fc.Arbitrary<[Body, InputClass]>> = [];
    if (examples.length)
      options.push(fc.constantFrom(...examples).map((body) => [body, "example"] as [Body, InputClass]));
    if (drawn) options.push(drawn.map((body) => [body, "drawn"] as [Body, InputClass]));
    return { op, body: fc.oneof(...options) };
  });
  const asked = fc.constantFrom<Asked>("none", "none", "failed", "timeout", "moderation");
  const create = fc
    .constantFrom(...bodies)
    .chain(({ op, body }) =>
      fc
        .tuple(body, asked, fc.nat(7), fc.nat(9), fc.nat(5))
        .map(
          ([[drawnBody, input], outcome, by, reason, media]) =>
            new CreateCommand(op, drawnBody, input, outcome, by, reason, media),
        ),
    );
  const poller = fc.constantFrom<Poller>("owner", "owner", "same-account", "other-account", "free");
  const others = fc.constantFrom<Exclude<StepKind, "create" | "poll">>(
    "credits",
    "credits",
    "quote",
    "upload",
    "post",
    "search",
  );
  return [
    create,
    create,
    fc.tuple(fc.nat(20), poller).map(([job, who]) => new PollCommand(job, who)),
    fc.tuple(fc.nat(20), poller).map(([job, who]) => new PollCommand(job, who)),
    fc.tuple(fc.nat(50), poller).map(([job, who]) => new PollCommand(job, who, true)),
    fc.integer({ min: 100, max: 2500 }).map((ms) => new WaitCommand(ms)),
    fc.tuple(others, fc.nat(7), fc.nat(30)).map(([kind, by, detail]) => new OtherCommand(kind, by, detail)),
    fc.constant(new RepeatCommand()),
  ];
}
