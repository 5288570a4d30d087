/**
 * The readings of what the specification leaves open (behaviour/choices.ts), each as the model
 * applies it: a job whose end is left open (`runMs` Infinity) ends when told; whose failures the
 * cooldown counts together (`cooldownScope`); which ends count as failed generations
 * (`cooldownCounts`). Jobs here end only when told (`ServiceState.endJob`), so that each test says
 * how and when each of its jobs ended.
 */
import { describe, expect, it } from "vitest";
import type { Choices } from "../../behaviour/choices.ts";
import { newCall } from "../../behaviour/rules.ts";
import { answer } from "../../behaviour/service.ts";
import { ServiceState } from "../../behaviour/state.ts";
import { sandboxChoices } from "../../sandbox/choices.ts";
import { resolveConfig } from "../../sandbox/config.ts";
import { configWith, example, KEY, model, routeWhere } from "../sandbox/support.ts";

const SECOND_KEY = "second-key";
/** One paid account with two keys, room for ten jobs in flight and plenty of credits. */
const config = resolveConfig(configWith({ keys: [KEY, SECOND_KEY], concurrency: 10 }), model);

/** A state whose jobs end only when told, with `readings` in place of the sandbox's own. */
const stateWith = (readings: Partial<Choices> = {}): ServiceState =>
  new ServiceState(model, config, {
    ...sandboxChoices(model, config),
    timing: () => ({ runMs: Infinity, retentionMs: Infinity }),
    ...readings,
  });

const { success, timeout } = model.jobStatus;
const failed = model.jobStatus.terminal.find((status) => status !== success && status !== timeout)!;
const family = routeWhere((route) => route.family === model.limits.cooldown.family);
const cheap = routeWhere((route) => route.label === "I-A");
const createOf = (route: typeof family) =>
  model.operations.find((op) => op.path === route.path && op.method === "post")!;

/** A create of `route` by `key` at `now`, with the description's example body. */
const create = (state: ServiceState, route: typeof family, key: string, now: number) =>
  answer(
    state,
    newCall({
      op: createOf(route),
      params: {},
      query: new URLSearchParams(),
      ip: "127.0.0.1",
      key,
      authorization: `Bearer ${key}`,
      now,
      text: JSON.stringify(example(route.path)),
      contentType: "application/json",
      utf8: true,
    }),
  );

/** Creates a job of `route` by `key` at `now` and returns it, still running. */
const started = (state: ServiceState, route: typeof family, key: string, now: number) => {
  const reply = create(state, route, key, now);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return state.jobs.get(String((reply.body as { id: string | number }).id))!;
};

/** Jobs of the cooldown's family, created one by each of `keys` and ended in `outcome`, a millisecond apart. */
function ended(state: ServiceState, keys: readonly string[], outcome: string): void {
  const jobs = keys.map((key, index) => started(state, family, key, 1_000 + index));
  for (const [index, job] of jobs.entries()) state.endJob(job, outcome, 2_000 + index);
}

/** Whether a create in the family by `key`, a second after the jobs ended, is paused by the cooldown (limits.cooldown). */
const paused = (state: ServiceState, key: string): boolean => {
  const reply = create(state, family, key, 3_000);
  if (reply.status === 200) return false;
  // errors.429-cooldown; any other refusal fails the test.
  expect([reply.status, JSON.stringify(reply.body)]).toEqual([
    429,
    expect.stringContaining("paused after repeated failures"),
  ]);
  return true;
};

const { consecutiveFailures } = model.limits.cooldown;
const times = (count: number, key: string): string[] => Array.from({ length: count }, () => key);

describe("a job whose end the choices leave open (runMs Infinity)", () => {
  it("is settled once told it ended, though a job created before it runs on: its slot freed, its success charged", () => {
    const state = stateWith();
    const account = state.accounts.byKey.get(KEY)!;
    started(state, cheap, KEY, 1_000);
    const later = started(state, cheap, KEY, 1_001);
    state.endJob(later, success, 2_000);
    state.catchUp(account, 3_000);
    // limits.concurrency: a cap on jobs in flight; states.charged-on-succeeded: charged when it reaches succeeded.
    expect(account.inFlight).toBe(1);
    expect(later.credits).toBeGreaterThan(0);
    expect(account.ledger.balance().monthlyUsed).toBe(later.credits);
  });
});

describe("cooldownScope: whose failures the cooldown counts together", () => {
  it('"key": each key of an account has its own count; another key of the account is not paused by the failures of the first', () => {
    const state = stateWith({ cooldownScope: "key" });
    ended(state, times(consecutiveFailures, KEY), failed);
    expect(paused(state, KEY)).toBe(true);
    expect(paused(state, SECOND_KEY)).toBe(false);
  });

  it('"key": failures spread over two keys of an account are no run of consecutive failures for either', () => {
    const state = stateWith({ cooldownScope: "key" });
    ended(state, [...times(consecutiveFailures - 1, KEY), SECOND_KEY], failed);
    expect([paused(state, KEY), paused(state, SECOND_KEY)]).toEqual([false, false]);
  });

  it('"account": the keys of an account share one count; failures spread over two keys pause both', () => {
    const state = stateWith({ cooldownScope: "account" });
    ended(state, [...times(consecutiveFailures - 1, KEY), SECOND_KEY], failed);
    expect([paused(state, KEY), paused(state, SECOND_KEY)]).toEqual([true, true]);
  });
});

describe("cooldownCounts: which ends count as failed generations", () => {
  it('"failed": timed-out jobs are no failed generations and pause nothing', () => {
    const state = stateWith({ cooldownCounts: "failed" });
    ended(state, times(consecutiveFailures, KEY), timeout);
    expect(paused(state, KEY)).toBe(false);
  });

  it('"failed": failed jobs count, and pause the family after consecutiveFailures of them', () => {
    const state = stateWith({ cooldownCounts: "failed" });
    ended(state, times(consecutiveFailures, KEY), failed);
    expect(paused(state, KEY)).toBe(true);
  });

  it('"unsuccessful": timed-out jobs count as failures too, as failed ones do', () => {
    for (const outcome of [timeout, failed]) {
      const state = stateWith({ cooldownCounts: "unsuccessful" });
      ended(state, times(consecutiveFailures, KEY), outcome);
      expect(paused(state, KEY), outcome).toBe(true);
    }
  });
});
