/**
 * No false verdicts: against honest reference servers, which differ from the sandbox wherever the
 * specification leaves the choice open (tests/conformance/reference/server.ts: a cap of 25, other id
 * scheme, message texts and extra fields, windows aligned to each key's first request, slow answers
 * with jitter), the suite fails nothing, with the declaration and with none. The slow run leaves out
 * the request-validation bodies (hundreds of requests, each 200 to 500 ms), which the fast runs send.
 * The same two verdicts are asked of an implementation that shares no code with the sandbox.
 */
import { describe, expect, it } from "vitest";
import { TARGET_DEFAULTS, type TargetConfig } from "../../conformance/config.ts";
import { Contract } from "../../contract/contract.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { runConformance } from "../../conformance/run.ts";
import { startIndependent } from "./reference/independent/server.ts";
import { INDEPENDENT_DECLARATION } from "./reference/independent/declaration.ts";
import { KEYS } from "./reference/independent/setup.ts";
import { REFERENCE_CAP, startReference, type RunningReference } from "./reference/server.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";

const contract = new Contract();
const sandboxDeclared = sandboxDeclaration(contract);
/**
 * The reference's declaration: the sandbox's, with its own cap and quick polling, and without the
 * per-IP burst, declared for the description's limits: the reference has the fast sandbox's.
 */
const declared: TargetConfig = {
  ...sandboxDeclared,
  concurrency: REFERENCE_CAP,
  poll: { intervalMs: 150, timeoutSeconds: 20, stablePolls: 1 },
  sourceIpBurst: undefined,
};
/** Nothing declared: only the key to run on (CONFORMANCE_API_KEY), as a first run against a new implementation. */
const undeclared: TargetConfig = TARGET_DEFAULTS;

async function resultsAgainst(
  config: TargetConfig,
  reference: RunningReference,
  apiKey = sandboxDeclared.apiKey!,
): Promise<CheckResult[]> {
  try {
    return (await runConformance({ target: reference.url, config, contract, apiKey })).results;
  } finally {
    await reference.close();
  }
}

const failures = (results: CheckResult[]): string[] =>
  results
    .filter((result) => result.outcome === "fail")
    .map((failure) => `[${failure.group}] ${failure.route} ${failure.name}: ${failure.detail}`);

describe.concurrent("the conformance suite against honest reference servers", () => {
  it("fails nothing with the declaration, and runs the stateful checks (the cap of 25 among them)", {
    timeout: 120_000,
  }, async () => {
    // Jobs of 2 s: the cap's probe needs 25 of them running at once.
    const results = await resultsAgainst(declared, await startReference({ jobSeconds: 2 }));
    expect(failures(results)).toEqual([]);
    const passed = new Set(results.filter((result) => result.outcome === "pass").map((result) => result.group));
    expect([...passed].sort()).toEqual(
      expect.arrayContaining([
        "billing",
        "concurrency",
        "cooldown",
        "cost-quotes",
        "lifecycle",
        "plan-gate",
        "plan-prices",
        "prices",
        "rate-limits",
        "retired-model",
        "spend-limit",
        "uploads-window",
      ]),
    );
    expect(
      results.some(
        (result) =>
          result.outcome === "pass" &&
          result.name === `a create beyond the cap of ${REFERENCE_CAP} is refused as queue full`,
      ),
    ).toBe(true);
  });

  it("fails nothing with no declaration, and says which field would enable each skipped check", {
    timeout: 120_000,
  }, async () => {
    const results = await resultsAgainst(undeclared, await startReference({ jobSeconds: 0.6 }));
    expect(failures(results)).toEqual([]);
    const cap = results.find((result) => result.group === "concurrency" && result.outcome === "skip");
    expect(cap?.detail).toMatch(/\(concurrency\)/);
  });

  it("fails nothing when every answer takes 200 to 500 ms", { timeout: 120_000 }, async () => {
    const config: TargetConfig = {
      ...declared,
      skipGroups: ["request-validation"],
      rateLimitBurst: false,
      parallelRequests: 24,
      // Within the test's own time: the sequence phase, one request at a time, stops starting sequences near it.
      timeoutSeconds: 110,
    };
    expect(
      failures(
        await resultsAgainst(config, await startReference({ jobSeconds: 0.6, latency: { minMs: 200, maxMs: 500 } })),
      ),
    ).toEqual([]);
  });
});

/**
 * Against an implementation written from the specification alone (tests/conformance/reference/independent/,
 * no sandbox code): its own ids, messages, extra fields, header casing, no keep-alive, windows from
 * its start, charges at the moment of success, jobs of random length running at once.
 */
describe.concurrent("the conformance suite against an independent honest implementation", () => {
  it("fails nothing with its declaration, and runs the stateful checks", { timeout: 180_000 }, async () => {
    const results = await resultsAgainst(INDEPENDENT_DECLARATION, await startIndependent(), KEYS.main);
    expect(failures(results)).toEqual([]);
    const passed = new Set(results.filter((result) => result.outcome === "pass").map((result) => result.group));
    expect([...passed].sort()).toEqual(
      expect.arrayContaining([
        "billing",
        "cooldown",
        "cost-quotes",
        "create-response",
        "lifecycle",
        "plan-gate",
        "plan-prices",
        "prices",
        "rate-limits",
        "retired-model",
        "source-ip-limit",
        "spend-limit",
        "uploads-window",
      ]),
    );
    // Its hosted clips (mediaInputs) make the prices per second of a media input observable.
    const passedNames = results.filter((result) => result.outcome === "pass").map((result) => result.name);
    expect(passedNames).toEqual(
      expect.arrayContaining([
        "V-A: each second of video is charged",
        "V-A: each second of reference_videos is charged",
        "DM-A: each second of video is charged",
        // Its declared rates (rates) make the prices whose rates the description does not show observable.
        "V-B: each rate of the price table is charged its quote",
        "V-B: the inputs the price does not name are free",
        "V-C: each rate of the price table is charged its quote",
        "V-C: each second of video is charged",
        "A-A: each rate of the price table is charged its quote",
        "A-A: each second of video is charged",
        // Its declared upscale (upscaleRequests) makes the 1080p-result rates observable.
        "VU-A: each rate of the price table is charged its quote",
      ]),
    );
  });

  it("fails nothing with no declaration on a discounted plan with free image generations and jobs of 200 to 800 ms", {
    timeout: 180_000,
  }, async () => {
    const results = await resultsAgainst(undeclared, await startIndependent({ mainAccount: "discounted" }), KEYS.main);
    expect(failures(results)).toEqual([]);
    expect(results.find((result) => result.group === "billing" && result.outcome === "skip")?.detail).toMatch(
      /\(standardPrices\)/,
    );
  });
});
