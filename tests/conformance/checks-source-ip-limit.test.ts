/**
 * The source-ip-limit check (conformance/checks/source-ip-limit.ts) run alone. Specification, Limits:
 * "Requests per source IP | 1200 per minute (default, may be tuned)", "fixed one-minute windows;
 * whichever limit is hit first applies". The sandbox's per-IP limit is made 20 (the declaration
 * says so): a burst of 41 requests over the five crowd keys, none near its own 600, must meet the
 * rate-limited 429; with the per-IP window ignored, all 41 are answered and the check fails.
 */
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CHECK_GROUPS } from "../../conformance/checks/index.ts";
import { sourceIpLimit } from "../../conformance/checks/source-ip-limit.ts";
import { DeclarationError, readTargetConfig, TARGET_DEFAULTS, type TargetConfig } from "../../conformance/config.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { runConformance } from "../../conformance/run.ts";
import { Contract } from "../../contract/contract.ts";
import { ManualClock, type Clock } from "../../sandbox/clock.ts";
import { startSandbox, type SandboxHooks } from "../../sandbox/server.ts";
import { hooksFor } from "./faults/registry.ts";
import { queueFull, replaced } from "./faults/support.ts";
import { checkSession } from "./support/check-session.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const CROWD = declared.sourceIpBurst!.apiKeys;
const CREDITS = "GET /v1/account/credits";
const LIMIT = "requests from one address past its per-IP limit get the rate-limited 429, whichever keys they carry";
const KEYS = "the burst's keys are the target's";
const PER_IP = 20;

interface BurstRun {
  readonly results: CheckResult[];
  readonly requests: Record<string, number>;
}

/**
 * The check alone (or with `groups`) against the default sandbox with a per-IP limit of PER_IP and
 * a per-key one of `perKey` (default the description's), with `hooks`.
 */
async function burstRun(
  hooks: SandboxHooks = {},
  burst: Partial<TargetConfig["sourceIpBurst"]> = {},
  { rateLimitBurst = false, groups = ["source-ip-limit"], perKey = 600, clock = undefined as Clock | undefined } = {},
  runConfig: Partial<TargetConfig> = {},
): Promise<BurstRun> {
  const defaults = sandboxDefaults() as { limits: object };
  const config = { ...defaults, limits: { ...defaults.limits, requests: { perSourceIp: PER_IP, perKey } } };
  const sandbox = await startSandbox({ config, hooks, ...(clock ? { clock } : {}) });
  try {
    const run = await runConformance({
      target: sandbox.url,
      contract,
      config: {
        ...declared,
        rateLimitBurst,
        sourceIpBurst: { apiKeys: CROWD, perSourceIp: PER_IP, ...burst },
        skipGroups: CHECK_GROUPS.filter((group) => !groups.includes(group)),
        ...runConfig,
      },
    });
    return {
      results: run.results.filter((result) => result.group === "source-ip-limit"),
      requests: run.summary.requests,
    };
  } finally {
    await sandbox.close();
  }
}

const resultOf = (run: BurstRun, name: string) => run.results.find((result) => result.name === name);
const burstKeys = (run: BurstRun): number[] =>
  CROWD.map((_key, index) => run.requests[`source-IP burst ${index + 1}`] ?? 0);

describe("the per-IP limit, by a burst over keys", () => {
  it("passes a target whose per-IP window refuses the address once it passes the limit, before any key passes its own", async () => {
    const run = await burstRun();
    expect(resultOf(run, LIMIT)).toMatchObject({ outcome: "pass", route: CREDITS, rules: ["limits.rate.per-ip"] });
    expect(resultOf(run, KEYS)?.outcome).toBe("pass");
    // The 21st request is refused: the keys took turns, and the burst's other senders stopped at once.
    const sent = burstKeys(run).reduce((sum, count) => sum + count, 0);
    expect(sent).toBeGreaterThanOrEqual(PER_IP + 1);
    expect(sent).toBeLessThanOrEqual(PER_IP + declared.parallelRequests);
  });

  it("fails a target that counts requests per key only: all 2 x 20 + 1 are answered within the window", async () => {
    const run = await burstRun(hooksFor(["source-ip-limit-missing"]), { perSourceIp: PER_IP });
    expect(resultOf(run, LIMIT)).toMatchObject({
      outcome: "fail",
      detail:
        "all 41 requests over 5 keys were answered within 60 s, none with 429: a per-IP limit of 20 lets at most 40 through in two windows",
    });
    // Its curl line names the first burst key by its variable, never by the key itself.
    expect(resultOf(run, LIMIT)?.curl).toContain("$CONFORMANCE_SOURCE_IP_KEY_1");
    expect(resultOf(run, LIMIT)?.curl).not.toContain(CROWD[0]);
    // Round robin: no key sends more than its share.
    expect(burstKeys(run)).toEqual([9, 8, 8, 8, 8]);
  });

  it("fails a burst whose 429 is not the rate limiter's, quoting the body's first 200 characters", async () => {
    let answered = 0;
    const run = await burstRun({
      answer: (answer, call, state) => {
        if (!call?.key || !CROWD.includes(call.key) || ++answered !== 3) return answer;
        const full = queueFull(state)!;
        return replaced(answer, { ...full, body: { ...(full.body as object), note: "x".repeat(300) } });
      },
    });
    expect(resultOf(run, LIMIT)?.outcome).toBe("fail");
    const detail = resultOf(run, LIMIT)?.detail ?? "";
    expect(detail).toMatch(/^the burst's 429 is not the rate limiter's: \{"error":/);
    expect(detail.length).toBe("the burst's 429 is not the rate limiter's: ".length + 200);
  });

  it("starts at once after the key burst: another key's 429 holds up the run's other requests, not the burst", async () => {
    // The Free-plan key's burst ends in a rate-limited 429 with nothing left, which the run honours
    // for every key until the window resets: the per-IP burst goes on regardless. The sandbox's clock
    // stands at a window's start, so that reset is a whole minute off, past the run's time limit: a
    // burst that waited for it would end the check at once, failing it, rather than pass late.
    const run = await burstRun(
      {},
      {},
      { rateLimitBurst: true, groups: ["rate-limits", "source-ip-limit"], perKey: 8, clock: new ManualClock(0) },
      { timeoutSeconds: 30 },
    );
    expect(run.requests["free plan"]).toBe(9);
    expect(resultOf(run, LIMIT)?.outcome).toBe("pass");
  });

  it("fails the keys' result naming each declared key the target does not know", async () => {
    const run = await burstRun({}, { apiKeys: [CROWD[0]!, "no-such-key", CROWD[2]!, CROWD[3]!, CROWD[4]!] });
    expect(resultOf(run, KEYS)).toMatchObject({ outcome: "fail", detail: "sourceIpBurst.apiKeys[1] was answered 401" });
    expect(resultOf(run, LIMIT)?.outcome).toBe("pass");
  });
});

describe("a burst longer than a window", () => {
  it("shows nothing, and says why: three windows may have let it through", async () => {
    // A target without any limit, each answer 20 ms late: 41 requests one at a time take over 0.8 s.
    const server = createServer((_request, response) => {
      setTimeout(() => response.writeHead(200, { "content-type": "application/json" }).end("{}"), 20);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const run = await runConformance({
        target: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        contract,
        config: {
          ...declared,
          parallelRequests: 1,
          sourceIpBurst: { apiKeys: CROWD, perSourceIp: PER_IP, windowSeconds: 0.5 as number },
          skipGroups: CHECK_GROUPS.filter((group) => group !== "source-ip-limit"),
        },
      });
      const result = run.results.find((candidate) => candidate.name === LIMIT);
      expect(result?.outcome).toBe("skip");
      expect(result?.detail).toMatch(
        /^the 41 requests took \d+\.\d s, longer than a 0\.5-second window, so they may have spanned three windows: a limit missing is not shown/,
      );
    } finally {
      server.close();
    }
  });
});

describe("what the source-ip-limit check needs", () => {
  const session = (config: Partial<TargetConfig>) => checkSession({ contract, config: { ...declared, ...config } });

  it("needs a stateful target, the burst declared, and an unpriced GET without parameters", () => {
    expect(sourceIpLimit.blockedBy?.(session({ stateful: false }))).toBe("the target is stateless");
    expect(sourceIpLimit.blockedBy?.(session({ sourceIpBurst: undefined }))).toBe(
      "the declaration gives no sourceIpBurst",
    );
    expect(sourceIpLimit.blockedBy?.(session({}))).toBeNull();
    // The image area's GETs need a job id; the stock searches are priced; the cost and posts routes are POSTs.
    for (const areas of [
      ["images", "stock"],
      ["cost", "posts"],
    ])
      expect(sourceIpLimit.blockedBy?.(session({ areas })), areas.join()).toBe(
        "the target implements no unpriced GET route without parameters to send the burst to",
      );
    // The models list's one parameter is optional.
    expect(sourceIpLimit.blockedBy?.(session({ areas: ["models"] }))).toBeNull();
  });

  it("is summed up in conformance/README.md's table of check groups as in --help", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(
      `| \`source-ip-limit\` | ${sourceIpLimit.summary} |`,
    );
  });
});

describe("the sourceIpBurst declaration", () => {
  const work = mkdtempSync(join(tmpdir(), "source-ip-burst-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const read = (burst: unknown, others: object = {}): TargetConfig => {
    const path = join(work, "declaration.json");
    writeFileSync(
      path,
      JSON.stringify({ apiKey: "main-key", freePlanKey: "free-key", ...others, sourceIpBurst: burst }),
    );
    return readTargetConfig({ CONFORMANCE_CONFIG: path }, TARGET_DEFAULTS, contract, CHECK_GROUPS);
  };
  const keys = (count: number) => Array.from({ length: count }, (_, index) => `burst-${index}`);

  it("takes keys enough for twice the description's per-IP limit plus one within each key's own (5 for 2,401 at 600)", () => {
    expect(read({ apiKeys: keys(5) }).sourceIpBurst).toEqual({ apiKeys: keys(5) });
    expect(() => read({ apiKeys: keys(4) })).toThrow(
      new DeclarationError(
        "sourceIpBurst.apiKeys: 4 keys cannot send the 2401 requests that show a per-IP limit of 1200 missing without one passing its own limit of 600; give at least 5",
      ),
    );
  });

  it("counts with the limits the target declares it tunes", () => {
    expect(read({ apiKeys: keys(2), perSourceIp: 10, perKey: 11 }).sourceIpBurst?.perKey).toBe(11);
    expect(() => read({ apiKeys: keys(2), perSourceIp: 10, perKey: 10 })).toThrow(
      "sourceIpBurst.apiKeys: 2 keys cannot send the 21 requests that show a per-IP limit of 10 missing without one passing its own limit of 10; give at least 3",
    );
  });

  it("bounds the limits a target tunes: at most ten times the description's, windows no longer than its minute", () => {
    expect(read({ apiKeys: keys(5), perSourceIp: 12_000, perKey: 6_000, windowSeconds: 60 }).sourceIpBurst).toEqual({
      apiKeys: keys(5),
      perSourceIp: 12_000,
      perKey: 6_000,
      windowSeconds: 60,
    });
    expect(() => read({ apiKeys: keys(5), perSourceIp: 12_001 })).toThrow(
      new DeclarationError(
        "sourceIpBurst.perSourceIp must be at most 12000 (ten times the description's 1200), not 12001",
      ),
    );
    expect(() => read({ apiKeys: keys(5), perKey: 6_001 })).toThrow(
      "sourceIpBurst.perKey must be at most 6000 (ten times the description's 600), not 6001",
    );
    expect(() => read({ apiKeys: keys(5), windowSeconds: 61 })).toThrow(
      "sourceIpBurst.windowSeconds must be at most 60 (the description's window), not 61",
    );
  });

  it("refuses a key given twice, or given by another field (its window is spent elsewhere)", () => {
    expect(() => read({ apiKeys: [...keys(5), "burst-2"] })).toThrow("sourceIpBurst.apiKeys[5]: repeats apiKeys[2]");
    for (const other of ["main-key", "free-key"])
      expect(() => read({ apiKeys: [...keys(4), other] })).toThrow(
        "sourceIpBurst.apiKeys[4]: is a key another field gives; the burst needs keys nothing else in the run uses",
      );
  });

  it("names the setting that is wrong in its shape", () => {
    expect(() => read({ apiKeys: [] })).toThrow("sourceIpBurst.apiKeys must be a non-empty array of keys");
    expect(() => read({ apiKeys: keys(5), windowSeconds: 0 })).toThrow(
      "sourceIpBurst.windowSeconds must be an integer of at least 1",
    );
    expect(() => read({ keys: keys(5) })).toThrow("sourceIpBurst must have apiKeys");
  });
});
