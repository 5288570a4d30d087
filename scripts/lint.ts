/**
 * `npm run lint`: Spectral (.spectral.yaml: spectral:oas, OWASP and the house rules) and Redocly
 * (redocly.yaml: recommended) on the bundled description, each finding printed at the file and
 * line of openapi/ it comes from (lint/lint-command.ts). Exits non-zero on any error or warning.
 *
 * Usage: tsx scripts/lint.ts [bundle [root]]
 *   (defaults: generated/openapi.yaml made from openapi/openapi.yaml; a bundle given alone is
 *   reported at its own lines)
 */
import { lintCommand } from "../lint/lint-command.ts";

process.exit(await lintCommand(process.argv.slice(2), { out: (line) => console.log(line), err: (line) => process.stderr.write(`${line}\n`) }));
