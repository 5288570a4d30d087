/**
 * Builds `@media-service/mcp`: the bin `media-service-mcp` (cli.ts and what it imports of this
 * repository: the generated client, price tables and MCP catalogue, the runtime, the HTTP layer)
 * bundled by esbuild into one ESM file for Node 20, with its npm dependencies left as dependencies,
 * pinned to the versions this repository locks (the MCP SDK, Ajv, openapi-fetch). The generated
 * modules are generated afresh from the bundle directory given, so that a bundle made with a slug map
 * gives a server that names the real slugs. Its version is the one the release gives it.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { generate as generateClient } from "../../generators/client.ts";
import { generate as generateCosts } from "../../generators/costs.ts";
import { generate as generateMcp } from "../../generators/mcp.ts";
import { loadBundle } from "../../model/document.ts";
import { readServiceModel, type ServiceModel } from "../../model/service-model.ts";
import {
  COMMON_FILES,
  DESCRIPTION_EXPORTS,
  finishPackage,
  MCP_PACKAGE,
  type BuiltPackage,
  type PackageRelease,
} from "../shared/package-build.ts";
import { BIN } from "./bin.ts";
import { mcpReadme } from "./readme.ts";

export const PACKAGE_NAME = MCP_PACKAGE;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BUNDLE = `dist/${BIN}.js`;
/** The npm packages the bin imports, left out of the bundle and named as dependencies at the locked versions. */
const DEPENDENCIES = ["@modelcontextprotocol/sdk", "ajv", "openapi-fetch"];

/** Serves the generated modules of `model` in place of the committed ones. */
function freshlyGenerated(files: Record<string, string>): Plugin {
  return {
    name: "freshly-generated",
    setup(builder) {
      builder.onLoad({ filter: /[\\/]generated[\\/][^\\/]+\.ts$/ }, ({ path }) => {
        const file = `generated/${path.split(/[\\/]/).pop()}`;
        const contents = files[file];
        return contents === undefined ? undefined : { contents, loader: "ts" };
      });
    },
  };
}

const lockedVersion = (name: string): string =>
  (JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;

function packageJson(model: ServiceModel, version: string): { name: string; version: string } {
  return {
    name: PACKAGE_NAME,
    version,
    description: `MCP server of the asynchronous media-generation service, interface version ${model.version}: its models as discovery tools, jobs as tasks, every create quoted and kept within a session's credit budget.`,
    type: "module",
    bin: { [BIN]: `./${BUNDLE}` },
    exports: { ...DESCRIPTION_EXPORTS },
    files: ["dist", ...COMMON_FILES],
    engines: { node: ">=20" },
    dependencies: Object.fromEntries(DEPENDENCIES.map((name) => [name, lockedVersion(name)])),
  } as { name: string; version: string };
}

/** Builds the package of the bundle in `bundleDir` (openapi.json and openapi.yaml) into `outDir`, replacing it. */
export async function buildMcpPackage(
  bundleDir: string,
  outDir: string,
  release: PackageRelease,
): Promise<BuiltPackage> {
  const model = readServiceModel(loadBundle(join(bundleDir, "openapi.json")));
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: [fileURLToPath(new URL("./cli.ts", import.meta.url))],
    outfile: join(outDir, BUNDLE),
    absWorkingDir: ROOT,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    plugins: [freshlyGenerated({ ...generateClient(model), ...generateCosts(model), ...generateMcp(model) })],
    define: { MCP_PACKAGE_VERSION: JSON.stringify(release.version) },
    banner: { js: "#!/usr/bin/env node" },
    logLevel: "error",
  });
  const manifest = packageJson(model, release.version);
  return finishPackage(
    bundleDir,
    outDir,
    manifest,
    mcpReadme(model, manifest.name, manifest.version),
    release.changelog,
  );
}
