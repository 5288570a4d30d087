/**
 * `npm run diff:check [-- --root DIR]`: CI's two checks of the description against its releases,
 * one after the other: no breaking change since the latest release that changes/acknowledged.json
 * does not acknowledge (`npm run diff -- --check`), and every changelog what the release records
 * produce (`npm run release -- --check`). Both run, so one run names every problem. Exit 0 both
 * pass, 1 one found a problem, 2 a usage or input error in either.
 */
import { runDiff } from "../changes/diff-command.ts";
import { runRelease } from "../release/command.ts";
import { parseFlags } from "../tools/command.ts";

const HELP = `usage: npm run diff:check -- [--root DIR]

CI's checks of the description against its releases, both run:
  - the latest release in releases/ against generated/openapi.json: a breaking change that
    changes/acknowledged.json does not acknowledge fails (npm run diff -- --check prints it);
  - docs/changelog.md and each package's CHANGELOG.md against the release records
    (npm run release -- --check; npm run release -- --page rewrites them).

  --root DIR  the project to check (default: this repository)

Exit status: 0 both pass, 1 one found a problem, 2 a usage or input error.`;

const { values } = parseFlags({ name: "diff:check", help: HELP, options: { root: { type: "string" } } });
const root = values.root === undefined ? [] : ["--root", values.root];
const io = {
  cwd: process.cwd(),
  stdout: (text: string) => process.stdout.write(text),
  stderr: (text: string) => process.stderr.write(text),
};
const codes = [runDiff(["--check", ...root], io), await runRelease(["--check", ...root], io)];
process.exitCode = codes.includes(2) ? 2 : Math.max(...codes);
