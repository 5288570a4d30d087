/**
 * The life of a Prism child (mock/prism-process.ts), with a stand-in for Prism
 * (tests/fixtures/prism-process/fake-prism.cjs): a start resolves once the child says it listens,
 * on either stream; a child that exits first fails the start with its exit code or signal and the
 * tail of its output (or nothing, when that output went to stderr); stop ends it with SIGTERM, then
 * SIGKILL if it will not end, and cleans up once; every child not stopped is stopped when this
 * process exits, and a signal with no other listener then ends it as the signal's default would.
 */
import { spawn } from "node:child_process";
import { EventEmitter, once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type ChildSpec,
  type GuardedProcess,
  guardProcessExit,
  LOG_TAIL,
  startChild,
  stopLeftRunning,
} from "../../mock/prism-process.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/prism-process/", import.meta.url));
const FAKE_PRISM = join(FIXTURES, "fake-prism.cjs");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "prism-process-"));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** The marker file a stand-in writes "SIGTERM" to when it is stopped. */
const marker = (): string => join(dir, "ended");

/** A spec running the stand-in in `mode`, counting its cleanups. */
function fake(mode: string, extra: Partial<ChildSpec> = {}): ChildSpec & { cleanups: number } {
  const spec = {
    args: [FAKE_PRISM, mode, marker()],
    env: process.env,
    verbose: false,
    cleanups: 0,
    cleanup: () => {
      spec.cleanups += 1;
    },
    ...extra,
  };
  return spec;
}

/** Why a start was refused; one that started is stopped, then fails the test. */
async function refusal(spec: ChildSpec): Promise<Error> {
  return startChild(spec).then(
    async (running) => {
      await running.stop();
      return expect.unreachable("it started");
    },
    (reason: Error) => reason,
  );
}

describe("startChild", () => {
  it("resolves once the child prints Prism's listening line on stdout, and stop ends it with SIGTERM and cleans up once", async () => {
    const spec = fake("stdout");
    const running = await startChild(spec);
    expect(spec.cleanups).toBe(0);
    expect(existsSync(marker())).toBe(false);
    await running.stop();
    expect(readFileSync(marker(), "utf8")).toBe("SIGTERM");
    expect(spec.cleanups).toBe(1);
    // A second stop finds the child gone: nothing to wait for, and no harm done.
    await running.stop();
  });

  it("resolves on the listening line on stderr too", async () => {
    const running = await startChild(fake("stderr"));
    await running.stop();
    expect(readFileSync(marker(), "utf8")).toBe("SIGTERM");
  });

  it("rejects when the child exits first, naming its exit code and giving its output, and cleans up once", async () => {
    const spec = fake("exit");
    const error = await refusal(spec);
    expect(error.message).toBe("Prism exited (3) before listening:\nthe port is taken\n");
    expect(spec.cleanups).toBe(1);
  });

  it("names the signal that ended a child before it listened", async () => {
    expect((await refusal(fake("killed"))).message).toBe("Prism exited (SIGKILL) before listening:\n");
  });

  it(`keeps the last ${LOG_TAIL} characters of a long output, where the reason is`, async () => {
    const output = `${"x".repeat(30_000)}the last words\n`;
    const { message } = await refusal(fake("long"));
    expect(message).toBe(`Prism exited (1) before listening:\n${output.slice(-LOG_TAIL)}`);
  });

  it("echoes the child's output to stderr when verbose, and keeps none of it for the error", async () => {
    const echoed: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      echoed.push(String(chunk));
      return true;
    });
    const { message } = await refusal(fake("exit", { verbose: true }));
    expect(message).toBe("Prism exited (3) before listening:\n");
    expect(echoed.join("")).toContain("the port is taken\n");
  });

  it("rejects with the spawn's error when the executable cannot start, and cleans up once", async () => {
    const spec = fake("stdout", { executable: join(dir, "no-such-node") });
    const error = await refusal(spec);
    expect(error).toMatchObject({ code: "ENOENT" });
    expect(spec.cleanups).toBe(1);
  });

  it("kills a child that ignores SIGTERM once the grace has passed", async () => {
    const spec = fake("deaf", { killAfterMs: 50 });
    const running = await startChild(spec);
    // Resolves only once the child has exited: SIGTERM alone does not end this one.
    await running.stop();
    expect(existsSync(marker())).toBe(false);
    expect(spec.cleanups).toBe(1);
  });

  it("starts the child with the environment it is given", async () => {
    const env = { ...process.env, FAKE_PRISM_TOLD: "the guard's settings" };
    expect((await refusal(fake("env", { env }))).message).toBe(
      "Prism exited (4) before listening:\ntold: the guard's settings\n",
    );
  });

  it("stopLeftRunning ends the children not stopped yet, and cleans each up", async () => {
    const spec = fake("stdout");
    const running = await startChild(spec);
    const stopped = await startChild(fake("stderr", { args: [FAKE_PRISM, "stderr"] }));
    await stopped.stop();
    stopLeftRunning();
    expect(spec.cleanups).toBe(1);
    await vi.waitFor(() => expect(readFileSync(marker(), "utf8")).toBe("SIGTERM"));
    await running.stop();
  });
});

describe("guardProcessExit, on a stand-in for the process", () => {
  const standIn = () =>
    Object.assign(new EventEmitter(), { exit: vi.fn() }) as unknown as GuardedProcess &
      EventEmitter & { exit: ReturnType<typeof vi.fn> };

  it("listens once for the exit and each ending signal, however often it is called", () => {
    const target = standIn();
    guardProcessExit(target);
    guardProcessExit(target);
    expect(["exit", "SIGINT", "SIGTERM", "SIGHUP"].map((event) => target.listenerCount(event))).toEqual([1, 1, 1, 1]);
    expect(target.listeners("exit")).toEqual([stopLeftRunning]);
  });

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const)("on %s with no other listener, exits %i as the signal's default would", (signal, code) => {
    const target = standIn();
    guardProcessExit(target);
    target.emit(signal);
    expect(target.exit.mock.calls).toEqual([[code]]);
  });

  it("leaves a signal to the program's own listener when it has one", () => {
    const target = standIn();
    guardProcessExit(target);
    target.on("SIGINT", () => {});
    target.emit("SIGINT");
    expect(target.exit).not.toHaveBeenCalled();
  });

  it("stops the children left running when the process exits", async () => {
    const target = standIn();
    guardProcessExit(target);
    const spec = fake("stdout");
    const running = await startChild(spec);
    target.emit("exit");
    expect(spec.cleanups).toBe(1);
    await vi.waitFor(() => expect(readFileSync(marker(), "utf8")).toBe("SIGTERM"));
    await running.stop();
  });
});

/** Runs tests/fixtures/prism-process/parent.ts until it has started its child, then `end`s it. */
async function parentEnded(how: "throw" | "wait", end: (pid: number) => void): Promise<[number | null, string | null]> {
  const activeMutant = (globalThis as { __stryker__?: { activeMutant?: string } }).__stryker__?.activeMutant;
  const parent = spawn(process.execPath, ["--import", "tsx", join(FIXTURES, "parent.ts"), how, marker()], {
    stdio: ["ignore", "pipe", "pipe"],
    // A mutation run's active mutant, for the module the parent loads (Stryker reads this variable).
    env: { ...process.env, ...(activeMutant === undefined ? {} : { __STRYKER_ACTIVE_MUTANT__: activeMutant }) },
  });
  let stderr = "";
  parent.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = once(parent, "exit") as Promise<[number | null, string | null]>;
  parent.stdout.on("data", (chunk: Buffer) => {
    if (chunk.toString().includes("started") && parent.pid !== undefined) end(parent.pid);
  });
  const result = await exited;
  if (how === "throw") expect(stderr).toContain("the program failed");
  return result;
}

describe("a program that ends with a Prism child running", () => {
  it("stops the child as it exits on an uncaught error", async () => {
    expect(await parentEnded("throw", () => {})).toEqual([1, null]);
    await vi.waitFor(() => expect(readFileSync(marker(), "utf8")).toBe("SIGTERM"));
  });

  it.each([
    ["SIGTERM", 143],
    ["SIGINT", 130],
    ["SIGHUP", 129],
  ] as const)("stops the child on %s and exits %i, as the signal's default would", async (signal, code) => {
    expect(await parentEnded("wait", (pid) => process.kill(pid, signal))).toEqual([code, null]);
    await vi.waitFor(() => expect(readFileSync(marker(), "utf8")).toBe("SIGTERM"));
  });
});
