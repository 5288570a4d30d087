/** Watching a command the tests start as a child process: its output so far, and waiting for a state. */
import type { ChildProcess } from "node:child_process";

/** The child's stdout and stderr as collected so far. */
export function output(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return { stdout: () => stdout, stderr: () => stderr };
}

/** Polls `probe` every 100 ms until it gives a value; throws naming `what` after `ms`. */
export async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
