/**
 * `npm run build`: the bundle and the generators in one process. The description is built once in
 * memory (tools/bundle-description.ts), written to generated/openapi.{yaml,json}, and its service
 * model handed to the generators, so nothing written is read back. It prints what `npm run bundle`
 * and `npm run generate` print, failures as they do (`build: ...`, exit 1); a bad option is one line
 * and exit 2.
 */
import { generateAll, writeGenerated } from "../generators/index.ts";
import { existsSync } from "node:fs";
import { buildDescription, buildInputs, writeBundle, type DescriptionBuild } from "../tools/bundle-description.ts";
import { parseFlags, runCommand, UsageError } from "../tools/command.ts";
import { endOnBundleError } from "./bundle-failure.ts";

parseFlags({
  name: "build",
  help: `usage: npm run build

Bundles openapi/openapi.yaml into generated/openapi.{yaml,json} and runs every generator over it,
in one process.

Exit status: 0 built, 1 the bundle or a generator failed, 2 a bad option.`,
  options: {},
});

const root = "openapi/openapi.yaml";
await runCommand("build", async () => {
  if (!existsSync(root))
    throw new UsageError(`${root}: no such file (the description's root file; run from the project's folder)`);
  let build: DescriptionBuild;
  try {
    build = await buildDescription(root, buildInputs());
  } catch (error) {
    endOnBundleError("build", error);
    throw error;
  }
  writeBundle(build, "generated");
  console.log(`bundled ${root} -> generated/openapi.{yaml,json} (${Object.keys(build.doc.paths).length} paths)`);
  const files = await generateAll(build.model);
  writeGenerated(files);
  console.log(`generated ${Object.keys(files).sort().join(", ") || "nothing"}`);
});
