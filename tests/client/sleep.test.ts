/** The client's abortable sleep alone, on real timers: setTimeout fires a longer delay than its longest at once. */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { sleep } from "../../runtime/client/sleep.ts";

describe("sleep", () => {
  it("caps a delay beyond setTimeout's longest (2 ** 31 - 1 ms) at that longest, rather than ending at once", async () => {
    const caller = new AbortController();
    let ended = 0;
    const sleeps = [2 ** 31 - 1, 2 ** 31, 2 ** 40].map((ms) =>
      sleep(ms, caller.signal).then(
        () => (ended += 1),
        () => undefined,
      ),
    );
    // A timer of 1 ms, which is what an overlong delay becomes, fires before this one.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ended).toBe(0);
    caller.abort();
    await Promise.all(sleeps);
    expect(ended).toBe(0);
  });

  it("leaves no listener on the caller's signal once it ended: a long wait's signal would gather one per sleep", async () => {
    const caller = new AbortController();
    await sleep(1, caller.signal);
    await sleep(1, caller.signal);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  });

  it("rejects at once with the reason of a signal aborted before it starts", async () => {
    const reason = new Error("stopped");
    await expect(sleep(10, AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});
