/** Entry of `npm run release`; see release-command.ts. */
import { runRelease } from "./command.ts";

process.exitCode = await runRelease(process.argv.slice(2), {
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
