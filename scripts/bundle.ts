/**
 * `npm run bundle`: bundles the modular description into generated/openapi.{yaml,json}
 * (tools/bundle-description.ts), with the real slugs of slug-map.json or MEDIA_SLUG_MAP where given.
 *
 * Usage: tsx scripts/bundle.ts [root] [outDir]   (defaults: openapi/openapi.yaml, generated)
 */
import { slugMapFile } from "../model/slug-map.ts";
import { bundleDescription, BundleError } from "../tools/bundle-description.ts";

const root = process.argv[2] ?? "openapi/openapi.yaml";
const outDir = process.argv[3] ?? "generated";
try {
  const count = await bundleDescription(root, outDir, slugMapFile());
  console.log(`bundled ${root} -> ${outDir}/openapi.{yaml,json} (${count} paths)`);
} catch (error) {
  process.stderr.write(error instanceof BundleError ? error.message : `bundle failed: ${(error as Error).message}\n`);
  process.exit(1);
}
