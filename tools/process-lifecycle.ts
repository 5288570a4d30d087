/**
 * How the long-running commands (docs:serve, dev, sandbox, mock) start and stop. They stop cleanly
 * on SIGINT, SIGTERM and SIGHUP, and also when the process that launched them dies: `npm run x`
 * runs `sh -c "node ..."`, and killing npm ends the shell but not its child, which would keep
 * serving its port. A port in use is one line naming the port and how to choose another.
 */

/** Runs `stop` once, on a signal or when the launching process is gone, then exits. */
export function stopWhenAsked(stop: () => Promise<void> | void): void {
  const launcher = process.ppid;
  let stopping = false;
  const finish = (code: number): void => {
    if (stopping) return;
    stopping = true;
    void Promise.resolve()
      .then(stop)
      .finally(() => process.exit(code));
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => finish(0));
  // Orphaned: the launcher died and the process was handed to another parent.
  setInterval(() => {
    if (process.ppid !== launcher) finish(0);
  }, 500).unref();
}

/** The one-line message for a failure to listen, or null when it is not about the port. */
export function portProblem(error: unknown, port: number, howToChange: string): string | null {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EADDRINUSE") return `port ${port} on 127.0.0.1 is in use; choose another with ${howToChange}`;
  if (code === "EACCES") return `port ${port} on 127.0.0.1 needs privileges; choose another with ${howToChange}`;
  return null;
}
