import { describe, expect, it, vi } from "vitest";
import {
  RateLimitedError,
  TooManyRequestsError,
  TransportError,
  UnexpectedStatusError,
} from "../../generated/client.ts";
import { inFlightLimiter } from "../../runtime/client/limiter.ts";
import { slug } from "./labels.ts";
import { drive, inOrder, type Handler, type ScriptedServer } from "./scripted-server.ts";
import { clientOn, created, example, expectNothingMoreSent, IMAGES, job, useFakeClock } from "./support.ts";

useFakeClock();

const IA = slug("image", "I-A");

/**
 * Drives a call to its end and says what the server had received by then, and how long it took: a
 * call that resends nothing gives up at once, with one request, where a resend would come 1 s later.
 */
async function outcome(
  server: ScriptedServer,
  call: Promise<unknown>,
): Promise<{ error: unknown; sent: number; afterMs: number }> {
  const start = Date.now();
  const error = await drive(server, call).catch((e: unknown) => e);
  return { error, sent: server.requests.length, afterMs: Date.now() - start };
}

const rateLimited = (seconds: string) => ({
  status: 429,
  body: example("RateLimited"),
  headers: { "Retry-After": seconds },
});

describe("retries follow the seed", () => {
  it("after a 429 with Retry-After the whole client sends nothing for exactly that many seconds", async () => {
    let posts = 0;
    const handle: Handler = (request) =>
      request.method !== "POST" ? job("processing") : posts++ === 0 ? rateLimited("7") : created("img_1");
    const { server, client } = await clientOn(handle);
    const both = (async () => {
      const creating = client.image.create(IA, { prompt: "x" });
      // Another call of the same client, started once the pause holds, also waits for it.
      while (client.pausedUntil === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      return Promise.all([creating, client.video.get("vid_1")]);
    })();
    const [{ jobId }] = await drive(server, both);
    expect(jobId).toBe("img_1");
    const times = server.requests.map((r) => r.at - 1_000_000);
    expect(times[0]).toBe(0);
    expect(times.slice(1)).toEqual([7_000, 7_000]);
    expect(client.pausedUntil).toBe(1_007_000);
  });

  it("a create is resent after a rate-limit 429 (the service rejected it: no job) but only within the bound", async () => {
    const { server, client } = await clientOn(inOrder(rateLimited("2")), { maxRetries: 2 });
    await expect(drive(server, client.image.create(IA, { prompt: "x" }))).rejects.toBeInstanceOf(RateLimitedError);
    expect(server.requests.map((r) => r.at - 1_000_000)).toEqual([0, 2_000, 4_000]);
  });

  it("a rate-limit 429 without Retry-After is resent after a backoff of 1 s, then 2 s, and pauses nothing else", async () => {
    const { server, client } = await clientOn(inOrder({ status: 429, body: example("RateLimited") }), {
      maxRetries: 2,
    });
    await expect(drive(server, client.image.create(IA, { prompt: "x" }))).rejects.toBeInstanceOf(RateLimitedError);
    expect(server.requests.map((r) => r.at - 1_000_000)).toEqual([0, 1_000, 3_000]);
    expect(client.pausedUntil).toBe(0);
  });

  it("never sends a second create after a lost response", async () => {
    const { server, client } = await clientOn(inOrder({ destroy: true }));
    const error = await drive(server, client.image.createAndWait(IA, { prompt: "x" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).mayHaveCreatedJob).toBe(true);
    expect(server.requests).toHaveLength(1);
    await expectNothingMoreSent(server);
  });

  it("a connection dropped while a create's 200 body streams is a TransportError saying the job may exist, and nothing is resent", async () => {
    const { server, client } = await clientOn(inOrder({ ...created("img_1"), cut: true }));
    const error = await drive(server, client.image.createAndWait(IA, { prompt: "x" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ mayHaveCreatedJob: true });
    expect(String(error)).toMatch(/no usable response .*a create's job may exist/);
    expect(server.requests).toHaveLength(1);
    await expectNothingMoreSent(server);
  });

  it("never resends a create after a 5xx (the job may exist)", async () => {
    const { server, client } = await clientOn(inOrder({ status: 503, body: {} }));
    const { error, sent, afterMs } = await outcome(server, client.video.create(slug("video", "V-E"), { prompt: "x" }));
    expect(error).toBeInstanceOf(UnexpectedStatusError);
    expect({ sent, afterMs }).toEqual({ sent: 1, afterMs: 0 });
    await expectNothingMoreSent(server);
  });

  it("never resends a queue-full or spend-limit 429 without the limiter's own running jobs", async () => {
    for (const name of ["SpendLimitReached", "QueueFull"]) {
      const { server, client } = await clientOn(inOrder({ status: 429, body: example(name) }), {
        limiter: inFlightLimiter(3),
      });
      const { error, sent, afterMs } = await outcome(server, client.image.create(IA, { prompt: "x" }));
      expect(error).toBeInstanceOf(TooManyRequestsError);
      expect({ sent, afterMs }).toEqual({ sent: 1, afterMs: 0 });
      await expectNothingMoreSent(server);
    }
  });

  it("retries a poll after a lost response and a 5xx, with backoff, within the bound", async () => {
    const { server, client } = await clientOn(
      inOrder({ destroy: true }, { status: 502, body: {} }, job("succeeded", IMAGES)),
    );
    const result = await drive(server, client.image.wait("img_1"));
    expect(result.job.status).toBe("succeeded");
    expect(server.requests.map((r) => r.at - 1_000_000)).toEqual([0, 1_000, 3_000]);
  });

  it("retries a poll whose body was cut short like any transient failure", async () => {
    const { server, client } = await clientOn(inOrder({ ...job("processing"), cut: true }, job("succeeded", IMAGES)));
    const result = await drive(server, client.image.get("img_1"));
    expect(result.status).toBe("succeeded");
    expect(server.requests.map((r) => r.at - 1_000_000)).toEqual([0, 1_000]);
  });

  it("spreads the backoff by up to half of it either way, so that clients failing together do not resend together", async () => {
    const times = [];
    for (const random of [0, 0.75]) {
      vi.mocked(Math.random).mockReturnValue(random);
      const { server, client } = await clientOn(
        inOrder({ status: 503, body: {} }, { status: 503, body: {} }, job("processing")),
      );
      const start = Date.now();
      await drive(server, client.image.get("img_1"));
      times.push(server.requests.map((r) => r.at - start));
    }
    expect(times).toEqual([
      [0, 500, 1_500],
      [0, 1_250, 3_750],
    ]);
  });

  it("resends reads after a transient failure, never a search charged per request or a post", async () => {
    const reads = await clientOn(inOrder({ status: 502, body: {} }, { status: 200, body: { total_available: 5 } }));
    expect(await drive(reads.server, reads.client.getAccountCredits())).toEqual({ total_available: 5 });
    expect(reads.server.requests).toHaveLength(2);
    for (const call of [
      (c: typeof reads.client) => c.searchStockMusic({ query: "rain" }),
      (c: typeof reads.client) => c.createPost({ license: "cc0" }),
    ]) {
      const { server, client } = await clientOn(inOrder({ status: 502, body: {} }));
      const { error, sent, afterMs } = await outcome(server, call(client));
      expect(error).toBeInstanceOf(UnexpectedStatusError);
      expect({ sent, afterMs }).toEqual({ sent: 1, afterMs: 0 });
      await expectNothingMoreSent(server);
    }
  });

  it("gives up polling after the bound", async () => {
    const { server, client } = await clientOn(inOrder({ status: 500, body: {} }), { maxRetries: 1 });
    await expect(drive(server, client.image.get("img_1"))).rejects.toBeInstanceOf(UnexpectedStatusError);
    expect(server.requests).toHaveLength(2);
  });

  it("the raw api waits out the pause too; only a 429 sets one, and an answer without rate-limit headers keeps the last ones read", async () => {
    const { server, client } = await clientOn(
      inOrder(
        { status: 200, body: {}, headers: { "Retry-After": "9", "X-RateLimit-Remaining": "4" } },
        { status: 200, body: {} },
        rateLimited("5"),
        { status: 200, body: {} },
      ),
      { maxRetries: 0 },
    );
    await drive(server, client.getAccountCredits());
    await drive(server, client.getAccountCredits());
    expect(client.pausedUntil).toBe(0);
    expect(client.rateLimit).toEqual({ limit: null, remaining: 4, resetSeconds: null });
    await expect(drive(server, client.getAccountCredits())).rejects.toBeInstanceOf(RateLimitedError);
    await drive(server, client.api.GET("/v1/account/credits"));
    expect(server.requests.map((r) => r.at - 1_000_000)).toEqual([0, 0, 0, 5_000]);
  });

  it("an abort during the Retry-After pause ends the call at once", async () => {
    const { server, client } = await clientOn(inOrder(rateLimited("30"), created("img_1")));
    const controller = new AbortController();
    const pending = client.image.create(IA, { prompt: "x" }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop")), 5_000);
    await expect(drive(server, pending)).rejects.toThrow("stop");
    expect(Date.now() - 1_000_000).toBe(5_000);
    await expectNothingMoreSent(server);
  });
});
