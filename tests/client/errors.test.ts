import { describe, expect, it } from "vitest";
import {
  ApiError,
  AuthenticationError,
  CooldownError,
  InvalidInputError,
  InvalidRequestError,
  InvalidResponseError,
  JobFailedError,
  JobTimedOutError,
  MediaServiceError,
  ModelRetiredError,
  ModerationBlockError,
  PermissionError,
  RateLimitedError,
  TooManyRequestsError,
  TransportError,
  UnexpectedStatusError,
  WaitDeadlineError,
  createClient,
} from "../../generated/client.ts";
import { notShownPlaceholders } from "../../conformance/not-shown-examples.ts";
import { loadServiceModel } from "../../model/service-model.ts";
import { inFlightLimiter } from "../../runtime/client/limiter.ts";
import { checkMediaInputs } from "../../generated/media-inputs.ts";
import { slug } from "./labels.ts";
import { drive, inOrder } from "./scripted-server.ts";
import { API_KEY, clientOn, example, useFakeClock } from "./support.ts";

useFakeClock();

const IA = slug("image", "I-A");

const RATE_HEADERS = { "X-RateLimit-Limit": "600", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "17" };

const none = { type: undefined, code: undefined };

/** The examples' stand-ins for a type or code the seed does not show, which a mock sends as they are. */
const STAND_INS = notShownPlaceholders(loadServiceModel());

/** An example body as a service that sends no type or code where the seed shows none: its stand-ins left out. */
function withoutStandIns(body: unknown): unknown {
  const error = (body as { error?: unknown }).error;
  if (typeof error !== "object" || error === null) return body;
  const shown = Object.entries(error).filter(
    ([field, value]) => !(["type", "code"].includes(field) && STAND_INS.includes(value as string)),
  );
  return { ...(body as object), error: Object.fromEntries(shown) };
}

const invalid = { type: "invalid_request_error", code: "model_not_available" };

/**
 * Each error response of the seed, with its body taken from the description's examples. Where the
 * seed shows no type or code, the examples hold a stand-in text, which the body sent leaves out.
 */
const cases = [
  {
    name: "401",
    status: 401,
    example: "Unauthorized",
    type: AuthenticationError,
    fields: none,
    message: "HTTP 401: Missing or invalid API key.",
  },
  { name: "403 plan gate", status: 403, example: "Forbidden", type: PermissionError, fields: none },
  { name: "400 invalid request", status: 400, example: "InvalidRequest", type: InvalidRequestError, fields: invalid },
  {
    name: "400 moderation block",
    status: 400,
    example: "ModerationInputCsam",
    type: ModerationBlockError,
    fields: { ...none, restrictionReason: "input_csam" },
  },
  {
    name: "410 model retired",
    status: 410,
    example: "ModelRetired",
    type: ModelRetiredError,
    fields: { type: undefined, code: "model_retired" },
  },
  {
    name: "429 rate limited",
    status: 429,
    example: "RateLimited",
    headers: { "Retry-After": "17" },
    type: RateLimitedError,
    fields: { type: "rate_limit_error", code: "rate_limited", retryAfterSeconds: 17 },
  },
  {
    name: "429 cooldown",
    status: 429,
    example: "Cooldown",
    headers: { "Retry-After": "17" },
    type: CooldownError,
    fields: { ...none, retryAfterSeconds: 17 },
    message: "HTTP 429: Requests to this model family are paused after repeated failures.",
  },
  { name: "429 queue full", status: 429, example: "QueueFull", type: TooManyRequestsError, fields: none },
  { name: "429 spend limit", status: 429, example: "SpendLimitReached", type: TooManyRequestsError, fields: none },
  { name: "502", status: 502, example: "InvalidRequest", type: UnexpectedStatusError, fields: invalid },
];

/**
 * The example body with the API key (or its redaction) echoed in its message, as a service or proxy
 * that quotes the request back might; the examples carry their message at `error.message`, or as
 * `error` itself.
 */
function echoing(body: unknown, key: string): unknown {
  const echo = (message: unknown) => `${String(message)} (sent with Bearer ${key})`;
  const { error, ...rest } = body as { error: unknown };
  return {
    ...rest,
    error:
      typeof error === "string"
        ? echo(error)
        : { ...(error as object), message: echo((error as { message: unknown }).message) },
  };
}

describe("an error's message", () => {
  it("is the status, then the code where one came, then the body's text where one came", async () => {
    const bodies = [
      { error: { type: "invalid_request_error", code: "model_not_available", message: "No such model." } },
      { error: { code: "model_retired" } },
      { error: "Blocked." },
      {},
    ];
    const messages: string[] = [];
    for (const [index, body] of bodies.entries()) {
      const status = [400, 410, 400, 503][index]!;
      const { server, client } = await clientOn(inOrder({ status, body }), { maxRetries: 0 });
      const error = await drive(server, client.image.create(IA, { prompt: "x" })).catch((e: unknown) => e);
      messages.push((error as Error).message);
    }
    expect(messages).toEqual([
      "HTTP 400 model_not_available: No such model.",
      "HTTP 410 model_retired",
      "HTTP 400: Blocked.",
      "HTTP 503",
    ]);
  });
});

describe("an error's message is one line of a log: at most 500 characters, escapes included", () => {
  it("a message of 500 characters is shown whole; one of 501 or more is cut to its first 500 and marked with …", () => {
    const exactly = "m".repeat(500);
    expect(new MediaServiceError(exactly).message).toBe(exactly);
    for (const length of [501, 502, 10_000])
      expect(new MediaServiceError("m".repeat(length)).message).toBe(`${"m".repeat(500)}…`);
  });

  it("an escaped character counts as its written form: 100 line breaks make 500 characters, shown whole; one more character is cut", () => {
    const breaks = "\n".repeat(100);
    expect(new MediaServiceError(breaks).message).toBe("\\u{a}".repeat(100));
    expect(new MediaServiceError(`${breaks}x`).message).toBe(`${"\\u{a}".repeat(100)}…`);
  });
});

describe("typed errors", () => {
  for (const c of cases) {
    it(`${c.name} is a ${c.type.name} that keeps status, headers and body and never shows the key`, async () => {
      const headers = { ...RATE_HEADERS, ...c.headers, "X-Echo": `Bearer ${API_KEY}` };
      const { server, client } = await clientOn(
        inOrder({ status: c.status, body: echoing(withoutStandIns(example(c.example)), API_KEY), headers }),
        { maxRetries: 0 },
      );
      const error = await drive(server, client.image.create(IA, { prompt: "x" })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(c.type);
      expect(error).toBeInstanceOf(ApiError);
      const apiError = error as ApiError;
      expect(apiError.status).toBe(c.status);
      expect(apiError.body).toEqual(echoing(withoutStandIns(example(c.example)), "[redacted]"));
      expect(apiError.headers.get("X-RateLimit-Limit")).toBe("600");
      expect(apiError.headers.get("X-Echo")).toBe("Bearer [redacted]");
      expect({ type: apiError.type, code: apiError.code }).toEqual({ type: c.fields.type, code: c.fields.code });
      expect(error).toMatchObject(c.fields);
      expect(apiError.message).toMatch(/ \(sent with Bearer \[redacted\]\)$/);
      if (c.message) expect(apiError.message).toBe(`${c.message} (sent with Bearer [redacted])`);
      for (const placeholder of STAND_INS) expect(apiError.message).not.toContain(placeholder);
      const shown = `${String(error)} ${apiError.stack ?? ""} ${JSON.stringify(error)} ${JSON.stringify([...apiError.headers])}`;
      expect(shown).not.toContain(API_KEY);
      expect(server.requests).toHaveLength(1);
    });
  }

  it("a stand-in a mock sends is reported as it was sent: the client knows no mock's placeholders", async () => {
    expect(STAND_INS).toEqual(["(not shown)"]);
    const { server, client } = await clientOn(inOrder({ status: 401, body: example("Unauthorized") }), {
      maxRetries: 0,
    });
    const error = (await drive(server, client.image.create(IA, { prompt: "x" })).catch((e: unknown) => e)) as ApiError;
    expect({ type: error.type, code: error.code }).toEqual({ type: "(not shown)", code: "(not shown)" });
  });

  it("only the one class matches: a moderation block is not an invalid request, a cooldown is not a rate limit", async () => {
    const { server, client } = await clientOn(inOrder({ status: 400, body: example("ModerationStrictModelNsfw") }));
    const error = await drive(server, client.image.create(IA, { prompt: "x" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModerationBlockError);
    expect(error).not.toBeInstanceOf(InvalidRequestError);
    expect((error as ModerationBlockError).restrictionReason).toBe("strict_model_nsfw");
    expect(new CooldownError("m", { status: 429, headers: new Headers(), body: {} }, 1)).not.toBeInstanceOf(
      RateLimitedError,
    );
  });

  it("a cooldown's seconds are read at the top of the body and inside `error` alike (the specification shows neither placement)", async () => {
    for (const body of [
      { error: { message: "cooling down" }, retry_after_seconds: 30 },
      { error: { message: "cooling down", retry_after_seconds: 30 } },
    ]) {
      const { server, client } = await clientOn(inOrder({ status: 429, body }));
      const error = await drive(server, client.image.create(IA, { prompt: "x" })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CooldownError);
      expect(error).toMatchObject({ retryAfterSeconds: 30, status: 429 });
    }
  });

  it("each error names its class, and the job errors say what happened to which job", () => {
    const facts = { status: 400, headers: new Headers(), body: {} };
    const named: Array<[Error, string]> = [
      [new MediaServiceError("m"), "MediaServiceError"],
      [new ApiError("m", facts), "ApiError"],
      [new AuthenticationError("m", facts), "AuthenticationError"],
      [new PermissionError("m", facts), "PermissionError"],
      [new InvalidRequestError("m", facts), "InvalidRequestError"],
      [new ModerationBlockError("m", facts, "input_csam"), "ModerationBlockError"],
      [new ModelRetiredError("m", facts), "ModelRetiredError"],
      [new RateLimitedError("m", facts, 1), "RateLimitedError"],
      [new CooldownError("m", facts, 1), "CooldownError"],
      [new TooManyRequestsError("m", facts), "TooManyRequestsError"],
      [new UnexpectedStatusError("m", facts), "UnexpectedStatusError"],
      [new TransportError("m", false), "TransportError"],
      [new InvalidResponseError("m"), "InvalidResponseError"],
      [new InvalidInputError("slug", "must be one of i-a"), "InvalidInputError"],
    ];
    for (const [error, name] of named) expect(error.name).toBe(name);
    expect(String(new JobFailedError("j1", {}))).toBe("JobFailedError: job j1 failed");
    expect(String(new JobTimedOutError("j1", {}))).toBe("JobTimedOutError: job j1 timed out");
    expect(String(new WaitDeadlineError("j1", "processing", 5))).toBe(
      "WaitDeadlineError: job j1 not terminal after 5 ms (last status processing)",
    );
    expect(String(new InvalidInputError("slug", "must be one of i-a"))).toBe(
      "InvalidInputError: slug: must be one of i-a",
    );
  });

  it("a fetch failure that echoes the key is reported without it", async () => {
    const client = createClient({
      apiKey: API_KEY,
      baseUrl: "http://127.0.0.1:9",
      maxRetries: 0,
      fetch: async (request) => {
        throw new Error(`could not send ${request.headers.get("authorization")}`);
      },
    });
    const error = await client.video.get("vid_1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(String(error)).not.toContain(API_KEY);
    expect(String(error)).toContain("[redacted]");
  });

  it("a moderation body under another status than 400 is that status's error: the specification's blocks are 400s", async () => {
    const { server, client } = await clientOn(
      inOrder({ status: 403, body: { error: "blocked", restriction_reason: "input_csam" } }),
      { maxRetries: 0 },
    );
    const error = await drive(server, client.image.create(IA, { prompt: "x" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).not.toBeInstanceOf(ModerationBlockError);
  });

  it("a rate-limit code or a cooldown's seconds under another status than 429 is that status's error", async () => {
    const bodies = [
      { error: { type: "rate_limit_error", code: "rate_limited", message: "slow down" } },
      { error: { type: "t", code: "c", message: "paused" }, retry_after_seconds: 30 },
    ];
    for (const body of bodies) {
      const { server, client } = await clientOn(inOrder({ status: 400, body, headers: { "Retry-After": "30" } }), {
        maxRetries: 0,
      });
      const error = await drive(server, client.image.create(IA, { prompt: "x" })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect(error).not.toBeInstanceOf(TooManyRequestsError);
    }
  });

  it("a moderation reason the description does not list is an InvalidRequestError, not a mistyped ModerationBlockError", async () => {
    const { server, client } = await clientOn(
      inOrder({ status: 400, body: { error: "blocked", restriction_reason: "input_unknown" } }),
    );
    const error = await drive(server, client.image.create(IA, { prompt: "x" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).not.toBeInstanceOf(ModerationBlockError);
    expect(error).toMatchObject({ message: "HTTP 400: blocked", body: { restriction_reason: "input_unknown" } });
  });

  it("the last response's rate-limit headers are readable", async () => {
    const { server, client } = await clientOn(
      inOrder({
        status: 200,
        body: { status: "processing" },
        headers: { ...RATE_HEADERS, "X-RateLimit-Remaining": "42" },
      }),
    );
    expect(client.rateLimit).toBeNull();
    await drive(server, client.image.get("img_1"));
    expect(client.rateLimit).toEqual({ limit: 600, remaining: 42, resetSeconds: 17 });
  });
});

describe("bad input is refused before anything is sent, naming the field and the rule", () => {
  it("a data URI in a media field that takes URLs only, with the media-input check", async () => {
    const { server, client } = await clientOn(inOrder({ status: 500 }), { checkMediaInputs });
    const error = await client.depthMap
      .create(slug("depthMap", "DM-A"), { video: "data:video/mp4;base64,AAAA" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ field: "body.video" });
    expect(String(error)).toContain("public-url, uploaded-file-url");
    expect(server.requests).toHaveLength(0);
  });

  it("raw base64 inside an array of URLs-only items names the item", async () => {
    const { client } = await clientOn(inOrder({ status: 500 }), { checkMediaInputs });
    const body = { prompt: "x", reference_videos: ["https://files.example.com/a.mp4", "AAAA"] };
    await expect(client.video.create(slug("video", "V-A"), body)).rejects.toMatchObject({
      field: "body.reference_videos[1]",
    });
  });

  it("a body that is not a JSON object, with the media-input check", async () => {
    const { server, client } = await clientOn(inOrder({ status: 500 }), { checkMediaInputs });
    const create = client.depthMap.create as (slug: string, body: unknown) => Promise<unknown>;
    for (const body of [null, "video", 7])
      await expect(create(slug("depthMap", "DM-A"), body)).rejects.toThrow(/^body: must be a JSON object$/);
    expect(server.requests).toHaveLength(0);
  });

  it("a media field, or an item of one, that is not a string, with the media-input check", async () => {
    const { server, client } = await clientOn(inOrder({ status: 500 }), { checkMediaInputs });
    await expect(client.depthMap.create(slug("depthMap", "DM-A"), { video: 42 } as never)).rejects.toThrow(
      /^body\.video: must be a string$/,
    );
    const body = { prompt: "x", reference_videos: ["https://files.example.com/a.mp4", 5] };
    await expect(client.video.create(slug("video", "V-A"), body as never)).rejects.toThrow(
      /^body\.reference_videos\[1\]: must be a string$/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it("without the media-input check, the service judges the media fields", async () => {
    const { server, client } = await clientOn(inOrder({ status: 400, body: example("InvalidRequest") }));
    await expect(
      client.depthMap.create(slug("depthMap", "DM-A"), { video: "data:video/mp4;base64,AAAA" }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
    expect(server.requests).toHaveLength(1);
  });

  it("options: a missing key, a relative base URL, a bad limiter size", () => {
    expect(() => createClient({ apiKey: "", baseUrl: "http://127.0.0.1:1" })).toThrow(
      /^apiKey: must be a non-empty string$/,
    );
    expect(() => createClient({ apiKey: API_KEY, baseUrl: "/v1" })).toThrow(
      /^baseUrl: must be an absolute http\(s\) URL$/,
    );
    expect(() => inFlightLimiter(0)).toThrow(/^maxInFlight: must be a positive integer$/);
    // Counts that may be 0 (no resend, no pause waited out) say "non-negative".
    for (const maxRetries of [-1, 1.5])
      expect(() => createClient({ apiKey: API_KEY, baseUrl: "http://127.0.0.1:1", maxRetries })).toThrow(
        /^maxRetries: must be a non-negative integer$/,
      );
    expect(
      createClient({ apiKey: API_KEY, baseUrl: "http://127.0.0.1:1", maxRetries: 0, maxPauseMs: 0 }),
    ).toBeDefined();
    expect(() => createClient({ apiKey: "a key", baseUrl: "http://127.0.0.1:1" })).toThrow(
      /^apiKey: must be a non-empty string without whitespace$/,
    );
  });

  it("options: each bad one named, with its rule", () => {
    const base = { apiKey: API_KEY, baseUrl: "http://127.0.0.1:1" };
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ apiKey: 4711 }, "apiKey: must be a non-empty string without whitespace"],
      [{ baseUrl: "ftp://files.example.com" }, "baseUrl: must be an absolute http(s) URL"],
      [{ baseUrl: "ftp://files.example.com/https://" }, "baseUrl: must be an absolute http(s) URL"],
      [{ pollIntervalMs: { pictures: 5 } }, "pollIntervalMs.pictures: must be one of image, "],
      [{ pollIntervalMs: { image: 0 } }, "pollIntervalMs.image: must be a positive integer"],
      [{ defaultPollIntervalMs: 0 }, "defaultPollIntervalMs: must be a positive integer"],
      [{ deadlineMs: 2 ** 31 }, "deadlineMs: must be at most 2147483647"],
      [{ requestTimeoutMs: 0 }, "requestTimeoutMs: must be a positive integer"],
      [{ maxPauseMs: -1 }, "maxPauseMs: must be a non-negative integer"],
      [{ maxResponseBytes: 0 }, "maxResponseBytes: must be a positive integer"],
    ];
    for (const [options, message] of refusals)
      expect(() => createClient({ ...base, ...options } as never), message).toThrow(
        new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
      );
    // setTimeout's longest delay itself is a deadline a timer holds.
    expect(createClient({ ...base, deadlineMs: 2 ** 31 - 1 })).toBeDefined();
  });

  it("wait options: a zero interval (a tight poll loop) and a deadline beyond what a timer holds", async () => {
    const { server, client } = await clientOn(inOrder({ status: 500 }));
    await expect(client.image.wait("img_1", { intervalMs: 0 })).rejects.toThrow(
      /^intervalMs: must be a positive integer$/,
    );
    await expect(client.image.wait("img_1", { deadlineMs: 2 ** 31 })).rejects.toThrow(
      /^deadlineMs: must be at most 2147483647$/,
    );
    expect(() => createClient({ apiKey: API_KEY, baseUrl: server.baseUrl, deadlineMs: 30 * 86_400_000 })).toThrow(
      /^deadlineMs: must be at most /,
    );
    expect(server.requests).toHaveLength(0);
  });

  it("createAndWait on a route whose create response names no job id (as from untyped JavaScript)", async () => {
    const { server, client } = await clientOn(inOrder({ status: 500 }));
    const upscale = slug("videoUpscale", "VU-A");
    const createAndWait = client.videoUpscale.createAndWait as (slug: string, body: unknown) => Promise<unknown>;
    await expect(createAndWait(upscale, { upscale_factor: 2 })).rejects.toThrow(
      `slug: ${upscale}'s create response names no job id to wait on`,
    );
    expect(server.requests).toHaveLength(0);
  });

  it("an unknown area at run time (as from untyped JavaScript)", async () => {
    const { server, client } = await clientOn(inOrder({ status: 500 }));
    const wait = client.wait as (area: string, id: string) => Promise<unknown>;
    await expect(wait("pictures", "img_1")).rejects.toThrow(/^area: must be one of image, /);
    expect(server.requests).toHaveLength(0);
  });

  it("an unknown slug at run time (as from untyped JavaScript)", async () => {
    const { client } = await clientOn(inOrder({ status: 500 }));
    const create = client.image.create as (slug: string, body: unknown) => Promise<unknown>;
    await expect(create("i-i", { prompt: "x" })).rejects.toThrow(new RegExp(`^slug: must be one of ${IA}, `));
  });
});
