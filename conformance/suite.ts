/**
 * Runs the registered checks against one target, all at once within the stages of check.ts, with
 * a progress line whenever a check ends and every few seconds. Skipped groups and operations are
 * reported openly; when the run is stopped, every unfinished check says so in the results.
 */
import { once } from "node:events";
import type { Check } from "./check.ts";
import { NoAnswer } from "./client.ts";
import { Stages } from "./coordination.ts";
import { annotateRules, GROUP_SKIPPED } from "./rules.ts";
import { WaitPastDeadline, type Session } from "./session.ts";

/** Seconds between two progress lines while checks run. */
const HEARTBEAT_MS = 5_000;

export async function runSuite(session: Session, checks: readonly Check[]): Promise<void> {
  const { results, config } = session;
  for (const op of session.contract.operations.filter((candidate) => !session.implements(candidate))) {
    results.skip(
      "*",
      op.route,
      "all checks",
      `not implemented by the target (areas: ${config.areas?.join(", ") ?? "all"}; models: ${config.models?.join(", ") ?? "all"})`,
    );
  }
  const stages = new Stages();
  const status = new Map<Check, string>();
  const enrolled: Check[] = [];
  const finished = new Set<Check>();
  const started = Date.now();
  const line = (text: string): void =>
    session.progress(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s] ${text}`);
  // Every check is enrolled before any starts: a check reaching a stage at once (rate-limits' last
  // requests, when it runs first) would otherwise pass the checks enrolled after it.
  const tokens = new Map<Check, ReturnType<Stages["enroll"]>>();
  for (const check of checks) {
    if (!session.runs(check.group)) {
      results.skip(check.group, "*", `group ${check.group}`, GROUP_SKIPPED);
      continue;
    }
    const blocked = check.blockedBy?.(session) ?? null;
    if (blocked) results.skip(check.group, "*", `group ${check.group}`, blocked);
    if (!check.run || blocked) continue;
    tokens.set(check, stages.enroll());
    enrolled.push(check);
    status.set(check, "started");
  }
  const runs = [...tokens].map(([check, token]) =>
    (async () => {
      try {
        await check.run?.({
          session,
          stage: (stage) => stages.reach(token, stage),
          status: (text) => status.set(check, text),
        });
        finished.add(check);
      } catch (error) {
        if (session.signal.aborted) return;
        finished.add(check);
        if (error instanceof WaitPastDeadline) results.skip(check.group, "*", "check finished", error.message);
        else if (error instanceof NoAnswer)
          results.fail(
            check.group,
            error.route,
            "the target answers every request",
            `${error.message}; the check stopped there`,
            session.curl(error.request),
          );
        else
          results.fail(
            check.group,
            "*",
            "check finished",
            `the check stopped on an error: ${(error as Error).stack ?? String(error)}`,
          );
      } finally {
        stages.leave(token);
        status.delete(check);
        if (!session.signal.aborted)
          line(
            `${check.group}: done (${results.all.filter((result) => result.group === check.group && result.outcome === "fail").length} failed)`,
          );
      }
    })(),
  );
  const heartbeat = setInterval(
    () => line([...status].map(([check, text]) => `${check.group}: ${text}`).join("; ")),
    HEARTBEAT_MS,
  );
  heartbeat.unref();
  try {
    await Promise.race([Promise.all(runs), once(session.signal, "abort")]);
  } finally {
    clearInterval(heartbeat);
  }
  for (const check of enrolled) {
    if (!finished.has(check))
      results.skip(check.group, "*", "check finished", `not finished: ${String(session.signal.reason)}`);
  }
  for (const check of checks) if (session.runs(check.group)) check.finish?.(session);
  annotateRules(checks, results.all);
}
