/**
 * `npm run build`: the bundle and the generators in one process. The description is built once in
 * memory (tools/bundle-description.ts), written to generated/openapi.{yaml,json}, and its service
 * model handed to the generators, so nothing written is read back. It prints what `npm run bundle`
 * and `npm run generate` print, failures as they do (exit 1); a bad option is one line and exit 2.
 */
import { generateAll, writeGenerated } from "../generators/index.ts";
import {
  BundleError,
  buildDescription,
  buildInputs,
  writeBundle,
  type DescriptionBuild,
} from "../tools/bundle-description.ts";
import { parseFlags } from "../tools/command.ts";

parseFlags({
  name: "build",
  help: `usage: npm run build

Bundles openapi/openapi.yaml into generated/openapi.{yaml,json} and runs every generator over it,
in one process.

Exit status: 0 built, 1 the bundle or a generator failed, 2 a bad option.`,
  options: {},
});

const root = "openapi/openapi.yaml";
let build: DescriptionBuild;
try {
  build = await buildDescription(root, buildInputs());
  writeBundle(build, "generated");
  console.log(`bundled ${root} -> generated/openapi.{yaml,json} (${Object.keys(build.doc.paths).length} paths)`);
} catch (error) {
  process.stderr.write(error instanceof BundleError ? error.message : `bundle failed: ${(error as Error).message}\n`);
  process.exit(1);
}
try {
  const files = await generateAll(build.model);
  writeGenerated(files);
  console.log(`generated ${Object.keys(files).sort().join(", ") || "nothing"}`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
