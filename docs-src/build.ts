/**
 * `npm run docs [-- OUT_DIR] [--coverage REPORT]`: builds the docs site from generated/openapi.json
 * into docs/site/ (or OUT_DIR); given a conformance run's JSON report, the rules page ends with its
 * rule × condition coverage. A failed build is one line and exit 1, a bad option, a report without
 * the figures or no bundle one line and exit 2.
 */
import { resolve } from "node:path";
import { BUNDLE_JSON, loadBundle } from "../model/document.ts";
import { existsSync } from "node:fs";
import { parseFlags, runCommand, UsageError } from "../tools/command.ts";
import { readCoverageRun } from "./coverage-section.ts";
import { buildSite, DEFAULT_SITE_DIR } from "./site.ts";

const { positionals, values } = parseFlags({
  name: "docs",
  help: `usage: npm run docs -- [OUT_DIR] [--coverage REPORT]

Builds the docs site from generated/openapi.json into OUT_DIR (default ${DEFAULT_SITE_DIR}).

  --coverage REPORT  a conformance run's JSON report (conformance.json, or the merge of its
                     shards): the rules page ends with the run's rule × condition coverage, the
                     rules it saw in fewer conditions than apply listed with the conditions missed

Exit status: 0 built, 1 the build failed, 2 a bad option.`,
  options: { coverage: { type: "string" } },
  positionals: ["OUT_DIR"],
});
const outDir = positionals[0] ? resolve(positionals[0]) : DEFAULT_SITE_DIR;
await runCommand("docs", async () => {
  if (!existsSync(BUNDLE_JSON))
    throw new UsageError(`${BUNDLE_JSON}: no bundle to build the docs from; run npm run build first`);
  const coverage = values.coverage === undefined ? undefined : readCoverageRun(values.coverage);
  const files = buildSite(loadBundle(), outDir, coverage);
  console.log(`docs: wrote ${files.length} files to ${outDir}`);
});
