/**
 * Signals that npm sends to the shell it puts between itself and the bin. `npx media-service
 * sandbox` (and a package.json script `media-service sandbox`) runs `sh -c "'media-service'
 * sandbox"`; npm forwards SIGINT and SIGTERM to that shell only. Debian's dash forks for the
 * command instead of replacing itself, and while it waits for its child it catches SIGINT and keeps
 * it until the child ends, so a SIGINT to npm alone would never reach the bin, and npm and the shell
 * would wait for it for ever. SIGTERM ends the shell, leaving the bin to another parent.
 *
 * The bin sees both from /proc: a shell that waits for its only child is asleep in wait4 and is woken
 * only by a signal it catches, which for such a shell is SIGINT or SIGCHLD (this process stopping or
 * going on again); a shell or npm that is gone was ended. So the bin raises SIGINT on itself when the
 * shell wakes, and SIGTERM when the shell or npm is gone; the command handles them as its own. On
 * anything but Linux, or without that chain of processes, nothing is watched.
 */
import { readFileSync } from "node:fs";

/** Shells npm may run a command with (its `script-shell`). */
const SHELLS = new Set(["sh", "dash", "bash", "ash", "zsh", "ksh", "mksh"]);
const SIGINT_BIT = 1n << 1n; // bit (signal number - 1) of /proc's SigCgt mask
const POLL_MS = 200;
/** How long after this process goes on again a wake of the shell is taken for its SIGCHLD. */
const CONTINUE_WAKE_MS = 1000;

interface ProcessStatus {
  name: string;
  /** S: asleep (a shell waiting for its child). */
  state: string;
  ppid: number;
  /** Bit n set: signal n + 1 is caught. */
  caught: bigint;
  /** Times it was switched out; grows only when it runs. */
  switches: number;
}

/** What /proc says of process `pid`, or undefined when it is gone or cannot be read. */
function processStatus(pid: number): ProcessStatus | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined;
  }
  const field = (name: string): string => new RegExp(`^${name}:\\s*(.*)$`, "m").exec(text)?.[1] ?? "";
  return {
    name: field("Name"),
    state: field("State").charAt(0),
    ppid: Number(field("PPid")),
    caught: BigInt(`0x${field("SigCgt") || "0"}`),
    switches: Number(field("voluntary_ctxt_switches")) + Number(field("nonvoluntary_ctxt_switches")),
  };
}

/**
 * When this process runs as npm's shell's child, raises on itself the SIGINT or SIGTERM that npm
 * sent to that shell (see above). Returns whether it watches.
 */
export function relaySignalsHeldByNpmShell(): boolean {
  const shellPid = process.ppid;
  const shell = processStatus(shellPid);
  if (!shell || !SHELLS.has(shell.name) || (shell.caught & SIGINT_BIT) === 0n) return false;
  const npmPid = shell.ppid;
  if (!processStatus(npmPid)?.name.startsWith("npm")) return false;

  /** The shell's switch count once seen asleep: it may still be on its way into wait4 now. */
  let seen: number | undefined;
  /** The shell woke at the last look: judged at the next, once this process has heard its own signals. */
  let woke = false;
  /** When this process last went on after a stop, which wakes the shell with SIGCHLD. */
  let continuedAt = -Infinity;
  /** Relayed signals not yet heard back. */
  let relayed = 0;
  const onContinue = (): void => {
    continuedAt = Date.now();
  };
  // A signal that reaches this process itself (Ctrl-C in a terminal goes to the whole process group)
  // needs no relay. Listening must not change what a signal does: heard alone, it does its default.
  const onSignal = (signal: NodeJS.Signals): void => {
    if (relayed > 0) relayed -= 1;
    else stop();
    if (process.listenerCount(signal) === 1) {
      process.off(signal, onSignal);
      process.kill(process.pid, signal);
    }
  };
  const relay = (signal: NodeJS.Signals): void => {
    relayed += 1;
    process.kill(process.pid, signal);
  };
  const timer = setInterval(() => {
    const now = processStatus(shellPid);
    if (process.ppid !== shellPid || !now || now.ppid !== npmPid) {
      stop();
      relay("SIGTERM");
      return;
    }
    if (woke && Date.now() - continuedAt > CONTINUE_WAKE_MS) relay("SIGINT");
    woke = seen !== undefined && now.switches !== seen;
    if (seen !== undefined || now.state === "S") seen = now.switches;
  }, POLL_MS).unref();
  const stop = (): void => {
    clearInterval(timer);
    process.off("SIGCONT", onContinue);
  };
  process.on("SIGCONT", onContinue).on("SIGINT", onSignal).on("SIGTERM", onSignal);
  return true;
}
