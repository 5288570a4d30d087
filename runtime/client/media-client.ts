/**
 * The typed client over openapi-fetch. generated/client.ts binds it to the generated `paths` and the
 * route table derived from the description; everything here is generic over both.
 */
import createFetchClient, { type Client } from "openapi-fetch";
import { errorFromResponse } from "./classify.ts";
import { InvalidInputError, MediaServiceError, TransportError } from "./errors.ts";
import { InFlightLimiter } from "./limiter.ts";
import { checkMediaInputs } from "./media-inputs.ts";
import { serviceMiddleware } from "./middleware.ts";
import { MAX_TIMER_MS, positiveInteger, resolveOptions, type ClientOptions, type RequestOptions } from "./options.ts";
import { readRateLimit, RetryAfterGate, type RateLimitInfo } from "./rate-limit.ts";
import { redact } from "./redact.ts";
import { retryDecision } from "./retry-policy.ts";
import type {
  AreaName,
  CreateBody,
  Created,
  CreatePath,
  Job,
  OperationArguments,
  OperationName,
  OperationResult,
  RouteTable,
  Slug,
  SucceededJob,
  WaitableSlug,
} from "./route-table.ts";
import { sleep } from "./sleep.ts";
import { waitForTerminal, type WaitOptions } from "./waiting.ts";

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
  /** Creates the job, hands its id to `onJob`, and waits for the terminal status (first poll one interval later). */
  createAndWait<S extends WaitableSlug<T, A>>(
    slug: S,
    body: CreateBody<Paths, T, A, S>,
    options?: CreateAndWaitOptions<Created<Paths, T, A, S>, Job<Paths, T, A>>,
  ): Promise<JobResult<SucceededJob<Paths, T, A>> & { created: Created<Paths, T, A, S> }>;
  /** Polls the job once (transient failures are retried). */
  get(id: string, options?: RequestOptions): Promise<Job<Paths, T, A>>;
  /** Waits for the job's terminal status, polling at once: the result on success, JobFailedError / JobTimedOutError otherwise. */
  wait(id: string, options?: WaitOptions<Job<Paths, T, A>>): Promise<JobResult<SucceededJob<Paths, T, A>>>;
}

/**
 * An area's offline quote, present when the client was given `quote`: the standard price of a create
 * request, its body typed per route like `create` (fields the price does not read may be left out).
 * `Media` and `Result` are the price-table entry point's per-path media facts and quote result.
 */
export interface AreaQuote<Paths, T extends RouteTable, A extends AreaName<T>, Media, Result> {
  quote<S extends Slug<T, A>>(
    slug: S,
    body: Partial<CreateBody<Paths, T, A, S>>,
    media?: CreatePath<T, A, S> extends keyof Media ? Media[CreatePath<T, A, S>] : never,
  ): Result;
}

/** One method per other operation of the description, named after its operationId. */
export type OperationMethods<Paths, T extends RouteTable> = {
  [O in OperationName<T>]: (
    ...args: [...OperationArguments<Paths, T["operations"][O]>, options?: RequestOptions]
  ) => Promise<OperationResult<Paths, T["operations"][O]>>;
};

export type MediaClient<Paths extends {}, T extends RouteTable> = { [A in AreaName<T>]: AreaClient<Paths, T, A> } & OperationMethods<Paths, T> & {
  /** Waits for a job of `area`, e.g. one whose id an earlier `onJob` stored. */
  wait<A extends AreaName<T>>(area: A, id: string, options?: WaitOptions<Job<Paths, T, A>>): Promise<JobResult<SucceededJob<Paths, T, A>>>;
  /** The rate-limit headers of the last response that carried them. */
  readonly rateLimit: RateLimitInfo | null;
  /** Epoch milliseconds until which a `Retry-After` pause holds every request (0: none yet). */
  readonly pausedUntil: number;
  /** Job ids of this client's limiter not yet seen terminal (empty without `maxInFlight`). */
  readonly runningJobs: readonly string[];
  /**
   * The underlying openapi-fetch client: it shares the key, the headers and the `Retry-After` pause,
   * and its `use()` adds middleware that every typed method's requests pass as well.
   */
  readonly api: Client<Paths>;
};

/** The client given the offline quote: each area has `quote` as well. */
export type QuotingClient<Paths extends {}, T extends RouteTable, Media, Result> = MediaClient<Paths, T> & {
  [A in AreaName<T>]: AreaQuote<Paths, T, A, Media, Result>;
};

/** What the typed methods send, as openapi-fetch sees an operation it knows nothing about. */
interface AnyOperation {
  parameters: { path?: Record<string, string>; query?: Record<string, unknown> };
  requestBody?: { content: { "application/json": unknown } };
  responses: { default: { content: { "application/json": unknown } } };
}
type AnyPaths = Record<string, Record<"get" | "post", AnyOperation>>;

// A type literal, not an interface: openapi-fetch's init type has an index signature.
type Init = {
  body?: unknown;
  params?: { path?: Record<string, string>; query?: Record<string, unknown> };
  signal?: AbortSignal | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
};

/** A failure before a usable response: the connection failed, or dropped while the body streamed. */
function lostResponse(method: "get" | "post", path: string, init: Init, cause: unknown, apiKey: string): TransportError {
  const where = `${method.toUpperCase()} ${path.replace("{id}", init.params?.path?.id ?? "{id}")}`;
  const reason = cause instanceof Error ? `${cause.message}${cause.cause instanceof Error ? ` (${cause.cause.message})` : ""}` : String(cause);
  const sent = method === "post";
  const effect = sent ? "; the request may have taken effect (a create's job may exist), so it is not resent" : "";
  return new TransportError(redact(`${where}: no usable response (${reason})${effect}`, apiKey), sent);
}

export function createMediaClient<Paths extends {}, T extends RouteTable>(table: T, clientOptions: ClientOptions<AreaName<T>>): MediaClient<Paths, T> {
  const areaNames = Object.keys(table.areas);
  const options = resolveOptions(clientOptions, areaNames);
  const { apiKey, maxRetries } = options;
  const gate = new RetryAfterGate();
  const limiter = options.maxInFlight === null ? null : new InFlightLimiter(options.maxInFlight);
  let rateLimitHeaders: Headers | null = null;

  const api = createFetchClient<Paths>({
    baseUrl: options.baseUrl,
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
    fetch: options.fetch,
  });
  api.use(serviceMiddleware(gate, (headers) => (rateLimitHeaders = headers)));
  // The same client seen through route-agnostic paths: code generic over Paths cannot name a typed route.
  const untyped = api as unknown as Client<AnyPaths>;

  /**
   * Sends under the retry policy (retry-policy.ts); throws the typed error of an error response, or a
   * TransportError when no usable response came. `resend`: whether a lost response may be resent,
   * or "create" (never, but a full queue clears when one of the client's own jobs finishes).
   */
  async function call(method: "get" | "post", path: string, route: Init, requestOptions: RequestOptions | undefined, resend: boolean | "create"): Promise<unknown> {
    // Request options become openapi-fetch's init only when given: absent keys cost nothing per call.
    const init: Init = requestOptions ? { ...route, ...requestOptions } : route;
    for (let resends = 0; ; resends += 1) {
      let failure: unknown;
      try {
        // openapi-fetch reads the body inside: a connection dropped while it streams fails here too.
        const { data, error, response } = await (method === "get" ? untyped.GET(path, init) : untyped.POST(path, init));
        if (response.ok) return data;
        failure = errorFromResponse({ status: response.status, headers: response.headers, body: error }, table.errors, apiKey);
      } catch (error) {
        if (init.signal?.aborted) throw init.signal.reason;
        failure = lostResponse(method, path, init, error, apiKey);
      }
      const decision = retryDecision(failure, {
        resends,
        maxResends: maxRetries,
        resendable: resend === true,
        ownJobsRunning: resend === "create" && (limiter?.runningJobs.length ?? 0) > 0,
      });
      if (decision === null) throw failure;
      await (decision === "own-job-finished" ? limiter?.nextRelease(init.signal) : sleep(decision, init.signal));
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

  async function create(areaName: string, slug: string, body: unknown, requestOptions?: RequestOptions): Promise<CreateResult<unknown>> {
    const { path, idField, media } = route(areaName, slug);
    checkMediaInputs(body, media);
    await limiter?.acquire(requestOptions?.signal);
    try {
      const created = await call("post", path, { body }, requestOptions, "create");
      const jobId = idField === null ? null : jobIdOf(created, idField, path);
      if (jobId === null) limiter?.giveBack();
      else limiter?.hold(jobId);
      return { jobId, created };
    } catch (error) {
      limiter?.giveBack();
      throw error;
    }
  }

  async function get(areaName: string, id: string, requestOptions?: RequestOptions): Promise<{ status: string }> {
    const { pollPath } = area(areaName);
    const jobId = checkId(id);
    const job = (await call("get", pollPath, { params: { path: { id: jobId } } }, requestOptions, true)) as { status: string };
    if (table.terminalStatuses.includes(job.status)) limiter?.finished(jobId);
    return job;
  }

  async function wait(areaName: string, id: string, waitOptions: WaitOptions<unknown> = {}, created?: { status?: unknown }): Promise<JobResult<unknown>> {
    const { intervalSeconds, resultFields } = area(areaName);
    const jobId = checkId(id);
    const knownStatus = typeof created?.status === "string" ? created.status : undefined;
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
        statuses: table,
        resultFields,
        ...(knownStatus === undefined ? {} : { knownStatus }),
        justCreated: created !== undefined,
        apiKey,
        poll: (signal) => get(areaName, jobId, { signal, headers: waitOptions.headers }),
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
    const { jobId, created } = await create(areaName, slug, body, { signal: waitOptions.signal, headers: waitOptions.headers });
    const id = jobId as string;
    waitOptions.onJob?.(id, created);
    const status = (created as { status?: unknown }).status;
    if (typeof status === "string") waitOptions.onStatus?.(status, null);
    return { ...(await wait(areaName, id, waitOptions, created as { status?: unknown })), created };
  }

  const client: Record<string, unknown> = {
    wait: (areaName: string, id: string, waitOptions?: WaitOptions<unknown>) => wait(areaName, id, waitOptions),
    api,
  };
  Object.defineProperties(client, {
    rateLimit: { get: () => rateLimitHeaders && readRateLimit(rateLimitHeaders), enumerable: true },
    pausedUntil: { get: () => gate.blockedUntil, enumerable: true },
    runningJobs: { get: () => limiter?.runningJobs ?? [], enumerable: true },
  });
  const { quote } = clientOptions;
  for (const name of areaNames) {
    client[name] = {
      create: (slug: string, body: unknown, requestOptions?: RequestOptions) => create(name, slug, body, requestOptions),
      createAndWait: (slug: string, body: unknown, waitOptions?: CreateAndWaitOptions<unknown, unknown>) =>
        createAndWait(name, slug, body, waitOptions),
      get: (id: string, requestOptions?: RequestOptions) => get(name, id, requestOptions),
      wait: (id: string, waitOptions?: WaitOptions<unknown>) => wait(name, id, waitOptions),
      ...(quote && { quote: (slug: string, body: unknown, media?: unknown) => quote(route(name, slug).path, body, media) }),
    };
  }
  for (const [name, { method, path, input, resend }] of Object.entries(table.operations)) {
    const send = (init: Init, requestOptions?: RequestOptions) => call(method, path, init, requestOptions, resend);
    client[name] =
      input === "none"
        ? (options?: RequestOptions) => send({}, options)
        : input === "body"
          ? (body: unknown, options?: RequestOptions) => send({ body }, options)
          : (query: Record<string, unknown> | undefined, options?: RequestOptions) => send({ params: { query } }, options);
  }
  return client as MediaClient<Paths, T>;
}

/** The job id a create response names in `field` (an integer `job_id` in the legacy image shape). */
function jobIdOf(created: unknown, field: string, path: string): string {
  const value = (created as Record<string, unknown> | null)?.[field];
  if ((typeof value === "string" && value !== "") || (typeof value === "number" && Number.isFinite(value))) return String(value);
  throw new MediaServiceError(`POST ${path}: the response names no job id in ${field}; the job may exist, so it is not resent`);
}
