/**
 * One MCP session's work: its credit budget, the jobs it created (so that an identical create is
 * never sent twice and a job's area is known), and the tools' calls through the typed client.
 * The transport and the protocol are server.ts's; following a job as a task is tasks.ts's.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { TransportError, WaitDeadlineError, type QuotingMediaServiceClient } from "../../generated/client.ts";
import { agentMessage } from "./agent-errors.ts";
import { SessionBudget, type Commitment } from "./budget.ts";
import { CATALOG, findModel, type Catalog, type CatalogModel } from "./catalog.ts";
import { quoteCreate, type CreateQuote } from "./quoting.ts";
import { resultLinks, resultUrls, toolError, toolResult } from "./results.ts";
import type { McpSettings } from "./settings.ts";
import { DEFAULT_WAIT_SECONDS } from "./tools.ts";

/** What a job's status poll gives back, as far as the tools read it. */
type Polled = { status: string } & Record<string, unknown>;

interface AreaMembers {
  create(slug: string, body: unknown): Promise<{ jobId: string | null; created: unknown }>;
  get(id: string, options?: { signal?: AbortSignal }): Promise<Polled>;
  wait(
    id: string,
    options?: { signal?: AbortSignal; deadlineMs?: number; onStatus?: (status: string) => void },
  ): Promise<{ jobId: string; job: Polled }>;
}

/** A job this session created. */
export interface SessionJob {
  readonly jobId: string;
  readonly model: CatalogModel;
  readonly quote: CreateQuote;
  readonly commitment: Commitment;
  status: string;
  /** Seen in a terminal status. */
  ended: boolean;
}

/** The user's answer when a create costs more than the threshold: true to send it. */
export type ConfirmCreate = (message: string) => Promise<boolean | "unsupported">;

/** Arguments of a create, checked. */
export interface CreateRequest {
  readonly model: CatalogModel;
  readonly input: Record<string, unknown>;
  readonly media: Record<string, unknown> | undefined;
  readonly again: boolean;
}

/** A create's outcome: the job made (or the one an identical create made earlier), or the result that refuses it. */
export type CreateOutcome =
  | { readonly job: SessionJob; readonly repeated: boolean; readonly note: string }
  | { readonly refused: CallToolResult };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** JSON with object keys sorted, so that two bodies that differ only in key order are the same create. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

export class Session {
  readonly budget: SessionBudget;
  readonly jobs = new Map<string, SessionJob>();
  /** Creates by their canonical arguments: the job, or the promise of one being sent. */
  readonly #sent = new Map<string, Promise<CreateOutcome>>();
  readonly #validators = new Map<string, ValidateFunction>();
  readonly #ajv = new Ajv2020({ allErrors: true, strict: false });

  constructor(
    readonly client: QuotingMediaServiceClient,
    readonly settings: Pick<McpSettings, "budget" | "confirmAbove">,
    readonly catalog: Catalog = CATALOG,
  ) {
    this.budget = new SessionBudget(settings.budget);
  }

  get jobsInFlight(): number {
    return [...this.jobs.values()].filter((job) => !job.ended).length;
  }

  area(name: string): AreaMembers {
    return (this.client as unknown as Record<string, AreaMembers>)[name]!;
  }

  /** The model, input and media of a quote or create, checked against the model's input schema; a string says what is wrong. */
  checkRequest(args: Record<string, unknown>): CreateRequest | string {
    const model = typeof args.model === "string" ? findModel(args.model, this.catalog) : undefined;
    if (!model) return `model: ${JSON.stringify(args.model)} is no model of this service; list_models names them.`;
    if (!isRecord(args.input)) return "input: must be an object, the model's request body (describe_model).";
    if (args.media !== undefined && !isRecord(args.media)) return "media: must be an object of seconds by field.";
    let validate = this.#validators.get(model.slug);
    if (!validate) this.#validators.set(model.slug, (validate = this.#ajv.compile(model.inputSchema)));
    if (!validate(args.input)) {
      const problems = (validate.errors ?? []).slice(0, 10).map((error) => {
        const at = `input${error.instancePath.replace(/\//g, ".")}`;
        const extra =
          error.keyword === "additionalProperties"
            ? ` (${(error.params as { additionalProperty: string }).additionalProperty})`
            : "";
        return `${at}: ${error.message}${extra}`;
      });
      return `The input does not match ${model.label}'s input schema (describe_model): ${problems.join("; ")}. Nothing was sent.`;
    }
    return {
      model,
      input: args.input,
      media: args.media as Record<string, unknown> | undefined,
      again: args.again === true,
    };
  }

  /** The quote tool. */
  async quote(request: CreateRequest, online: boolean): Promise<CallToolResult> {
    try {
      const quote = await quoteCreate(this.client, request.model, request.input, request.media, online);
      const price = quote.credits === null ? `not known: ${quote.reason}` : `${quote.credits} credits`;
      const discounted =
        quote.source === "offline" && quote.service !== undefined
          ? ` The service's quote (plan discounts applied): ${JSON.stringify(quote.service)}.`
          : "";
      return toolResult(
        `${request.model.label}: ${price} (${quote.source === "service" ? "the service's quote" : "standard price, before plan discounts"}); charged only on success.${discounted}`,
        {
          model: request.model.slug,
          credits: quote.credits,
          source: quote.source,
          ...(quote.reason ? { reason: quote.reason } : {}),
          offline: quote.offline,
          ...(quote.service !== undefined ? { service: quote.service } : {}),
          session: this.budget.state,
        },
      );
    } catch (error) {
      return toolError(agentMessage(error, { jobsInFlight: this.jobsInFlight, create: false }, this.catalog));
    }
  }

  /**
   * Quotes, asks the user above the threshold, checks the budget and sends the create once. An
   * identical create of this session (same model, input and media) is not sent again unless
   * `again`: an agent that retries after a lost answer gets the first job.
   */
  create(request: CreateRequest, confirm: ConfirmCreate): Promise<CreateOutcome> {
    const key = canonical([request.model.slug, request.input, request.media ?? null]);
    const earlier = this.#sent.get(key);
    if (!earlier || request.again) return this.#sendOnce(key, request, confirm);
    return earlier.then((outcome) => {
      if (!("job" in outcome)) return outcome;
      // A job seen to end without success was not charged: the same input may be created again, once.
      const { job } = outcome;
      if (job.ended && job.jobId && job.status !== this.catalog.statuses.success)
        return this.#sent.get(key) === earlier ? this.#sendOnce(key, request, confirm) : this.create(request, confirm);
      return {
        ...outcome,
        repeated: true,
        note: " An identical create was sent earlier in this session as this job; it was not sent again (again: true makes a second job).",
      };
    });
  }

  #sendOnce(key: string, request: CreateRequest, confirm: ConfirmCreate): Promise<CreateOutcome> {
    const sending = this.#send(request, confirm);
    this.#sent.set(key, sending);
    // A refused create may be tried again as it is (after the user raised the budget, say); a lost answer may have made a job, so it stays.
    void sending.then((outcome) => {
      if (
        "refused" in outcome &&
        !outcome.refused.structuredContent?.mayHaveCreatedJob &&
        this.#sent.get(key) === sending
      )
        this.#sent.delete(key);
    });
    return sending;
  }

  async #send(request: CreateRequest, confirm: ConfirmCreate): Promise<CreateOutcome> {
    const { model, input, media } = request;
    const context = { jobsInFlight: this.jobsInFlight, create: true };
    let quote: CreateQuote;
    try {
      quote = await quoteCreate(this.client, model, input, media);
    } catch (error) {
      return {
        refused: toolError(
          `Quoting failed, so nothing was sent: ${agentMessage(error, { ...context, create: false }, this.catalog)}`,
        ),
      };
    }
    const facts = { model: model.slug, quote: quote.credits, quote_source: quote.source };
    const threshold = this.settings.confirmAbove;
    let note = "";
    if (threshold !== null && (quote.credits === null || quote.credits > threshold)) {
      const { budget, committed } = this.budget.state;
      const answer = await confirm(
        `Create a ${model.label} job (${model.title}) quoted at ${quote.credits ?? "an unknown price"}${quote.credits === null ? "" : " credits"}? Session budget: ${budget === null ? "no limit" : budget === undefined ? "not set" : `${committed} of ${budget} credits committed`}.`,
      );
      if (answer === false)
        return {
          refused: toolError(
            `The user declined this create (quoted at ${quote.credits ?? "an unknown price"}); nothing was sent.`,
            { ...facts, declined: true },
          ),
        };
      if (answer === "unsupported")
        note = ` The quote is above the confirmation threshold of ${threshold} credits, but this client cannot ask the user; the budget still applies.`;
    }
    const verdict = this.budget.admit(quote.credits, quote.reason);
    if (!verdict.ok) return { refused: toolError(verdict.reason, { ...facts, session: this.budget.state }) };
    const commitment = verdict.commit();
    let created: { jobId: string | null; created: unknown };
    try {
      created = await this.area(model.area).create(model.slug, input);
    } catch (error) {
      const unknown = error instanceof TransportError && error.mayHaveCreatedJob;
      if (!unknown) commitment.release();
      return {
        refused: toolError(agentMessage(error, context, this.catalog), {
          ...facts,
          ...(unknown ? { mayHaveCreatedJob: true } : {}),
        }),
      };
    }
    const status = (created.created as { status?: unknown } | null)?.status;
    const job: SessionJob = {
      jobId: created.jobId ?? "",
      model,
      quote,
      commitment,
      status: typeof status === "string" ? status : "unknown",
      ended: false,
    };
    if (created.jobId === null) {
      job.ended = true;
      return {
        job,
        repeated: false,
        note: `${note} The service's answer names no job id for ${model.label}, so this job cannot be followed; its answer: ${JSON.stringify(created.created)}.`,
      };
    }
    this.jobs.set(job.jobId, job);
    return { job, repeated: false, note };
  }

  /** A create's result for a client without tasks: the job id and what to do next. */
  createdResult(outcome: Exclude<CreateOutcome, { refused: CallToolResult }>): CallToolResult {
    const { job, note, repeated } = outcome;
    const area = this.catalog.areas[job.model.area];
    const cadence = area?.cadence ? ` (the service suggests polling ${area.cadence})` : "";
    return toolResult(
      `${repeated ? "Job" : "Created job"} ${job.jobId} with ${job.model.label}, quoted at ${job.quote.credits ?? "an unknown price"}${job.quote.credits === null ? "" : " credits"} (charged only on success). Call wait_job with job_id ${job.jobId} for the result${cadence}.${note}`,
      this.jobFacts(job, { repeated }),
    );
  }

  jobFacts(job: SessionJob, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      job_id: job.jobId,
      area: job.model.area,
      model: job.model.slug,
      label: job.model.label,
      status: job.status,
      quoted_credits: job.quote.credits,
      session: this.budget.state,
      ...extra,
    };
  }

  /** Records a job's status; a job seen ending without success gives its quote back to the budget. */
  settle(job: SessionJob | undefined, status: string): void {
    if (!job) return;
    job.status = status;
    if (!this.catalog.statuses.terminal.includes(status)) return;
    job.ended = true;
    if (status !== this.catalog.statuses.success) job.commitment.release();
  }

  /** A polled job as a result: its status, and on success its result URLs as links. */
  polledResult(jobId: string, area: string, polled: Polled, waited?: number): CallToolResult {
    const { status } = polled;
    this.settle(this.jobs.get(jobId), status);
    const meaning = this.catalog.statuses.descriptions[status];
    const base = { job_id: jobId, area, status, ...(this.jobs.has(jobId) ? { session: this.budget.state } : {}) };
    if (status === this.catalog.statuses.success) {
      const { urls, inlineLeftOut } = resultUrls(polled);
      const retention = this.catalog.areas[area]?.retention;
      const kept = retention
        ? ` The files are deleted ${retention.approximate ? "about " : ""}${retention.hours} hours after generation.`
        : "";
      const left = inlineLeftOut
        ? ` ${inlineLeftOut} inline media value(s) were left out: results are given as URLs only.`
        : "";
      return toolResult(
        `Job ${jobId} ${status}: ${urls.length} result URL(s).${kept}${left}`,
        { ...base, urls: urls.map(({ field, url }) => ({ field, url })) },
        resultLinks(jobId, urls),
      );
    }
    if (this.catalog.statuses.terminal.includes(status))
      return toolResult(
        `Job ${jobId} ended ${status}${meaning ? ` (${meaning})` : ""}: nothing is charged. It may be created again.`,
        base,
      );
    const after = waited === undefined ? "" : ` after waiting ${waited} s`;
    return toolResult(`Job ${jobId} is ${status}${meaning ? ` (${meaning})` : ""}${after}; call wait_job again.`, base);
  }

  /** The area of a job: this session's record, else the one given. */
  jobArea(args: Record<string, unknown>): { jobId: string; area: string } | string {
    if (typeof args.job_id !== "string" || !args.job_id)
      return "job_id: the job's id, as create returned it, is required.";
    const known = this.jobs.get(args.job_id)?.model.area;
    const area = known ?? (typeof args.area === "string" ? args.area : undefined);
    if (!area || !(area in this.catalog.areas))
      return `area: job ${args.job_id} was not created in this session, so its area is needed: one of ${Object.keys(this.catalog.areas).join(", ")}.`;
    return { jobId: args.job_id, area };
  }

  async getJob(jobId: string, area: string, signal?: AbortSignal): Promise<CallToolResult> {
    try {
      return this.polledResult(jobId, area, await this.area(area).get(jobId, signal ? { signal } : {}));
    } catch (error) {
      return toolError(agentMessage(error, { jobsInFlight: this.jobsInFlight, create: false }, this.catalog));
    }
  }

  /** Waits at most `seconds` for the job's end; each new status is reported through `progress`. */
  async waitJob(
    jobId: string,
    area: string,
    seconds: number = DEFAULT_WAIT_SECONDS,
    progress: (status: string) => void = () => {},
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    try {
      const { job } = await this.area(area).wait(jobId, {
        deadlineMs: seconds * 1000,
        onStatus: progress,
        ...(signal ? { signal } : {}),
      });
      return this.polledResult(jobId, area, job);
    } catch (error) {
      const job = (error as { job?: unknown }).job;
      if (isRecord(job) && typeof job.status === "string") return this.polledResult(jobId, area, job as Polled);
      if (error instanceof WaitDeadlineError)
        return this.polledResult(jobId, area, { status: error.lastStatus ?? "unknown" }, seconds);
      return toolError(agentMessage(error, { jobsInFlight: this.jobsInFlight, create: false }, this.catalog));
    }
  }

  /** The credits tool: the account's balance and this session's budget. */
  async credits(): Promise<CallToolResult> {
    try {
      const account = (await (this.client.getAccountCredits as () => Promise<unknown>)()) as Record<string, unknown>;
      const { budget, committed, remaining } = this.budget.state;
      const session =
        budget === undefined
          ? "no budget is set, so no priced create is sent"
          : budget === null
            ? `no budget limit; ${committed} credits committed`
            : `${committed} of ${budget} credits committed, ${remaining} left`;
      return toolResult(`Account: ${JSON.stringify(account)}. This session: ${session}.`, {
        account,
        session: this.budget.state,
      });
    } catch (error) {
      return toolError(agentMessage(error, { jobsInFlight: this.jobsInFlight, create: false }, this.catalog));
    }
  }
}
