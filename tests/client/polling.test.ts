/** pollUntilTerminal alone: when it polls, what it reports, and how a deadline or a signal ends it. */
import { describe, expect, it, vi } from "vitest";
import { WaitDeadlineError } from "../../runtime/client/errors.ts";
import { pollUntilTerminal, type PollOptions, type PolledJob } from "../../runtime/client/polling.ts";
import { useFakeClock } from "./support.ts";

useFakeClock();

const START = 1_000_000;
const terminal = ["succeeded", "failed", "timeout"];

/** A poll answering the statuses in order (the last repeats), recording the fake-clock time of each poll. */
function scripted(...statuses: string[]) {
  const at: number[] = [];
  const signals: AbortSignal[] = [];
  const poll = async (signal: AbortSignal): Promise<PolledJob & { n: number }> => {
    at.push(Date.now() - START);
    signals.push(signal);
    return { status: statuses[Math.min(at.length - 1, statuses.length - 1)] as string, n: at.length };
  };
  return { poll, at, signals };
}

/** Settles the wait, jumping the fake clock from timer to timer. */
async function settle<T>(promise: Promise<T>): Promise<T> {
  let done = false;
  const tracked = promise.finally(() => (done = true));
  tracked.catch(() => undefined);
  while (!done) await vi.advanceTimersToNextTimerAsync();
  return tracked;
}

const isTerminal = (status: string) => terminal.includes(status);
/** A wait of job-1 every 5 s with a 60-s deadline, or the deadline given; `created` and `options` as given. */
const waitFor = (
  poll: (signal: AbortSignal) => Promise<PolledJob>,
  {
    deadlineMs = 60_000,
    created,
    ...options
  }: PollOptions<PolledJob> & { deadlineMs?: number; created?: { status: string } } = {},
) => pollUntilTerminal(poll, "job-1", 5_000, deadlineMs, isTerminal, created, options);

describe("pollUntilTerminal", () => {
  it("polls at once, then every interval, until a terminal status, which it returns; each new status is reported once with its answer", async () => {
    const { poll, at } = scripted("processing", "processing", "completing", "succeeded");
    const seen: Array<[string, unknown]> = [];
    const job = await settle(waitFor(poll, { onStatus: (status, answer) => seen.push([status, answer]) }));
    expect(job).toEqual({ status: "succeeded", n: 4 });
    expect(at).toEqual([0, 5_000, 10_000, 15_000]);
    expect(seen).toEqual([
      ["processing", { status: "processing", n: 1 }],
      ["completing", { status: "completing", n: 3 }],
      ["succeeded", { status: "succeeded", n: 4 }],
    ]);
  });

  it("a failed or timed-out job ends the wait as well: what a terminal status means is the caller's", async () => {
    for (const status of ["failed", "timeout"]) {
      const { poll } = scripted("processing", status);
      expect((await settle(waitFor(poll))).status).toBe(status);
    }
  });

  it("a job created a moment ago: its known status is reported first, with no answer, and the first poll waits one interval", async () => {
    const { poll, at } = scripted("pending", "succeeded");
    const seen: Array<[string, unknown]> = [];
    await settle(
      waitFor(poll, {
        created: { status: "pending" },
        onStatus: (status, answer) => seen.push([status, answer]),
      }),
    );
    expect(at).toEqual([5_000, 10_000]);
    // The first poll's "pending" is no new status.
    expect(seen).toEqual([
      ["pending", null],
      ["succeeded", { status: "succeeded", n: 2 }],
    ]);
  });

  it("ends at the deadline in WaitDeadlineError naming the job and its last status, and polls no more", async () => {
    const { poll, at, signals } = scripted("processing");
    const error = await settle(waitFor(poll, { deadlineMs: 12_000 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitDeadlineError);
    expect(error).toMatchObject({ jobId: "job-1", lastStatus: "processing", deadlineMs: 12_000 });
    expect(Date.now() - START).toBe(12_000);
    expect(at).toEqual([0, 5_000, 10_000]);
    // The poll's signal is the one the deadline aborts, so a poll under way ends too.
    expect(signals.every((signal) => signal.aborted)).toBe(true);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(at).toHaveLength(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("the caller's signal ends a sleep at once with its reason; a terminal job leaves no timer behind", async () => {
    const controller = new AbortController();
    const reason = new Error("caller gave up");
    const { poll, at } = scripted("processing");
    setTimeout(() => controller.abort(reason), 7_000);
    await expect(settle(waitFor(poll, { signal: controller.signal }))).rejects.toBe(reason);
    expect(Date.now() - START).toBe(7_000);
    expect(at).toEqual([0, 5_000]);
    await settle(waitFor(scripted("succeeded").poll));
    expect(vi.getTimerCount()).toBe(0);
  });
});
