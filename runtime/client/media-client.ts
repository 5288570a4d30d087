/**
 * The typed client over openapi-fetch. generated/client.ts binds it to the generated `paths` and the
 * route table derived from the description; everything here is generic over both.
 */
import createFetchClient, { type Client } from "openapi-fetch";
import { errorFromResponse } from "./classify.ts";
import { InvalidInputError, MediaServiceError, RateLimitedError, TooManyRequestsError, TransportError, UnexpectedStatusError } from "./errors.ts";
import { InFlightLimiter } from "./limiter.ts";
import { checkMediaInputs } from "./media-inputs.ts";
import { MAX_TIMER_MS, positiveInteger, resolveOptions, type ClientOptions } from "./options.ts";
import { RetryAfterGate, type RateLimitInfo } from "./rate-limit.ts";
import type {
  AreaName,
  CreateBody,
  Created,
  Job,
  RequestBodyOf,
  ResponseOf,
  RouteTable,
  Slug,
  SucceededJob,
  WaitableSlug,
} from "./route-table.ts";
import { sleep } from "./sleep.ts";
import { createTransport } from "./transport.ts";
import { waitForTerminal, type WaitOptions } from "./waiting.ts";

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface CreateResult<Body> {
  /** The id to poll; null where the create response shows none. */
  jobId: string | null;
  created: Body;
}

export interface CreateAndWaitOptions<CreatedBody, JobBody> extends WaitOptions<JobBody> {
  /** Called as soon as the job exists, so a caller can store the id and resume with `wait` later. */
  onJob?: (jobId: string, created: CreatedBody) => void;
}

export interface JobResult<JobBody> {
  jobId: string;
  job: JobBody;
}

export interface AreaClient<Paths, T extends RouteTable, A extends AreaName<T>> {
  /** Sends the create request once: never resent after a lost response, since a duplicate is charged twice. */
  create<S extends Slug<T, A>>(
    slug: S,
    body: CreateBody<Paths, T, A, S>,
    options?: RequestOptions,
  ): Promise<CreateResult<Created<Paths, T, A, S>>>;
  /** Creates the job, hands its id to `onJob`, and waits for the terminal status. */
  createAndWait<S extends WaitableSlug<T, A>>(
    slug: S,
    body: CreateBody<Paths, T, A, S>,
    options?: CreateAndWaitOptions<Created<Paths, T, A, S>, Job<Paths, T, A>>,
  ): Promise<JobResult<SucceededJob<Paths, T, A>> & { created: Created<Paths, T, A, S> }>;
  /** Polls the job once (transient failures are retried). */
  get(id: string, options?: RequestOptions): Promise<Job<Paths, T, A>>;
  /** Waits for the job's terminal status: the result on success, JobFailedError / JobTimedOutError otherwise. */
  wait(id: string, options?: WaitOptions<Job<Paths, T, A>>): Promise<JobResult<SucceededJob<Paths, T, A>>>;
}

export type MediaClient<Paths extends {}, T extends RouteTable> = { [A in AreaName<T>]: AreaClient<Paths, T, A> } & {
  /** Waits for a job of `area`, e.g. one whose id an earlier `onJob` stored. */
  wait<A extends AreaName<T>>(area: A, id: string, options?: WaitOptions<Job<Paths, T, A>>): Promise<JobResult<SucceededJob<Paths, T, A>>>;
  /** The discounted online quote of a request (POST to the cost route). */
  cost(body: RequestBodyOf<Paths, T["costPath"]>, options?: RequestOptions): Promise<ResponseOf<Paths, T["costPath"], "post">>;
  /** The rate-limit headers of the last response that carried them. */
  readonly rateLimit: RateLimitInfo | null;
  /** Epoch milliseconds until which a `Retry-After` pause holds every request (0: none yet). */
  readonly pausedUntil: number;
  /** Job ids of this client's limiter not yet seen terminal (empty without `maxInFlight`). */
  readonly runningJobs: readonly string[];
  /** The underlying openapi-fetch client for the other routes; it shares the auth, the pause and the headers. */
  readonly api: Client<Paths>;
};

type UntypedCall = (method: string, path: string, init: Record<string, unknown>) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** Resend delay after a transient poll failure: 1 s, 2 s, 4 s, ... */
const backoffMs = (attempt: number) => 1000 * 2 ** attempt;

const isTransient = (error: unknown) =>
  (error instanceof TransportError && !error.mayHaveCreatedJob) || (error instanceof UnexpectedStatusError && error.status >= 500);

export function createMediaClient<Paths extends {}, T extends RouteTable>(table: T, clientOptions: ClientOptions<AreaName<T>>): MediaClient<Paths, T> {
  const areaNames = Object.keys(table.areas);
  const options = resolveOptions(clientOptions, areaNames);
  const gate = new RetryAfterGate();
  const limiter = options.maxInFlight === null ? null : new InFlightLimiter(options.maxInFlight);
  let rateLimit: RateLimitInfo | null = null;

  const api = createFetchClient<Paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: createTransport({ fetch: options.fetch, gate, apiKey: options.apiKey, onRateLimit: (info) => (rateLimit = info) }),
  });
  const request = api.request as unknown as UntypedCall;

  async function call(method: string, path: string, init: Record<string, unknown>): Promise<unknown> {
    const { data, error, response } = await request(method, path, init);
    if (!response.ok) throw errorFromResponse({ status: response.status, headers: response.headers, body: error }, table.errors, options.apiKey);
    return data;
  }

  /** Resends after a rate-limit 429 (the gate holds it for Retry-After) and, for polls, after transient failures. */
  async function withRetries<R>(send: () => Promise<R>, retryTransient: boolean, signal?: AbortSignal): Promise<R> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await send();
      } catch (error) {
        if (attempt >= options.maxRetries) throw error;
        if (error instanceof RateLimitedError) {
          if (error.retryAfterSeconds === null) await sleep(backoffMs(attempt), signal);
        } else if (retryTransient && isTransient(error)) {
          await sleep(backoffMs(attempt), signal);
        } else {
          throw error;
        }
      }
    }
  }

  function area(name: string) {
    const found = table.areas[name];
    if (!found) throw new InvalidInputError("area", `must be one of ${areaNames.join(", ")}`);
    return found;
  }

  function route(areaName: string, slug: string) {
    const found = area(areaName).routes[slug];
    if (!found) throw new InvalidInputError("slug", `must be one of ${Object.keys(area(areaName).routes).join(", ")} for ${areaName}`);
    return found;
  }

  function checkId(id: unknown): string {
    if (typeof id !== "string" || id === "") throw new InvalidInputError("id", "must be a non-empty string");
    return id;
  }

  async function create(areaName: string, slug: string, body: unknown, { signal }: RequestOptions = {}): Promise<CreateResult<unknown>> {
    const { path, idField, media } = route(areaName, slug);
    checkMediaInputs(body, media);
    await limiter?.acquire(signal);
    try {
      for (let queueRetry = 0; ; queueRetry += 1) {
        try {
          const created = await withRetries(() => call("post", path, { body, signal }), false, signal);
          const jobId = idField === null ? null : jobIdOf(created, idField, path);
          if (jobId === null) limiter?.giveBack();
          else limiter?.hold(jobId);
          return { jobId, created };
        } catch (error) {
          // A full queue clears when one of our own jobs finishes; a fixed wait is the wrong response.
          // Without own running jobs the 429 may as well be the spend limit, which is never resent.
          const ownJobsRunning = (limiter?.runningJobs.length ?? 0) > 0;
          if (!(error instanceof TooManyRequestsError) || !ownJobsRunning || queueRetry >= options.maxRetries) throw error;
          await limiter?.nextRelease(signal);
        }
      }
    } catch (error) {
      limiter?.giveBack();
      throw error;
    }
  }

  async function get(areaName: string, id: string, { signal }: RequestOptions = {}): Promise<{ status: string }> {
    const { pollPath } = area(areaName);
    const job = (await withRetries(() => call("get", pollPath, { params: { path: { id: checkId(id) } }, signal }), true, signal)) as {
      status: string;
    };
    if (table.terminalStatuses.includes(job.status)) limiter?.finished(id);
    return job;
  }

  async function wait(areaName: string, id: string, waitOptions: WaitOptions<unknown> = {}, knownStatus?: string): Promise<JobResult<unknown>> {
    const { intervalSeconds, resultFields } = area(areaName);
    const jobId = checkId(id);
    const job = await waitForTerminal(
      {
        jobId,
        intervalMs: positiveInteger(
          "intervalMs",
          waitOptions.intervalMs,
          options.pollIntervalMs[areaName] ?? (intervalSeconds ? intervalSeconds.min * 1000 : options.defaultPollIntervalMs),
          MAX_TIMER_MS,
        ),
        deadlineMs: positiveInteger("deadlineMs", waitOptions.deadlineMs, options.deadlineMs, MAX_TIMER_MS),
        terminalStatuses: table.terminalStatuses,
        successStatus: table.successStatus,
        timeoutStatus: table.timeoutStatus,
        resultFields,
        ...(knownStatus === undefined ? {} : { knownStatus }),
        poll: (signal) => get(areaName, jobId, { signal }),
      },
      waitOptions,
    );
    return { jobId, job };
  }

  async function createAndWait(
    areaName: string,
    slug: string,
    body: unknown,
    waitOptions: CreateAndWaitOptions<unknown, unknown> = {},
  ): Promise<JobResult<unknown> & { created: unknown }> {
    if (route(areaName, slug).idField === null) {
      throw new InvalidInputError("slug", `${slug}'s create response shows no job id, so its job cannot be waited on`);
    }
    const { jobId, created } = await create(areaName, slug, body, waitOptions);
    const id = jobId as string;
    waitOptions.onJob?.(id, created);
    const status = (created as { status?: unknown }).status;
    const knownStatus = typeof status === "string" ? status : undefined;
    if (knownStatus !== undefined) waitOptions.onStatus?.(knownStatus, null);
    return { ...(await wait(areaName, id, waitOptions, knownStatus)), created };
  }

  const client: Record<string, unknown> = {
    wait: (areaName: string, id: string, waitOptions?: WaitOptions<unknown>) => wait(areaName, id, waitOptions),
    cost: (body: unknown, { signal }: RequestOptions = {}) => withRetries(() => call("post", table.costPath, { body, signal }), false, signal),
    api,
  };
  Object.defineProperties(client, {
    rateLimit: { get: () => rateLimit, enumerable: true },
    pausedUntil: { get: () => gate.blockedUntil, enumerable: true },
    runningJobs: { get: () => limiter?.runningJobs ?? [], enumerable: true },
  });
  for (const name of areaNames) {
    client[name] = {
      create: (slug: string, body: unknown, requestOptions?: RequestOptions) => create(name, slug, body, requestOptions),
      createAndWait: (slug: string, body: unknown, waitOptions?: CreateAndWaitOptions<unknown, unknown>) =>
        createAndWait(name, slug, body, waitOptions),
      get: (id: string, requestOptions?: RequestOptions) => get(name, id, requestOptions),
      wait: (id: string, waitOptions?: WaitOptions<unknown>) => wait(name, id, waitOptions),
    };
  }
  return client as MediaClient<Paths, T>;
}

/** The job id a create response names in `field` (an integer `job_id` in the legacy image shape). */
function jobIdOf(created: unknown, field: string, path: string): string {
  const value = (created as Record<string, unknown> | null)?.[field];
  if ((typeof value === "string" && value !== "") || (typeof value === "number" && Number.isFinite(value))) return String(value);
  throw new MediaServiceError(`POST ${path}: the response names no job id in ${field}; the job may exist, so it is not resent`);
}
