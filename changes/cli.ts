/** Entry of `npm run diff` and `npm run diff:check`; see diff-command.ts. */
import { runDiff } from "./diff-command.ts";

process.exitCode = runDiff(process.argv.slice(2), {
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
