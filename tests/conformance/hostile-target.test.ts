/**
 * The suite pointed at a hostile target (support/hostile-target.ts, servers on 127.0.0.1): it
 * redacts every key and credential it holds from what it prints and writes, escapes what the target
 * sends, bounds an answer's size and one request's time (naming the route), and stops in one line
 * at a target that is not the service.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { TARGET_DEFAULTS, type TargetConfig } from "../../conformance/config.ts";
import { Contract } from "../../contract/contract.ts";
import { TargetError } from "../../conformance/http.ts";
import { formatConsole, writeReports } from "../../conformance/report.ts";
import { runConformance } from "../../conformance/run.ts";
import {
  startHostileTarget,
  type HostileKind,
  type HostileOptions,
  type HostileTarget,
} from "./support/hostile-target.ts";

const contract = new Contract();
const CREDITS = contract.byOperationId(contract.model.account.creditsOperationId)!.path;
const KEY = "sk-live-main-0123456789";
const FREE_KEY = "sk-live-free-9876543210";
const PASSWORD = "s3cret-pass";
const config: TargetConfig = {
  ...TARGET_DEFAULTS,
  apiKey: KEY,
  freePlanKey: FREE_KEY,
  areas: ["images", "account"],
  models: ["I-A"],
  poll: { intervalMs: 10, timeoutSeconds: 2, stablePolls: 0 },
  timeoutSeconds: 60,
};

const work = mkdtempSync(join(tmpdir(), "conformance-hostile-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let target: HostileTarget | undefined;
afterEach(async () => {
  await target?.stop();
  target = undefined;
});

/** A run against a hostile target: what it printed (progress and the console report) and wrote (the JSON and JUnit reports). */
async function run(
  kind: HostileKind,
  overrides: Partial<TargetConfig> = {},
  options: HostileOptions = {},
  credentials = "",
) {
  target = await startHostileTarget(kind, CREDITS, options);
  const lines: string[] = [];
  const url = target.url.replace("http://", `http://${credentials}`);
  const { summary, results } = await runConformance({
    target: url,
    config: { ...config, ...overrides },
    contract,
    progress: (line) => lines.push(line),
  });
  const paths = { json: join(work, `${kind}.json`), junit: join(work, `${kind}.junit.xml`) };
  writeReports(paths, summary, results);
  const printed = [...lines, formatConsole(summary, results)].join("\n");
  return {
    summary,
    results,
    printed,
    json: readFileSync(paths.json, "utf8"),
    junit: readFileSync(paths.junit, "utf8"),
  };
}

describe("the suite against a hostile target", () => {
  it("keeps the keys and the target's credentials out of the console, the JSON and the JUnit report, and escapes what the target sends", {
    timeout: 60_000,
  }, async () => {
    const { results, printed, json, junit } = await run("echo", {}, {}, `admin:${PASSWORD}@`);
    const failures = results.filter((result) => result.outcome === "fail");
    // The target echoed the key into answers the reports quote.
    expect(failures.some((failure) => failure.detail?.includes("you sent Bearer [redacted]"))).toBe(true);
    for (const [where, text] of Object.entries({ printed, json, junit })) {
      for (const secret of [KEY, FREE_KEY, PASSWORD, Buffer.from(`admin:${PASSWORD}`).toString("base64")])
        expect(text.includes(secret), `${secret} in ${where}`).toBe(false);
    }
    expect(printed).toContain("http://[redacted]@127.0.0.1");
    // No escape reaches the terminal, and no line a CI runner reads as a command.
    expect(/[\u001b\u0007\u202e\r]/.test(printed)).toBe(false);
    expect(printed.split("\n").filter((line) => line.trimStart().startsWith("::"))).toEqual([]);
    expect(printed).toContain("\\x1b[31mred\\x1b[0m");
    expect(printed).toContain("\\n:\\x3aerror file=x.ts:\\x3apwned");
  });

  it("stops at a target that is not the service, in one line saying what it saw, before any request but the probe's", async () => {
    target = await startHostileTarget("static", CREDITS);
    const lines: string[] = [];
    const attempt = runConformance({
      target: target.url,
      targetName: "--target",
      config,
      contract,
      progress: (line) => lines.push(line),
    });
    await expect(attempt).rejects.toThrow(
      new TargetError(
        `--target: ${target.url} is not the service: GET ${CREDITS} answered 404 with text/plain (9 bytes: "Not Found"), not a body the description documents for it; nor did anything else answer as the service does (without a key: GET ${CREDITS} answered 404 with text/plain (9 bytes: "Not Found"); GET /v1/models answered 404 with text/plain (9 bytes: "Not Found"))`,
      ),
    );
    expect(lines).toEqual([]);
    // The main key's request, then two without a key asking whether anything answers as the service does.
    expect([...target.seen.values()].reduce((sum, count) => sum + count, 0)).toBe(3);
  });

  it("fails a request whose answer passes maxAnswerBytes, naming the route, and reads no more of it", {
    timeout: 60_000,
  }, async () => {
    const { results, summary } = await run("huge", { maxAnswerBytes: 1024 * 1024 }, { bytes: 64 * 1024 * 1024 });
    const bounded = results.filter(
      (result) =>
        result.outcome === "fail" &&
        /: the answer's body passed 1048576 bytes \(maxAnswerBytes, --max-answer-bytes\); the rest was not read/.test(
          result.detail ?? "",
        ),
    );
    expect(bounded.length).toBeGreaterThan(0);
    for (const failure of bounded) expect(failure.detail?.startsWith(`${failure.route}: `)).toBe(true);
    expect(summary.stopped).toBeUndefined();
  });

  it("fails a request that gets no complete answer within requestTimeoutSeconds, naming the route, and the run goes on to its end", {
    timeout: 60_000,
  }, async () => {
    const { results, summary } = await run("drip", { requestTimeoutSeconds: 0.5 }, { dripMs: 100 });
    const timedOut = results.filter(
      (result) =>
        result.outcome === "fail" &&
        /: no complete answer within 0.5 s \(requestTimeoutSeconds, --request-timeout\)/.test(result.detail ?? ""),
    );
    expect(timedOut.length).toBeGreaterThan(0);
    for (const failure of timedOut) expect(failure.detail?.startsWith(`${failure.route}: `)).toBe(true);
    expect(summary.stopped).toBeUndefined();
  });
});
