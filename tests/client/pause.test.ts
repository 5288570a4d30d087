/** The client-wide Retry-After pause alone. */
import { describe, expect, it, vi } from "vitest";
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

  it("is cut to its maximum, however long the Retry-After (no timer beyond setTimeout's longest delay)", () => {
    const pause = retryAfterPause(300_000);
    pause.hold(3_000_000);
    expect(pause.until).toBe(START + 300_000);
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
