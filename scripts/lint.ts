/**
 * `npm run lint`: Spectral (.spectral.yaml: spectral:oas, OWASP and the house rules) and Redocly
 * (redocly.yaml: recommended) on the bundled description, each finding printed at the file and
 * line of openapi/ it comes from (lint/lint-command.ts). Exits 1 on any error or warning, and
 * refuses (exit 1, one line) a bundle that is not the current bundle of openapi/; a bad option or
 * a missing file is one line and exit 2 (tools/command.ts).
 */
import { lintCommand } from "../lint/lint-command.ts";
import { REDOCLY_OFFLINE_ENV } from "../lint/run-redocly.ts";
import { slugMapFile } from "../model/slug-map.ts";
import { staleBundle } from "../tools/bundle-description.ts";
import { parseFlags, runCommand } from "../tools/command.ts";

const HELP = `usage: npm run lint -- [BUNDLE [ROOT]]

Lints the bundled description (default generated/openapi.yaml, made from openapi/openapi.yaml)
with Spectral and Redocly, each finding at its file and line of openapi/, and the Arazzo
workflows of workflows/. A BUNDLE given alone is reported at its own lines.

Exit status: 0 clean, 1 an error or warning (or a bundle older than its sources), 2 a bad option
or a missing file.`;

const { positionals } = parseFlags({ name: "lint", help: HELP, options: {}, positionals: ["BUNDLE", "ROOT"] });

// Redocly's CLI, run as a child for the description and the workflows, inherits this: no usage data sent.
Object.assign(process.env, REDOCLY_OFFLINE_ENV);
const output = { out: (line: string) => console.log(line), err: (line: string) => process.stderr.write(`${line}\n`) };
await runCommand("lint", async () => {
  process.exit(
    await lintCommand(positionals, output, { staleBundle: (bundle, root) => staleBundle(bundle, root, slugMapFile()) }),
  );
});
