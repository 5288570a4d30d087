/** Watching a command the tests start as a child process: its output so far, and waiting for a state. */
import type { ChildProcess } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";

/** The child's stdout and stderr as collected so far. */
export function output(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return { stdout: () => stdout, stderr: () => stderr };
}

/** Polls `probe` every 100 ms until it gives a value; throws naming `what` after `ms`. */
export async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Resolves once `ready()` holds after some output of `child`, and fails when the child exits first.
 * An event, not a deadline: a start slowed by a loaded machine is still a start, and the test's own
 * timeout bounds the wait.
 */
export function readyWhen(child: ChildProcess, ready: () => boolean, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (!ready()) return;
      stop();
      resolve();
    };
    const exited = (code: number | null, signal: string | null): void => {
      stop();
      reject(new Error(`${what}: the process exited (${code ?? signal}) first`));
    };
    const stop = (): void => {
      child.stdout?.off("data", check);
      child.stderr?.off("data", check);
      child.off("exit", exited);
    };
    // After the caller's own listeners, so that the output they collect holds each chunk when checked.
    child.stdout?.on("data", check);
    child.stderr?.on("data", check);
    child.once("exit", exited);
    check();
  });
}

/** The processes below `root` (read from /proc): pid and command line. */
export function descendants(root: number): Array<{ pid: number; command: string }> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // the process ended while being read
    }
  }
  const found: Array<{ pid: number; command: string }> = [];
  const visit = (parent: number): void => {
    for (const [pid, ppid] of parents) {
      if (ppid !== parent) continue;
      try {
        found.push({ pid, command: readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim() });
      } catch {
        continue;
      }
      visit(pid);
    }
  };
  visit(root);
  return found;
}

/** Whether process `pid` still runs (a zombie, ended but not yet reaped, does not). */
export function running(pid: number): boolean {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Waits until none of `processes` runs any more. */
export async function allEnded(processes: Array<{ pid: number; command: string }>, ms?: number): Promise<void> {
  for (const { pid, command } of processes)
    await until(() => (running(pid) ? undefined : true), `${command} to end`, ms);
}
