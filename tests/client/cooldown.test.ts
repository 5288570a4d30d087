/**
 * The client against the specification's cooldown: after three failed generations on the
 * content-filtered family, requests to it "pause for ten minutes, growing by ten minutes with each
 * additional failure"; the 429 says how long in `retry_after_seconds` (and, as the rate limiter's,
 * in `Retry-After`). The client waits the whole time asked, up to `maxPauseMs`; past it the call
 * ends in a CooldownError carrying the wait, and nothing is sent before the wait is over.
 */
import { describe, expect, it, vi } from "vitest";
import { CooldownError, PausedError } from "../../generated/client.ts";
import { slug } from "./labels.ts";
import { drive, inOrder, type Handler, type Reply } from "./scripted-server.ts";
import { clientOn, created, example, expectNothingMoreSent, job, useFakeClock } from "./support.ts";

useFakeClock();

const START = 1_000_000;
// I-B's family is the content-filtered one (the specification's I-B section).
const IB = slug("image", "I-B");

/** The description's cooldown body with `seconds` left, with or without the `Retry-After` the specification says it sends. */
const cooldown = (seconds: number, header = true): Reply => ({
  status: 429,
  body: { ...(example("Cooldown") as object), retry_after_seconds: seconds },
  headers: header ? { "Retry-After": String(seconds) } : {},
});
const sentAt = (server: { requests: Array<{ method: string; at: number }> }) =>
  server.requests.map((r) => `${r.method} ${r.at - START}`);

describe("a cooldown 429", () => {
  it("holds the whole client the ten minutes asked (not five), then the create is resent; another call waits as long", async () => {
    for (const header of [true, false]) {
      let posts = 0;
      const handle: Handler = (request) =>
        request.method !== "POST" ? job("processing") : posts++ === 0 ? cooldown(600, header) : created("img_1");
      const { server, client } = await clientOn(handle);
      const both = (async () => {
        const creating = client.image.create(IB, { prompt: "x" });
        while (client.pausedUntil === 0) await new Promise<void>((resolve) => setImmediate(resolve));
        return Promise.all([creating, client.video.get("vid_1")]);
      })();
      const [{ jobId }] = await drive(server, both);
      expect(jobId).toBe("img_1");
      expect(sentAt(server).sort()).toEqual(["GET 600000", "POST 0", "POST 600000"]);
      expect(client.pausedUntil).toBe(START + 600_000);
      vi.setSystemTime(START);
    }
  });

  it("a cooldown that grows by ten minutes with the next failure is waited out as it grows", async () => {
    const { server, client } = await clientOn(inOrder(cooldown(600), cooldown(1_200), created("img_1")));
    expect((await drive(server, client.image.create(IB, { prompt: "x" }))).jobId).toBe("img_1");
    expect(sentAt(server)).toEqual(["POST 0", "POST 600000", "POST 1800000"]);
  });

  it("past maxPauseMs the call ends at once in a CooldownError carrying the wait, and no request of the client goes early", async () => {
    const { server, client } = await clientOn(inOrder(cooldown(600), created("img_1")), { maxPauseMs: 300_000 });
    const error = await drive(server, client.image.create(IB, { prompt: "x" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CooldownError);
    expect(error).toMatchObject({ retryAfterSeconds: 600, status: 429 });
    expect(Date.now()).toBe(START);
    // Longer left than the caller lets a call wait: refused unsent, typed calls and the raw api alike.
    const calls: Array<() => Promise<unknown>> = [
      () => client.image.create(IB, { prompt: "y" }),
      () => client.api.GET("/v1/account/credits"),
    ];
    for (const call of calls) {
      const refused = await drive(server, call()).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(PausedError);
      expect(refused).toMatchObject({ retryAfterSeconds: 600 });
    }
    await vi.advanceTimersByTimeAsync(299_000);
    await expect(client.image.get("img_0")).rejects.toMatchObject({ name: "PausedError", retryAfterSeconds: 301 });
    // Within the maximum now: waited out, and sent when the cooldown ends, not before.
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await drive(server, client.image.create(IB, { prompt: "z" }))).jobId).toBe("img_1");
    expect(sentAt(server)).toEqual(["POST 0", "POST 600000"]);
    await expectNothingMoreSent(server);
  });
});
