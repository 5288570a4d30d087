import { runDiff } from "../../changes/diff-command.ts";

/** `npm run diff ARGS` in `cwd`, in process: its exit status and everything it printed. */
export function runDiffIn(cwd: string, args: string[]): { status: number; stdout: string; stderr: string } {
  let [stdout, stderr] = ["", ""];
  const status = runDiff(args, {
    cwd,
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  return { status, stdout, stderr };
}
