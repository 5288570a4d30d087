/**
 * The suite proves itself by mutation: against the sandbox with each injected fault (tests/conformance/faults/,
 * each a plausible implementation bug) it must fail, with a failure of the check that stands for the
 * broken rule; against the faultless sandbox it must pass. The sandbox runs with fastSandboxConfig,
 * so that each run takes seconds; the runs go at once, since they mostly wait.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import { TARGET_DEFAULTS, readTargetConfig, type TargetConfig } from "../../conformance/config.ts";
import { Contract } from "../../conformance/contract.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { runConformance } from "../../conformance/run.ts";
import { DEFAULT_CONFIG_FILE } from "../../sandbox/config.ts";
import { FAULTS, hooksFor, type FaultName } from "./faults/registry.ts";
import { startSandbox } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";

const contract = new Contract();
const declared = readTargetConfig({ CONFORMANCE_CONFIG: "conformance/targets/sandbox.json" }, TARGET_DEFAULTS, contract, CHECK_GROUPS);
const defaults = JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, "utf8")) as { jobs?: object };

/** For each fault, the check group that must report it. */
const CAUGHT_BY: Record<FaultName, string> = {
  "wrong-id-prefix": "lifecycle",
  "rate-limit-one-past": "rate-limits",
  "rejected-requests-not-counted": "rate-limits",
  "rate-limited-without-retry-after": "rate-limits",
  "missing-rate-limit-header": "lifecycle",
  "queue-full-with-retry-after": "concurrency",
  "cap-one-short": "concurrency",
  "cap-one-past": "concurrency",
  "polling-counts": "concurrency",
  "charge-on-failure": "billing",
  "moderation-charged": "billing",
  "reservation-not-shown": "billing",
  "search-not-charged": "billing",
  "credits-figure-off": "create-response",
  "wrong-initial-status": "create-response",
  "result-before-succeeded": "lifecycle",
  "status-after-terminal": "lifecycle",
  "unknown-status": "lifecycle",
  "accepts-invalid-body": "request-validation",
  "unauthenticated-accepted": "auth",
  "error-body-without-code": "auth",
  "errors-as-text": "request-validation",
  "plan-gate-open": "plan-gate",
  "retired-model-served": "retired-model",
  "retired-wrong-code": "retired-model",
  "cooldown-after-two": "cooldown",
  "cooldown-after-four": "cooldown",
  "cooldown-without-retry-after": "cooldown",
  "uploads-one-past": "uploads-window",
};

/**
 * Jobs of 0.6 s, polls given up after 3 s; but the concurrency probe needs the cap's jobs to outlast
 * it, also on a loaded machine, so the faults it must catch run with jobs of 2 s.
 */
function timing(faults: FaultName[]): { jobSeconds: number; pollTimeoutSeconds: number } {
  return faults.some((fault) => CAUGHT_BY[fault] === "concurrency") ? { jobSeconds: 2, pollTimeoutSeconds: 6 } : { jobSeconds: 0.6, pollTimeoutSeconds: 3 };
}

/**
 * The two costliest parts of a run, the rate-limit burst (a key's whole window) and the
 * request-validation bodies (hundreds of requests), run only where the faultless run or a fault needs
 * them: each fault's run must show that its check catches it, and the faultless run that no check
 * fails.
 */
const needs = (faults: FaultName[], group: string): boolean => faults.length === 0 || faults.some((fault) => CAUGHT_BY[fault] === group);

async function failuresWith(faults: FaultName[]): Promise<CheckResult[]> {
  const { jobSeconds, pollTimeoutSeconds } = timing(faults);
  const sandbox = await startSandbox({ config: fastSandboxConfig(defaults, jobSeconds), hooks: hooksFor(faults) });
  try {
    const config: TargetConfig = { ...declared, rateLimitBurst: needs(faults, "rate-limits"), skipGroups: needs(faults, "request-validation") ? [] : ["request-validation"], poll: { intervalMs: 150, timeoutSeconds: pollTimeoutSeconds, stablePolls: 1 } };
    const { results } = await runConformance({ target: sandbox.url, config, contract });
    return results.filter((result) => result.outcome === "fail");
  } finally {
    await sandbox.close();
  }
}

describe("the conformance suite against the sandbox with injected faults", () => {
  it("passes against the faultless sandbox", { timeout: 120_000 }, async () => {
    expect((await failuresWith([])).map((failure) => `[${failure.group}] ${failure.name}: ${failure.detail}`)).toEqual([]);
  });

  it("has at least 20 kinds of fault, and knows which check must catch each", () => {
    expect(Object.keys(FAULTS).length).toBeGreaterThanOrEqual(20);
    expect(Object.keys(CAUGHT_BY).sort()).toEqual(Object.keys(FAULTS).sort());
  });

  it("catches every fault, each with a failure of the check for the broken rule", { timeout: 600_000 }, async () => {
    const faults = Object.keys(FAULTS) as FaultName[];
    const verdicts = await Promise.all(
      faults.map(async (fault) => {
        const failures = await failuresWith([fault]);
        return { fault, groups: new Set(failures.map((failure) => failure.group)) };
      }),
    );
    const missed = verdicts.filter(({ fault, groups }) => !groups.has(CAUGHT_BY[fault])).map(({ fault, groups }) => `${fault} (${FAULTS[fault].bug}): expected a ${CAUGHT_BY[fault]} failure, got ${[...groups].join(", ") || "none"}`);
    console.log(`mutation: ${faults.length - missed.length} of ${faults.length} injected faults caught`);
    expect(missed).toEqual([]);
  });
});
