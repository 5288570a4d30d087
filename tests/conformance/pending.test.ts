/** Work started now and awaited later (coordination.ts Pending): a failure meanwhile is held, not left unhandled. */
import { describe, expect, it } from "vitest";
import { Pending } from "../../conformance/coordination.ts";

describe("Pending", () => {
  it("holds a task's failure until settled, which waits for every task and then throws it", async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown): void => void unhandled.push(reason);
    process.on("unhandledRejection", listener);
    try {
      const pending = new Pending();
      let slowEnded = false;
      pending.add(Promise.reject(new Error("socket hang up")));
      pending.add(new Promise<void>((resolve) => setTimeout(() => resolve(void (slowEnded = true)), 30)));
      // Turns pass with the failure not yet awaited, as in a check's loop.
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(pending.size).toBe(2);
      await expect(pending.settled()).rejects.toThrow("socket hang up");
      expect(slowEnded).toBe(true);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", listener);
    }
  });

  it("settles quietly when every task succeeds", async () => {
    const pending = new Pending();
    pending.add(Promise.resolve(1));
    await expect(pending.settled()).resolves.toBeUndefined();
  });
});
