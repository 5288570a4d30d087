/**
 * The client against a hostile upstream, a real HTTP server on 127.0.0.1: one that never finishes
 * answering, asks for an endless pause, redirects, answers nothing usable, quotes secrets in a body
 * that is not JSON, or sends more than the client reads.
 */
import { describe, expect, it, vi } from "vitest";
import {
  createClient,
  InvalidInputError,
  InvalidResponseError,
  PausedError,
  RateLimitedError,
  TransportError,
  UnexpectedStatusError,
} from "../../generated/client.ts";
import { inFlightLimiter } from "../../runtime/client/limiter.ts";
import { resolveOptions } from "../../runtime/client/options.ts";
import { pathOf, slug } from "./labels.ts";
import { drive, inOrder, type Handler, type Recorded } from "./scripted-server.ts";
import { API_KEY, clientOn, created, example, expectNothingMoreSent, IMAGES, job, useFakeClock } from "./support.ts";

useFakeClock();

const IA = slug("image", "I-A");
const START = 1_000_000;
const realTicks = async (n = 20) => {
  for (let i = 0; i < n; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
};

describe("a hostile upstream", () => {
  it("a create the server accepts but never answers, or answers one byte of, ends at the request timeout (60 s by default) as a TransportError that may have made a job", async () => {
    for (const hang of ["headers", "body"] as const) {
      // globalThis.fetch, not the scripted server's counting one: the fake clock runs while the request hangs.
      const { server, client } = await clientOn(inOrder({ ...created("img_1"), hang }), {
        fetch: (request) => fetch(request),
      });
      const start = Date.now();
      const error = await drive(server, client.image.create(IA, { prompt: "x" })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ mayHaveCreatedJob: true });
      expect(String(error)).toContain("no answer within requestTimeoutMs, 60000 ms");
      expect(Date.now() - start).toBe(60_000);
      expect(server.requests).toHaveLength(1);
    }
  });

  it("requestTimeoutMs bounds each poll too; a poll that timed out is resent like any transient failure", async () => {
    const { server, client } = await clientOn(
      inOrder({ ...job("processing"), hang: "body" }, job("succeeded", IMAGES)),
      {
        fetch: (request) => fetch(request),
        requestTimeoutMs: 2_000,
      },
    );
    const result = await drive(server, client.image.get("img_1"));
    expect(result.status).toBe("succeeded");
    // The timeout, then the first backoff step.
    expect(server.requests.map((r) => r.at - START)).toEqual([0, 3_000]);
  });

  it("an answer whose body is still streaming when the request's time runs out stops being read: the client cancels its stream", async () => {
    const streams = { cancelled: 0 };
    // One chunk of JSON, then nothing: the reading waits on the rest until the request's time runs out.
    const dripping = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start: (controller) => controller.enqueue(new TextEncoder().encode('{"')),
          cancel: () => {
            streams.cancelled += 1;
          },
        }),
        { headers: { "content-type": "application/json" } },
      );
    const client = createClient({
      apiKey: API_KEY,
      baseUrl: "http://127.0.0.1:1",
      maxRetries: 0,
      requestTimeoutMs: 2_000,
      fetch: dripping,
    });
    const typed = client.getAccountCredits().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(streams.cancelled).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(String(await typed)).toContain("no answer within requestTimeoutMs, 2000 ms");
    expect(streams.cancelled).toBe(1);
  });

  it("Retry-After: 3000000 is not waited, nor cut short: the call it answered ends in its RateLimitedError, and every later call in a PausedError, unsent, with no timer past setTimeout's longest delay", async () => {
    const { server, client } = await clientOn(
      inOrder({ status: 429, body: example("RateLimited"), headers: { "Retry-After": "3000000" } }, job("processing")),
    );
    const error = await drive(server, client.image.create(IA, { prompt: "x" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ retryAfterSeconds: 3_000_000 });
    expect(client.pausedUntil).toBe(START + 3_000_000_000);
    await vi.advanceTimersByTimeAsync(300_000);
    const later = await drive(server, client.image.get("img_1")).catch((e: unknown) => e);
    expect(later).toBeInstanceOf(PausedError);
    expect(later).toMatchObject({ retryAfterSeconds: 2_999_700 });
    expect(vi.getTimerCount()).toBe(0);
    expect(server.requests.map((r) => `${r.method} ${r.at - START}`)).toEqual(["POST 0"]);
  });

  it("a 5 MB text/plain error body full of escape sequences goes into no message whole: the message quotes its start, escaped, and the error keeps the body", async () => {
    const hostile = `\u001b[2J\u001b]0;owned\u0007\u202eevil\r\nFAKE LOG LINE ${"\u001b[31mx".repeat(900_000)}`;
    expect(hostile.length).toBeGreaterThan(5_000_000);
    const { server, client } = await clientOn(
      inOrder({ status: 500, raw: hostile, headers: { "content-type": "text/plain" } }),
      { maxRetries: 0 },
    );
    const error = await drive(server, client.getAccountCredits()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedStatusError);
    const { message, body } = error as UnexpectedStatusError;
    expect(message.length).toBeLessThanOrEqual(501);
    expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(message.startsWith("HTTP 500: \\u{1b}[2J\\u{1b}]0;owned\\u{7}\\u{202e}evil\\u{d}\\u{a}FAKE LOG LINE ")).toBe(
      true,
    );
    expect(body).toBe(hostile);
  });

  it("a job's status from the upstream is escaped where a message names it", async () => {
    const { server, client } = await clientOn(inOrder(job("\u001b[31mprocessing\nok")), { deadlineMs: 1_000 });
    const error = await drive(server, client.image.wait("img_1", { intervalMs: 400 })).catch((e: unknown) => e);
    expect(String(error)).toBe(
      "WaitDeadlineError: job img_1 not terminal after 1000 ms (last status \\u{1b}[31mprocessing\\u{a}ok)",
    );
  });

  it("a baseUrl with credentials is refused before anything is sent, by a message that shows none of them", async () => {
    for (const baseUrl of [
      "http://bob:p@ss-secret-1@127.0.0.1:1",
      "http://bob:s3cret-2@127.0.0.1:1/",
      "http://s3cret-3@127.0.0.1:1",
    ]) {
      const error = await (async () =>
        createClient({ apiKey: API_KEY, baseUrl, maxRetries: 0 }).getAccountCredits())().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(String(error)).toBe("InvalidInputError: baseUrl: must hold no credentials: the key goes in apiKey");
      expect(JSON.stringify({ ...(error as object), stack: (error as Error).stack })).not.toMatch(/s3cret|secret|bob/);
    }
  });

  it("a redirect is never followed: a 307 is an UnexpectedStatusError, the create's body goes nowhere else and is not sent twice", async () => {
    const elsewhere = await clientOn(inOrder(created("img_other")));
    for (const target of [`${elsewhere.server.baseUrl}${pathOf("I-A")}`, pathOf("I-A")]) {
      const { server, client } = await clientOn(
        inOrder({ status: 307, headers: { Location: target } }, created("img_1")),
      );
      const error = await drive(server, client.image.create(IA, { prompt: "x" })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnexpectedStatusError);
      expect(error).toMatchObject({ status: 307 });
      expect(server.requests).toHaveLength(1);
      await expectNothingMoreSent(server);
    }
    expect(elsewhere.server.requests).toHaveLength(0);
  });

  it("a poll answered 200 with an empty body or null is an InvalidResponseError naming the poll", async () => {
    for (const reply of [{ status: 200 }, { status: 200, body: null }]) {
      const { server, client } = await clientOn(inOrder(reply));
      const error = await drive(server, client.image.wait("img_1")).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(String(error)).toBe("InvalidResponseError: GET /v1/images/img_1: the answer holds no job");
    }
  });

  it("a create answer whose job id holds the API key is an InvalidResponseError saying so, without the key; nothing is polled", async () => {
    const { server, client } = await clientOn(
      inOrder({ status: 200, body: { id: `img_${API_KEY}`, message: "ok", model: "m", status: "pending" } }),
    );
    const error = await drive(server, client.image.createAndWait(IA, { prompt: "x" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(String(error)).toBe(
      `InvalidResponseError: POST ${pathOf("I-A")}: the job id in id holds the API key; the job may exist`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("a TransportError never quotes a body that is not JSON (V8's parse message would), nor the key", async () => {
    const raw = `PRIVATE-SIGNATURE-${API_KEY} is all you get`;
    const calls: Array<(c: Client) => Promise<unknown>> = [
      (c) => c.image.create(IA, { prompt: "x" }),
      (c) => c.getAccountCredits(),
    ];
    for (const call of calls) {
      const { server, client } = await clientOn(inOrder({ status: 200, raw }), { maxRetries: 0 });
      const error = await drive(server, call(client)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect(String(error)).toContain("no usable response (the body is not valid JSON)");
      expect(String(error)).not.toMatch(/PRIVATE|SECRET/);
    }
  });

  it("inFlightLimiter(1) keeps the slot of a create whose outcome is unknown until the caller settles it", async () => {
    const limiter = inFlightLimiter(1);
    let posts = 0;
    const handle: Handler = (request: Recorded) =>
      request.method !== "POST" ? job("succeeded", IMAGES) : posts++ === 0 ? { destroy: true } : created("img_2");
    const { server, client } = await clientOn(handle, { limiter });
    const lost = await drive(server, client.image.create(IA, { prompt: "a" })).catch((e: unknown) => e);
    expect(lost).toMatchObject({ mayHaveCreatedJob: true });
    expect(limiter.unknown).toBe(1);
    const second = client.image.create(IA, { prompt: "b" });
    await realTicks();
    await vi.advanceTimersByTimeAsync(3_600_000);
    await realTicks();
    // The lost create's job may run: a second create would go over the cap.
    expect(server.requests).toHaveLength(1);
    // The caller found the lost create made no job.
    limiter.settleUnknown(null);
    expect((await drive(server, second)).jobId).toBe("img_2");
    expect(limiter.unknown).toBe(0);
    expect([...limiter.jobs]).toEqual(["img_2"]);
  });

  it("settleUnknown with the job the lost create made hands it the slot, freed when the job is seen terminal", async () => {
    const limiter = inFlightLimiter(1);
    let posts = 0;
    const handle: Handler = (request: Recorded) =>
      request.method !== "POST" ? job("succeeded", IMAGES) : posts++ === 0 ? { destroy: true } : created("img_2");
    const { server, client } = await clientOn(handle, { limiter });
    await drive(server, client.image.create(IA, { prompt: "a" })).catch(() => undefined);
    limiter.settleUnknown("img_1");
    expect([limiter.unknown, [...limiter.jobs]]).toEqual([0, ["img_1"]]);
    await drive(server, client.image.get("img_1"));
    expect(limiter.jobs.size).toBe(0);
    expect((await drive(server, client.image.create(IA, { prompt: "b" }))).jobId).toBe("img_2");
  });

  it("an answer larger than maxResponseBytes is a TransportError, whether its Content-Length says so or it streams; the default is 10 MiB", async () => {
    expect(resolveOptions({ apiKey: API_KEY, baseUrl: "http://127.0.0.1:1" }, {}).maxResponseBytes).toBe(
      10 * 1024 * 1024,
    );
    const big = { ...job("processing"), body: { status: "processing", padding: "x".repeat(2_000) } };
    for (const chunked of [false, true]) {
      const { server, client } = await clientOn(inOrder({ ...big, chunked }), {
        maxResponseBytes: 1_000,
        maxRetries: 0,
      });
      const error = await drive(server, client.image.get("img_1")).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect(String(error)).toContain("the answer is larger than maxResponseBytes, 1000 bytes");
    }
    const { server, client } = await clientOn(inOrder(big), { maxResponseBytes: 2_100 });
    expect((await drive(server, client.image.get("img_1"))).status).toBe("processing");
  });
});

type Client = Awaited<ReturnType<typeof clientOn>>["client"];
