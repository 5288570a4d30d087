/**
 * The uploads-window check (conformance/checks/uploads-window.ts) run on a session of the test's own
 * against the sandbox, with the body conformance/targets/sandbox.json declares for an upload.
 * Specification, Limits: "Uploads: 60 per account per rolling 60 seconds", refused with the
 * rate-limited 429, which carries `Retry-After`. The honest sandbox passes; each planted fault fails
 * the result of the rule it breaks, the detail naming the upload and its answer. Uploads the run
 * made before the check (which the check sees through its observer) count against the window.
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { uploadsWindow } from "../../conformance/checks/uploads-window.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import type { Exchange } from "../../conformance/http.ts";
import { validRequests } from "../../conformance/requests.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { templateOf } from "../../conformance/rules.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { startSandbox, type SandboxHooks } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { bodyOf } from "./faults/support.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";
import { checkSession, jsonExchange, NOWHERE } from "./support/check-session.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const defaults = sandboxDefaults();
const UPLOADS = contract.operations.find((op) => op.facts.operationId === "createUpload") as ContractOperation;
const I_A = contract.operations.find((op) => op.create?.label === "I-A") as ContractOperation;

// Specification, Limits: 60 uploads per account per rolling 60 seconds.
const WINDOW = "60 uploads per 60 s are accepted, the next is refused";
const RETRY_AFTER = "the uploads 429 carries Retry-After";

/**
 * A session sending to `target` the requests the description holds valid (where a validation proxy
 * would be), the others to a port where nothing answers.
 */
const sessionOf = (target: string, config: Partial<TargetConfig> = {}): Session => {
  return checkSession({
    contract,
    config: { ...declared, ...config },
    target,
    targetUrl: NOWHERE,
    proxied: false,
    apiKey: declared.apiKey as string,
    // Shorter than the window: a wait for the 429's Retry-After would pass it, and stop the run at once.
    deadlineMs: 30_000,
    observe: (session, seen) => uploadsWindow.observe?.(session, seen),
  });
};

interface UploadsRun {
  readonly results: CheckResult[];
  /** The check's progress lines. */
  readonly statuses: string[];
  /** Uploads the sandbox answered, by status. */
  readonly answered: Record<number, number>;
}

/**
 * The check run against the sandbox (the description's uploads window unless `perAccount` says
 * otherwise) with `hooks`; `before` sends or shows the check what the run did before it.
 */
async function uploadsRun(
  hooks: SandboxHooks = {},
  perAccount?: number,
  before: (session: Session) => Promise<void> = async () => {},
): Promise<UploadsRun> {
  const answered: Record<number, number> = {};
  const fast = fastSandboxConfig(defaults) as { limits: object };
  const sandbox = await startSandbox({
    config: perAccount === undefined ? fast : { ...fast, limits: { ...fast.limits, uploads: { perAccount } } },
    hooks: {
      ...hooks,
      answer: (answer, call, state) => {
        const changed = hooks.answer?.(answer, call, state) ?? answer;
        if (call?.op.operationId === UPLOADS.facts.operationId)
          answered[changed.status] = (answered[changed.status] ?? 0) + 1;
        return changed;
      },
    },
  });
  try {
    const session = sessionOf(sandbox.url);
    await before(session);
    const statuses: string[] = [];
    await uploadsWindow.run?.({ session, stage: async () => {}, status: (text) => statuses.push(text) });
    return { results: session.results.all, statuses, answered };
  } finally {
    await sandbox.close();
  }
}

/** Fakes Date alone (the check's clock and the sandbox's move together, when the test says), and gives its start. */
function fakeDate(): number {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-01-05T10:00:00Z") });
  return Date.now();
}

const outcomes = (results: CheckResult[]) => results.map(({ route, name, outcome }) => ({ route, name, outcome }));

describe("the uploads-window check on the sandbox", () => {
  let honest: UploadsRun;
  beforeAll(async () => {
    honest = await uploadsRun();
  });

  it("passes 60 accepted uploads and the 61st refused with the rate-limited 429 and Retry-After, sent as requests the description holds valid, the 429 not resent", () => {
    expect(outcomes(honest.results)).toEqual([
      { route: UPLOADS.route, name: WINDOW, outcome: "pass" },
      { route: UPLOADS.route, name: RETRY_AFTER, outcome: "pass" },
    ]);
    expect(honest.answered).toEqual({ 200: 60, 429: 1 });
  });

  it("reports its progress upload by upload, out of the 61 it sends", () => {
    expect(honest.statuses).toHaveLength(61);
    expect(honest.statuses[0]).toBe("upload 1 of 61");
    expect(honest.statuses[60]).toBe("upload 61 of 61");
  });

  it("names each result by a template of its rules (limits.uploads; the window also routes.uploads)", () => {
    expect(templateOf(uploadsWindow, WINDOW)).toBe("{count} uploads per {seconds} s are accepted, the next is refused");
    expect(uploadsWindow.rules?.["{count} uploads per {seconds} s are accepted, the next is refused"]).toEqual([
      "limits.uploads",
      "routes.uploads",
    ]);
    expect(templateOf(uploadsWindow, RETRY_AFTER)).toBe(RETRY_AFTER);
  });
});

describe("the uploads-window check counts the run's earlier uploads within the rolling 60 seconds", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("expects only 59 more after one accepted upload 30 s ago; older, refused and other routes' answers do not count", async () => {
    const start = fakeDate();
    const run = await uploadsRun({}, undefined, async (session) => {
      const request = validRequests(session, UPLOADS, session.main)[0]!;
      const upload = await session.main.send(UPLOADS, request.spec, { positive: true });
      expect(upload.status).toBe(200);
      vi.setSystemTime(start + 30_000);
      const seen = (op: ContractOperation, exchange: Exchange) =>
        uploadsWindow.observe?.(session, { client: session.main, op, exchange, options: {} });
      // Accepted uploads 60 s and more before now: out of the rolling window (the sandbox never saw them).
      seen(UPLOADS, { ...upload, sentAt: start + 30_000 - 60_000, receivedAt: start + 30_000 - 60_000 });
      seen(UPLOADS, { ...upload, sentAt: start + 30_000 - 70_000, receivedAt: start + 30_000 - 70_000 });
      // A refused upload and an accepted create of another route, within the window.
      seen(UPLOADS, { ...upload, status: 429, receivedAt: start + 29_000 });
      seen(I_A, { ...upload, receivedAt: start + 29_000 });
    });
    expect(outcomes(run.results)).toEqual([
      { route: UPLOADS.route, name: WINDOW, outcome: "pass" },
      { route: UPLOADS.route, name: RETRY_AFTER, outcome: "pass" },
    ]);
    expect(run.statuses[0]).toBe("upload 1 of 60");
    expect(run.statuses.at(-1)).toBe("upload 60 of 60");
  });
});

describe("the uploads-window check and an earlier upload leaving the rolling window while it sends", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("counts it no more once it has left: the 60th upload of the check accepted, the 61st refused, passes", async () => {
    const start = fakeDate();
    let uploads = 0;
    const run = await uploadsRun(
      {
        // At the tenth upload answered, 20 s pass: the upload made 50 s before the check leaves the window.
        answer: (answer, call) => {
          if (call?.op.operationId === UPLOADS.facts.operationId && ++uploads === 10) vi.setSystemTime(start + 20_000);
          return answer;
        },
      },
      undefined,
      async (session) => {
        vi.setSystemTime(start - 50_000);
        const request = validRequests(session, UPLOADS, session.main)[0]!;
        expect((await session.main.send(UPLOADS, request.spec, { positive: true })).status).toBe(200);
        vi.setSystemTime(start);
      },
    );
    expect(outcomes(run.results)).toEqual([
      { route: UPLOADS.route, name: WINDOW, outcome: "pass" },
      { route: UPLOADS.route, name: RETRY_AFTER, outcome: "pass" },
    ]);
    // It expected 59 at first; the sandbox took 1 before and 60 of the check's.
    expect(run.statuses[0]).toBe("upload 1 of 60");
    expect(run.answered).toEqual({ 200: 61, 429: 1 });
  });
});

/** Shows the check an accepted upload of the run, sent at `sentAt` and answered at `receivedAt`, which the sandbox never saw. */
const uploadedBefore = (session: Session, sentAt: number, receivedAt: number): void =>
  uploadsWindow.observe?.(session, {
    client: session.main,
    op: UPLOADS,
    exchange: {
      ...jsonExchange({ method: "post", path: UPLOADS.path, headers: {} }, 200, {}),
      sentAt,
      receivedAt,
    },
    options: {},
  });

describe("the uploads-window check judges by the rolling window of each upload's own sending and answer", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fails an upload refused early beside earlier uploads 60 and 70 s old, counting only the 1 in the window", async () => {
    // A window of 59 on a sandbox that saw one upload 30 s ago: the check's 59th upload is refused.
    const start = fakeDate();
    const run = await uploadsRun({}, 59, async (session) => {
      const request = validRequests(session, UPLOADS, session.main)[0]!;
      expect((await session.main.send(UPLOADS, request.spec, { positive: true })).status).toBe(200);
      vi.setSystemTime(start + 30_000);
      uploadedBefore(session, start - 30_000, start - 30_000);
      uploadedBefore(session, start - 40_000, start - 40_000);
    });
    expect(outcomes(run.results)).toEqual([
      { route: UPLOADS.route, name: WINDOW, outcome: "fail" },
      { route: UPLOADS.route, name: RETRY_AFTER, outcome: "pass" },
    ]);
    expect(run.results[0]?.detail).toMatch(/^upload 59 \(with 1 earlier in the window\) answered 429: \{"error":/);
  });

  it("fails a 60th upload accepted while an upload made 30 s before the check still counts", async () => {
    const start = fakeDate();
    // The sandbox never saw it: it accepts 60 of the check's.
    const run = await uploadsRun({}, undefined, async (session) =>
      uploadedBefore(session, start - 30_000, start - 30_000),
    );
    expect(outcomes(run.results)).toEqual([{ route: UPLOADS.route, name: WINDOW, outcome: "fail" }]);
    expect(run.results[0]?.detail).toBe(
      "upload 60 (with 1 earlier in the window) answered 200, not the rate-limited 429",
    );
  });

  it("lets a 60th upload be accepted while an earlier one sent 60 s before leaves the window, answered 59 s before", async () => {
    const start = fakeDate();
    // In the window when each of the check's uploads is sent, out of it by its answer: the target may count it or not.
    const run = await uploadsRun({}, undefined, async (session) =>
      uploadedBefore(session, start - 60_000, start - 59_000),
    );
    expect(outcomes(run.results)).toEqual([
      { route: UPLOADS.route, name: WINDOW, outcome: "pass" },
      { route: UPLOADS.route, name: RETRY_AFTER, outcome: "pass" },
    ]);
    expect(run.answered).toEqual({ 200: 60, 429: 1 });
  });

  it("fails an upload refused early beside such an upload, the detail counting 0 to 1 earlier in the window", async () => {
    const start = fakeDate();
    // A window of 58: the check's 59th upload is refused, though at most one other counts.
    const run = await uploadsRun({}, 58, async (session) => uploadedBefore(session, start - 60_000, start - 59_000));
    expect(outcomes(run.results)).toEqual([
      { route: UPLOADS.route, name: WINDOW, outcome: "fail" },
      { route: UPLOADS.route, name: RETRY_AFTER, outcome: "pass" },
    ]);
    expect(run.results[0]?.detail).toMatch(/^upload 59 \(with 0 to 1 earlier in the window\) answered 429: \{"error":/);
  });
});

describe("the uploads-window check fails a window other than the specification's", () => {
  it("fails an upload refused before 60, quoting at most 200 characters of the answer", async () => {
    // A window of 59: the 60th upload is refused, with a long message.
    const run = await uploadsRun(
      {
        answer: (answer) =>
          answer.status === 429
            ? { ...answer, body: { ...bodyOf(answer), error: { ...bodyOf(answer).error, message: "x".repeat(400) } } }
            : answer,
      },
      59,
    );
    expect(outcomes(run.results)).toEqual([
      { route: UPLOADS.route, name: WINDOW, outcome: "fail" },
      { route: UPLOADS.route, name: RETRY_AFTER, outcome: "pass" },
    ]);
    const detail = run.results[0]?.detail ?? "";
    expect(detail).toMatch(/^upload 60 \(with 0 earlier in the window\) answered 429: \{"error":/);
    expect(detail).not.toContain("x".repeat(200));
    expect(run.answered).toEqual({ 200: 59, 429: 1 });
  });

  it("fails a 61st upload accepted, and sends no more", async () => {
    const run = await uploadsRun({}, 61);
    expect(run.results).toEqual([
      expect.objectContaining({
        route: UPLOADS.route,
        name: WINDOW,
        outcome: "fail",
        detail: "upload 61 (with 0 earlier in the window) answered 200, not the rate-limited 429",
      }),
    ]);
    expect(run.answered).toEqual({ 200: 61 });
  });

  it("fails a 61st upload refused with a 429 that is not the rate-limited one (queue full), and judges no Retry-After", async () => {
    const run = await uploadsRun({
      answer: (answer, call) =>
        call?.op.operationId === UPLOADS.facts.operationId && answer.status === 429
          ? {
              ...answer,
              body: {
                error: {
                  type: "rate_limit_error",
                  code: "queue_full",
                  message: "As many generations are in flight as the plan's concurrency cap allows.",
                },
              },
            }
          : answer,
    });
    expect(run.results).toEqual([
      expect.objectContaining({
        name: WINDOW,
        outcome: "fail",
        detail: "upload 61 (with 0 earlier in the window) answered 429, not the rate-limited 429",
      }),
    ]);
  });

  it("fails a 61st upload answered 503 with the rate-limited body, and judges no Retry-After", async () => {
    const run = await uploadsRun({
      answer: (answer, call) =>
        call?.op.operationId === UPLOADS.facts.operationId && answer.status === 429
          ? { ...answer, status: 503 }
          : answer,
    });
    expect(run.results).toEqual([
      expect.objectContaining({
        name: WINDOW,
        outcome: "fail",
        detail: "upload 61 (with 0 earlier in the window) answered 503, not the rate-limited 429",
      }),
    ]);
  });

  it("fails the rate-limited 429 without Retry-After", async () => {
    const run = await uploadsRun({
      answer: (answer, call) => {
        if (call?.op.operationId !== UPLOADS.facts.operationId || answer.status !== 429) return answer;
        const headers = Object.fromEntries(
          Object.entries(answer.headers).filter(([name]) => name.toLowerCase() !== "retry-after"),
        );
        return { ...answer, headers };
      },
    });
    expect(run.results).toEqual([
      expect.objectContaining({ name: WINDOW, outcome: "pass" }),
      expect.objectContaining({ name: RETRY_AFTER, outcome: "fail", detail: "no Retry-After" }),
    ]);
  });
});

describe("what the uploads-window check needs", () => {
  it("needs a stateful target, uploadRequest declared, and the uploads route implemented", () => {
    const blocked = (config: Partial<TargetConfig>) =>
      uploadsWindow.blockedBy?.(sessionOf("http://127.0.0.1:9", config));
    expect(blocked({})).toBeNull();
    expect(blocked({ stateful: false })).toBe("the target is stateless");
    expect(blocked({ uploadRequest: undefined })).toBe(
      "not declared: the body of an upload, whose shape is not shown (uploadRequest)",
    );
    expect(blocked({ areas: [I_A.area] })).toBe("the target does not implement the uploads route");
  });

  it("is summed up in conformance/README.md's table of check groups as in --help", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(
      `| \`uploads-window\` | ${uploadsWindow.summary} |`,
    );
  });
});
