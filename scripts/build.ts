/**
 * `npm run build`: the bundle and the generators in one process. The description is built once in
 * memory (tools/bundle-description.ts), written to generated/openapi.{yaml,json}, and its service
 * model handed to the generators, so nothing written is read back. It prints what `npm run bundle`
 * and `npm run generate` print, failures as they do.
 */
import { generateAll, writeGenerated } from "../generators/index.ts";
import {
  BundleError,
  buildDescription,
  buildInputs,
  writeBundle,
  type DescriptionBuild,
} from "../tools/bundle-description.ts";

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
