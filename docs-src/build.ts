/** `npm run docs`: builds the docs site from generated/openapi.json into docs/site/ (or the folder given as argument). */
import { resolve } from "node:path";
import { loadBundle } from "../model/document.ts";
import { buildSite, DEFAULT_SITE_DIR } from "./site.ts";

const outDir = process.argv[2] ? resolve(process.argv[2]) : DEFAULT_SITE_DIR;
try {
  const files = buildSite(loadBundle(), outDir);
  console.log(`docs: wrote ${files.length} files to ${outDir}`);
} catch (error) {
  process.stderr.write(`docs build failed: ${(error as Error).message}\n`);
  process.exit(1);
}
