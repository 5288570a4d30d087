/**
 * A fork of a service state (behaviour/fork.ts) goes its own way: what changes (ledgers, jobs,
 * windows, cooldowns) is copied, what it is built from (the service model, the settings, the
 * choices) is shared, and a job ended in the fork is still running in the original.
 */
import { describe, expect, it } from "vitest";
import { fork } from "../../behaviour/fork.ts";
import { newCall } from "../../behaviour/rules.ts";
import { answer } from "../../behaviour/service.ts";
import { ServiceState } from "../../behaviour/state.ts";
import { resolveConfig } from "../../sandbox/config.ts";
import { sandboxChoices } from "../../sandbox/choices.ts";
import { configWith, KEY, model, routeWhere } from "../sandbox/support.ts";

const config = resolveConfig(configWith(), model);
const create = routeWhere((route) => route.label === "I-A");
const createOp = model.operations.find((op) => op.path === create.path && op.method === "post")!;

/** A state whose jobs end only when told, so that a test ends them. */
const stateOf = (): ServiceState =>
  new ServiceState(model, config, {
    ...sandboxChoices(model, config),
    timing: () => ({ runMs: Infinity, retentionMs: Infinity }),
  });

const created = (state: ServiceState, at: number) =>
  answer(
    state,
    newCall({
      op: createOp,
      params: {},
      query: new URLSearchParams(),
      ip: "127.0.0.1",
      key: KEY,
      authorization: `Bearer ${KEY}`,
      now: at,
      text: JSON.stringify({ prompt: "a lighthouse" }),
      contentType: "application/json",
      utf8: true,
    }),
  );

describe("a fork of a service state", () => {
  it("shares what the state is built from and copies what changes", () => {
    const state = stateOf();
    const copy = fork(state);
    expect(copy).toBeInstanceOf(ServiceState);
    expect(copy.model).toBe(state.model);
    expect(copy.config).toBe(state.config);
    expect(copy.choices).toBe(state.choices);
    expect(copy.accounts).not.toBe(state.accounts);
    expect(copy.jobs).not.toBe(state.jobs);
  });

  it("ends a job in the fork only: the original's job runs on, its account's balance untouched", () => {
    const state = stateOf();
    const reply = created(state, 1_000);
    expect(reply.status).toBe(200);
    const id = String((reply.body as { id: string }).id);
    const copy = fork(state);
    copy.endJob(copy.jobs.get(id)!, model.jobStatus.success, 2_000);
    copy.catchUp(copy.accounts.byKey.get(KEY)!, 3_000);
    state.catchUp(state.accounts.byKey.get(KEY)!, 3_000);
    expect(copy.jobs.statusAt(copy.jobs.get(id)!, 3_000)).toBe(model.jobStatus.success);
    expect(state.jobs.statusAt(state.jobs.get(id)!, 3_000)).not.toBe(model.jobStatus.success);
    const charged = (of: ServiceState) => of.accounts.byKey.get(KEY)!.ledger.balance().monthlyUsed;
    expect(charged(copy)).toBe(12);
    expect(charged(state)).toBe(0);
  });
});
