/**
 * `npm run docs [-- OUT_DIR]`: builds the docs site from generated/openapi.json into docs/site/
 * (or OUT_DIR). A failed build is one line and exit 1, a bad option or no bundle one line and
 * exit 2.
 */
import { resolve } from "node:path";
import { BUNDLE_JSON, loadBundle } from "../model/document.ts";
import { existsSync } from "node:fs";
import { parseFlags, runCommand, UsageError } from "../tools/command.ts";
import { buildSite, DEFAULT_SITE_DIR } from "./site.ts";

const { positionals } = parseFlags({
  name: "docs",
  help: `usage: npm run docs -- [OUT_DIR]

Builds the docs site from generated/openapi.json into OUT_DIR (default ${DEFAULT_SITE_DIR}).

Exit status: 0 built, 1 the build failed, 2 a bad option.`,
  options: {},
  positionals: ["OUT_DIR"],
});
const outDir = positionals[0] ? resolve(positionals[0]) : DEFAULT_SITE_DIR;
await runCommand("docs", async () => {
  if (!existsSync(BUNDLE_JSON))
    throw new UsageError(`${BUNDLE_JSON}: no bundle to build the docs from; run npm run build first`);
  const files = buildSite(loadBundle(), outDir);
  console.log(`docs: wrote ${files.length} files to ${outDir}`);
});
