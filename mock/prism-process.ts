/**
 * A Prism CLI child process: started, awaited until it says it listens, stopped, and stopped with
 * this process when that ends first. prism.ts says what the child runs; this module owns its life.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { constants } from "node:os";

/** The line Prism prints once its port accepts requests. */
export const LISTENING = /Prism is listening on/;
/** How much of a child's output a failed start reports: its last characters, where the reason is. */
export const LOG_TAIL = 20_000;
/** Between SIGTERM and SIGKILL: Prism exits on SIGTERM at once; SIGKILL only guards against a hung child. */
export const KILL_AFTER_MS = 5_000;

export interface ChildSpec {
  /** The executable's arguments. */
  args: readonly string[];
  /** The child's environment. */
  env: NodeJS.ProcessEnv;
  /** Echo the child's output to this process's stderr instead of keeping it for a failed start's error. */
  verbose: boolean;
  /** Called once the child is stopped, or has failed to start (a snapshot of the description is removed). */
  cleanup(): void;
  /** The executable; this Node when omitted. */
  executable?: string;
  /** SIGKILL after this long when SIGTERM has not ended the child. */
  killAfterMs?: number;
}

export interface RunningChild {
  /** Ends the child (SIGTERM, then SIGKILL), then cleans up; resolves once it has exited. */
  stop(): Promise<void>;
}

/** Children not stopped yet, each with a synchronous way to stop it (an exit listener cannot wait). */
const leftRunning = new Set<() => void>();

/** What the exit guard uses of a process (tests give a stand-in, as they cannot end their own). */
export type GuardedProcess = Pick<NodeJS.Process, "once" | "listenerCount" | "exit">;
const guarded = new WeakSet<GuardedProcess>();

/** Starts the child and resolves once it listens; rejects with its output's tail when it exits first. */
export async function startChild(spec: ChildSpec): Promise<RunningChild> {
  // stdin is a pipe the child's preload watches (prism-exits-with-parent.cjs).
  const child = spawn(spec.executable ?? process.execPath, spec.args, {
    // Stryker disable next-line ArrayDeclaration: equivalent: an empty stdio list is three pipes too
    stdio: ["pipe", "pipe", "pipe"],
    env: spec.env,
  });
  const stopNow = (): void => {
    child.kill("SIGTERM");
    spec.cleanup();
  };
  leftRunning.add(stopNow);
  guardProcessExit();
  const stop = async (): Promise<void> => {
    await stopChild(child, spec.killAfterMs ?? KILL_AFTER_MS);
    spec.cleanup();
    leftRunning.delete(stopNow);
  };
  try {
    await listening(child, spec.verbose);
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}

/**
 * Stops every child not stopped yet, without waiting: what this process does as it exits.
 */
export function stopLeftRunning(): void {
  for (const stopNow of leftRunning) stopNow();
}

/**
 * Stops every child when this process ends first (an uncaught error, Ctrl-C, a CI job cancelled
 * with SIGTERM): otherwise the child outlives it and keeps its port. A signal with no other
 * listener ends the process as the default action would, after the cleanup.
 */
export function guardProcessExit(target: GuardedProcess = process): void {
  if (guarded.has(target)) return;
  guarded.add(target);
  target.once("exit", stopLeftRunning);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    target.once(signal, () => {
      if (target.listenerCount(signal) === 0) target.exit(128 + constants.signals[signal]);
    });
  }
}

/** Resolves on the child's listening line; rejects with its output's tail if it exits first. */
function listening(child: ChildProcess, verbose: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = "";
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString();
      if (verbose) process.stderr.write(text);
      else log = (log + text).slice(-LOG_TAIL);
      if (LISTENING.test(text)) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code, signal) =>
      reject(new Error(`Prism exited (${code ?? signal}) before listening:\n${log}`)),
    );
    child.once("error", reject);
  });
}

async function stopChild(child: ChildProcess, killAfterMs: number): Promise<void> {
  // Exited already, or never started (a failed spawn sets exitCode to the error's number, no exit follows).
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const guard = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  await exited;
  clearTimeout(guard);
}
