/**
 * The checks of the limits against the sandbox, each run alone (the other groups skipped) with a
 * fault that breaks the one rule a condition of the check stands for: the check must fail on it,
 * and pass on the honest sandbox. npm test's guard of those conditions (mutation testing found
 * them unguarded; the whole self-test, npm run test:conformance, is outside npm test).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import { Contract } from "../../contract/contract.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { runConformance } from "../../conformance/run.ts";
import { DEFAULT_CONFIG_FILE } from "../../sandbox/config.ts";
import { startSandbox, type SandboxHooks } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { bodyOf, tooManyCode } from "./faults/support.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const defaults = JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, "utf8")) as { jobs?: object; limits?: object };
const { remaining: REMAINING } = contract.model.rateLimitHeaders;

/** A per-key window of 8 requests, so that the burst spends one in a few requests. */
const PER_KEY = 8;

/** The results of `group` alone, run against the sandbox with `hooks`. */
async function resultsOf(group: string, hooks: SandboxHooks = {}): Promise<CheckResult[]> {
  const fast = fastSandboxConfig(defaults) as { limits: { requests: object } };
  const sandbox = await startSandbox({
    config: { ...fast, limits: { ...fast.limits, requests: { ...fast.limits.requests, perKey: PER_KEY } } },
    hooks,
  });
  try {
    const config = {
      ...declared,
      rateLimitBurst: true,
      skipGroups: CHECK_GROUPS.filter((other) => other !== group),
      poll: { intervalMs: 150, timeoutSeconds: 3, stablePolls: 1 },
    };
    return (await runConformance({ target: sandbox.url, config, contract })).results.filter(
      (result) => result.group === group,
    );
  } finally {
    await sandbox.close();
  }
}

const outcomes = (results: CheckResult[]) =>
  Object.fromEntries(results.filter((result) => result.route !== "*").map((result) => [result.name, result.outcome]));
const detailOf = (results: CheckResult[], name: string) =>
  JSON.stringify(results.find((result) => result.name === name));

describe("the rate-limit window check", () => {
  const countdown = `${REMAINING} counts down by one per request (rejected requests count)`;
  const refusal = `the request after ${REMAINING} reached 0 gets the rate-limited 429`;

  it("passes the sandbox's window: the count goes down by one per request, and the request after 0 is refused", async () => {
    expect(outcomes(await resultsOf("rate-limits"))).toMatchObject({ [countdown]: "pass", [refusal]: "pass" });
  });

  it(`fails when ${REMAINING} stays the same from one request to the next`, async () => {
    // The count stays at the window's first figure: it never goes down.
    const results = await resultsOf("rate-limits", {
      answer: (answer) =>
        answer.headers[REMAINING] === undefined
          ? answer
          : { ...answer, headers: { ...answer.headers, [REMAINING]: String(PER_KEY - 1) } },
    });
    expect(outcomes(results)[countdown]).toBe("fail");
    expect(detailOf(results, countdown)).toContain(`${REMAINING} went from ${PER_KEY - 1} to ${PER_KEY - 1}`);
  });
});

describe("the spend-limit check", () => {
  const noRetryAfter = "the spend-limit 429 carries no Retry-After";

  it("passes the sandbox's spend-limit 429, which sends no Retry-After", async () => {
    expect(outcomes(await resultsOf("spend-limit"))).toMatchObject({
      [noRetryAfter]: "pass",
      "retrying does not clear the spend limit": "pass",
    });
  });

  it("fails when the spend-limit 429 sends Retry-After (no wait clears the limit)", async () => {
    // One second, so that the suite's client, which honours it, does not wait long before the retry.
    const results = await resultsOf("spend-limit", {
      answer: (answer, _call, state) =>
        answer.status === 429 && bodyOf(answer).error?.code === tooManyCode(state, "spend-limit")
          ? { ...answer, headers: { ...answer.headers, [contract.model.retryAfterHeader]: "1" } }
          : answer,
    });
    expect(outcomes(results)[noRetryAfter]).toBe("fail");
    expect(detailOf(results, noRetryAfter)).toContain("though no wait clears the limit");
  });
});
