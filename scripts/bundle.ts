/**
 * `npm run bundle`: bundles the modular description into generated/openapi.{yaml,json}
 * (tools/bundle-description.ts), with the deployment's Overlays (deployment.overlay.yaml or
 * MEDIA_OVERLAY) and the real slugs of slug-map.json or MEDIA_SLUG_MAP where given.
 *
 * Usage: tsx scripts/bundle.ts [root] [outDir]   (defaults: openapi/openapi.yaml, generated)
 */
import { BundleError, buildDescription, buildInputs, writeBundle } from "../tools/bundle-description.ts";

const root = process.argv[2] ?? "openapi/openapi.yaml";
const outDir = process.argv[3] ?? "generated";
try {
  const build = await buildDescription(root, buildInputs());
  writeBundle(build, outDir);
  console.log(`bundled ${root} -> ${outDir}/openapi.{yaml,json} (${Object.keys(build.doc.paths).length} paths)`);
} catch (error) {
  process.stderr.write(error instanceof BundleError ? error.message : `bundle failed: ${(error as Error).message}\n`);
  process.exit(1);
}
