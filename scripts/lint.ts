/**
 * `npm run lint`: Spectral (.spectral.yaml: spectral:oas, OWASP and the house rules) and Redocly
 * (redocly.yaml: recommended) on the bundled description, each finding printed at the file and
 * line of openapi/ it comes from (lint/lint-command.ts). Exits non-zero on any error or warning,
 * and refuses (exit 1, one line) a bundle that is not the current bundle of openapi/.
 *
 * Usage: tsx scripts/lint.ts [bundle [root]]
 *   (defaults: generated/openapi.yaml made from openapi/openapi.yaml; a bundle given alone is
 *   reported at its own lines)
 */
import { lintCommand } from "../lint/lint-command.ts";
import { REDOCLY_OFFLINE_ENV } from "../lint/run-redocly.ts";
import { slugMapFile } from "../model/slug-map.ts";
import { staleBundle } from "../tools/bundle-description.ts";

// Redocly's CLI, run as a child for the description and the workflows, inherits this: no usage data sent.
Object.assign(process.env, REDOCLY_OFFLINE_ENV);
const output = { out: (line: string) => console.log(line), err: (line: string) => process.stderr.write(`${line}\n`) };
process.exit(
  await lintCommand(process.argv.slice(2), output, (bundle, root) => staleBundle(bundle, root, slugMapFile())),
);
