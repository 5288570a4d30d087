import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { TARGET_DEFAULTS, type TargetConfig } from "../../conformance/config.ts";
import { Contract } from "../../contract/contract.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { runConformance } from "../../conformance/run.ts";
import { pricedPathOf } from "../client/labels.ts";
import { API_KEY, startFakeService, type Fault, type FakeService } from "./support/fake-service.ts";

const contract = new Contract();

/**
 * The fake implements the image area's I-A route only; its jobs advance one state per poll, and it
 * has no concurrency cap (so that check is skipped). Polls 10 ms apart end a job in a few tens of
 * milliseconds; the jobs of a fault that never ends them are given up after 2 s.
 */
const config: TargetConfig = {
  ...TARGET_DEFAULTS,
  areas: ["images"],
  models: ["I-A"],
  skipGroups: ["concurrency"],
  poll: { intervalMs: 10, timeoutSeconds: 2, stablePolls: 2 },
  timeoutSeconds: 60,
};

let service: FakeService | undefined;
afterEach(async () => {
  await service?.stop();
  service = undefined;
});

async function run(fault: Fault | undefined, proxy = false): Promise<CheckResult[]> {
  service = await startFakeService(contract, fault);
  const { results } = await runConformance({ target: service.baseUrl, apiKey: API_KEY, config, proxy, contract });
  return results;
}

const failures = (results: CheckResult[]): string[] =>
  results
    .filter((result) => result.outcome === "fail")
    .map((result) => `[${result.group}] ${result.name}: ${result.detail}`);

describe("the suite against a correct implementation of I-A", () => {
  it("passes, including Prism's validation proxy (which negative bodies, such as a bare JSON string, bypass), and skips what the target does not declare", {
    timeout: 60_000,
  }, async () => {
    const results = await run(undefined, true);
    expect(failures(results)).toEqual([]);
    const lifecycle = results
      .filter((result) => result.group === "lifecycle" && result.outcome === "pass")
      .map((result) => result.name);
    expect(lifecycle).toContain("no return from a terminal state, terminal state stable");
    expect(lifecycle).toContain("result fields exactly once succeeded");
    expect(results.some((result) => result.group === "prism-proxy" && result.outcome === "pass")).toBe(true);
    expect(
      results.some(
        (result) =>
          result.group === "request-validation" &&
          result.name.startsWith("rejects a body breaking type (#/)") &&
          result.outcome === "pass",
      ),
    ).toBe(true);
    expect(results.some((result) => result.route === `POST ${pricedPathOf("V-A")}` && result.outcome === "skip")).toBe(
      true,
    );
  });
});

/** Each fault, and what a failure naming it must say. */
const FAULT_SIGNATURES: Record<Fault, RegExp> = {
  "missing-required-field": /\[lifecycle\] valid request .*must have required property 'model'/,
  "wrong-enum-value": /\[lifecycle\] only the JobStatus values appear: status "done" is not one of/,
  "accepts-invalid-body": /\[request-validation\] rejects a body breaking .*answered 200, not 400/,
  "missing-rate-limit-header": /required header X-RateLimit-Remaining is missing/,
  "accepts-unauthenticated": /\[auth\] 401 for no Authorization header: answered 200, not 401/,
  "illegal-status-sequence": /\[lifecycle\] no return from a terminal state.*succeeded -> processing/,
};

describe("the suite against deliberately broken implementations", () => {
  for (const [fault, signature] of Object.entries(FAULT_SIGNATURES) as Array<[Fault, RegExp]>) {
    it(`fails and names the fault: ${fault}`, { timeout: 60_000 }, async () => {
      const found = failures(await run(fault));
      expect(found.length).toBeGreaterThan(0);
      expect(
        found.some((line) => signature.test(line)),
        found.slice(0, 5).join("\n"),
      ).toBe(true);
    });
  }

  it("prints, with each failure, a curl command that reproduces it (run here against the broken target)", {
    timeout: 60_000,
  }, async () => {
    const rejected = (await run("accepts-invalid-body"))
      .filter((result) => result.outcome === "fail" && result.group === "request-validation")
      .slice(0, 5);
    expect(rejected.length).toBeGreaterThan(0);
    for (const failure of rejected) {
      const answered = /answered (\d+)/.exec(failure.detail ?? "")?.[1];
      // Asynchronously: the broken target answers from this very process.
      const { stdout } = await promisify(execFile)("bash", ["-c", failure.curl as string], {
        env: { ...process.env, CONFORMANCE_API_KEY: API_KEY },
      });
      expect(stdout.split("\n")[0], failure.curl).toMatch(new RegExp(`^HTTP/1\\.1 ${answered} `));
    }
  });

  it("reports Prism proxy violations beside its own (wrong enum value in a response)", {
    timeout: 60_000,
  }, async () => {
    const results = await run("wrong-enum-value", true);
    const proxy = results.filter((result) => result.group === "prism-proxy" && result.outcome === "fail");
    expect(
      proxy.some((result) => /status.*allowed values/.test(result.detail ?? "")),
      JSON.stringify(proxy.slice(0, 3)),
    ).toBe(true);
  });
});
