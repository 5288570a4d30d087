/**
 * `npm run generate`: runs every generator (generators/index.ts) over generated/openapi.json. A
 * generator that fails is exit 1; a bad option one line and exit 2 (tools/command.ts).
 */
import { loadBundle } from "../model/document.ts";
import { readServiceModel } from "../model/service-model.ts";
import { parseFlags } from "../tools/command.ts";
import { generateAll, writeGenerated } from "./index.ts";

parseFlags({
  name: "generate",
  help: `usage: npm run generate

Runs every generator over generated/openapi.json (npm run bundle makes it) into generated/, with
docs/pricing.md and docs/rules.md.

Exit status: 0 generated, 1 a generator failed, 2 a bad option.`,
  options: {},
});

try {
  const files = await generateAll(readServiceModel(loadBundle()));
  writeGenerated(files);
  console.log(`generated ${Object.keys(files).sort().join(", ") || "nothing"}`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
