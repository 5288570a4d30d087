/** The client-wide pause after a 429 that names its wait, alone. */
import { describe, expect, it, vi } from "vitest";
import { PausedError } from "../../runtime/client/errors.ts";
import { retryAfterPause } from "../../runtime/client/pause.ts";
import { useFakeClock } from "./support.ts";

useFakeClock();

const START = 1_000_000;

describe("the Retry-After pause", () => {
  it("holds nothing until a Retry-After, then until that many seconds from now", () => {
    const pause = retryAfterPause(300_000);
    expect(pause.until).toBe(0);
    pause.hold(7);
    expect(pause.until).toBe(START + 7_000);
  });

  it("a later, shorter Retry-After never shortens the pause; a longer one lengthens it", async () => {
    const pause = retryAfterPause(300_000);
    pause.hold(10);
    await vi.advanceTimersByTimeAsync(1_000);
    pause.hold(2);
    expect(pause.until).toBe(START + 10_000);
    pause.hold(30);
    expect(pause.until).toBe(START + 31_000);
  });

  it("holds the whole wait asked, however long: a cooldown's ten minutes are not cut to the maximum", () => {
    const pause = retryAfterPause(300_000);
    pause.hold(600);
    expect(pause.until).toBe(START + 600_000);
    pause.hold(3_000_000);
    expect(pause.until).toBe(START + 3_000_000_000);
  });

  it("a wait longer than the maximum is not waited: wait rejects at once with a PausedError carrying the seconds left, and starts no timer", async () => {
    const pause = retryAfterPause(300_000);
    pause.hold(600);
    await vi.advanceTimersByTimeAsync(1_500);
    const error = await pause.wait().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PausedError);
    expect(error).toMatchObject({ retryAfterSeconds: 599 });
    expect(String(error)).toBe("PausedError: not sent: a 429 paused the client 599 s more, longer than maxPauseMs");
    expect(vi.getTimerCount()).toBe(0);
    // setTimeout's longest delay is never asked for either (Node would fire it at once).
    pause.hold(3_000_000);
    await expect(pause.wait()).rejects.toMatchObject({ retryAfterSeconds: 3_000_000 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a wait of exactly the maximum is waited out; one lengthened past it meanwhile ends in a PausedError", async () => {
    const pause = retryAfterPause(300_000);
    pause.hold(300);
    let waitedUntil = -1;
    const waiting = pause.wait().then(() => (waitedUntil = Date.now() - START));
    await vi.advanceTimersByTimeAsync(300_000);
    await waiting;
    expect(waitedUntil).toBe(300_000);
    pause.hold(10);
    const lengthened = pause.wait().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_000);
    pause.hold(400);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await lengthened).toMatchObject({ name: "PausedError", retryAfterSeconds: 395 });
  });

  it("wait resolves once the pause is over, a pause lengthened meanwhile included", async () => {
    const pause = retryAfterPause(300_000);
    pause.hold(5);
    let resolvedAt = -1;
    const waiting = pause.wait().then(() => (resolvedAt = Date.now() - START));
    await vi.advanceTimersByTimeAsync(4_000);
    pause.hold(6);
    await vi.advanceTimersByTimeAsync(10_000);
    await waiting;
    expect(resolvedAt).toBe(10_000);
  });
});
