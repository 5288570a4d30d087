/**
 * `npm run bundle`: bundles the modular description into generated/openapi.{yaml,json}
 * (tools/bundle-description.ts), with the deployment's Overlays (deployment.overlay.yaml or
 * MEDIA_OVERLAY) and the real slugs of slug-map.json or MEDIA_SLUG_MAP where given.
 *
 * Usage: tsx scripts/bundle.ts [root] [outDir]   (defaults: openapi/openapi.yaml, generated)
 * A bundle that fails is its problems, each at its file and line, and exit 1; a bad option or a
 * missing root file one line and exit 2 (tools/command.ts).
 */
import { existsSync } from "node:fs";
import { buildDescription, buildInputs, writeBundle } from "../tools/bundle-description.ts";
import { parseFlags, runCommand, UsageError } from "../tools/command.ts";
import { endOnBundleError } from "./bundle-failure.ts";

const HELP = `usage: npm run bundle -- [ROOT [OUT_DIR]]

Bundles the description ROOT (default openapi/openapi.yaml), with the deployment's Overlays and
slug map, into OUT_DIR/openapi.{yaml,json} (default generated/).

Exit status: 0 bundled, 1 the bundle failed (each problem at its file and line), 2 a bad option
or a ROOT that does not exist.`;

const { positionals } = parseFlags({ name: "bundle", help: HELP, options: {}, positionals: ["ROOT", "OUT_DIR"] });
const root = positionals[0] ?? "openapi/openapi.yaml";
const outDir = positionals[1] ?? "generated";
await runCommand("bundle", async () => {
  if (!existsSync(root)) throw new UsageError(`${root}: no such file (the description's root file to bundle)`);
  try {
    const build = await buildDescription(root, buildInputs());
    writeBundle(build, outDir);
    console.log(`bundled ${root} -> ${outDir}/openapi.{yaml,json} (${Object.keys(build.doc.paths).length} paths)`);
  } catch (error) {
    endOnBundleError("bundle", error);
    throw error;
  }
});
