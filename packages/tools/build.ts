/**
 * Builds the tools package `@media-service/tools`: the bin `media-service` with the commands of
 * commands.ts, bundled by esbuild into one ESM file for Node 20 together with everything it imports
 * (ajv, ajv-formats), so that it has no dependencies and needs nothing of this repository's
 * layout; the files the commands read at run time (tools/packaged.ts), at the package's own places;
 * the bundled description of the bundle directory, exported for other generators; the licences of
 * the bundled packages; a README and a CHANGELOG. Its version is the one the release gives it, as
 * the client package's. `npm run package` (packages/pack.ts) builds and packs it.
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import { loadBundle } from "../../model/document.ts";
import { readServiceModel, type ServiceModel } from "../../model/service-model.ts";
import { RUNTIME_FILES, type RuntimeFile, type ToolsPackageDefine } from "../../tools/packaged.ts";
import {
  COMMON_FILES,
  DESCRIPTION_EXPORTS,
  DESCRIPTION_FILES,
  finishPackage,
  TOOLS_PACKAGE,
  type BuiltPackage,
  type PackageRelease,
} from "../shared/package-build.ts";
import { BIN } from "./commands.ts";
import { toolsReadme } from "./readme.ts";

export const PACKAGE_NAME = TOOLS_PACKAGE;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BUNDLE = `dist/${BIN}.js`;
const LICENSES = "THIRD-PARTY-LICENSES.md";

/** Where the package carries each runtime file; finishPackage writes the description's from the bundle directory. */
const PACKAGED_AT: Record<RuntimeFile, string> = {
  "generated/openapi.json": "openapi.json",
  "generated/openapi.yaml": "openapi.yaml",
  "sandbox/default-config.json": "sandbox/default-config.json",
  "sandbox/README.md": "sandbox/README.md",
  "conformance/README.md": "conformance/README.md",
  "conformance/targets/sandbox.json": "conformance/targets/sandbox.json",
  "generated/rules.json": "conformance/rules.json",
};

/** The licence texts of the packages esbuild bundled, which their licences ask to keep with the code. */
function thirdPartyLicenses(metafile: Metafile): string {
  const packages = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packages.add(join(ROOT, match[1]!));
  }
  const sections = [...packages].sort().map((dir) => {
    const { name, version, license } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      name: string;
      version: string;
      license: string;
    };
    const file = readdirSync(dir).find((entry) => /^licen[cs]e/i.test(entry));
    if (!file) throw new Error(`${name}@${version} is bundled into the tools package but ships no licence file`);
    return `## ${name}@${version} (${license})\n\n\`\`\`\n${readFileSync(join(dir, file), "utf8").trim()}\n\`\`\``;
  });
  return `# Third-party licences\n\nThe packages bundled into \`${BUNDLE}\`.\n\n${sections.join("\n\n")}\n`;
}

function packageJson(model: ServiceModel, version: string): { name: string; version: string } {
  return {
    name: PACKAGE_NAME,
    version,
    description: `Command-line tools of the asynchronous media-generation service, interface version ${model.version}: the stateful sandbox and the conformance suite, and the bundled OpenAPI description they were built from.`,
    type: "module",
    bin: { [BIN]: `./${BUNDLE}` },
    exports: {
      ...DESCRIPTION_EXPORTS,
      "./sandbox/default-config.json": `./${PACKAGED_AT["sandbox/default-config.json"]}`,
      "./conformance/targets/sandbox.json": `./${PACKAGED_AT["conformance/targets/sandbox.json"]}`,
    },
    files: ["dist", "sandbox", "conformance", LICENSES, ...COMMON_FILES],
    engines: { node: ">=20" },
  } as { name: string; version: string };
}

/** Builds the package of the bundle in `bundleDir` (openapi.json and openapi.yaml) into `outDir`, replacing it. */
export async function buildToolsPackage(
  bundleDir: string,
  outDir: string,
  release: PackageRelease,
): Promise<BuiltPackage> {
  const model = readServiceModel(loadBundle(join(bundleDir, "openapi.json")));
  rmSync(outDir, { recursive: true, force: true });
  const bundleDirOut = dirname(join(outDir, BUNDLE));
  const define: ToolsPackageDefine = {
    // What npx is given to run a command (tools/packaged.ts's commandLine): the scoped package name.
    bin: TOOLS_PACKAGE,
    files: Object.fromEntries(
      RUNTIME_FILES.map((file) => [file, relative(bundleDirOut, join(outDir, PACKAGED_AT[file]))]),
    ) as ToolsPackageDefine["files"],
  };
  const { metafile } = await build({
    entryPoints: [fileURLToPath(new URL("./cli.ts", import.meta.url))],
    outfile: join(outDir, BUNDLE),
    absWorkingDir: ROOT,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    define: { TOOLS_PACKAGE: JSON.stringify(define) },
    banner: { js: "#!/usr/bin/env node" },
    metafile: true,
    logLevel: "error",
  });
  for (const file of RUNTIME_FILES.filter((runtime) => !DESCRIPTION_FILES.includes(PACKAGED_AT[runtime]))) {
    mkdirSync(dirname(join(outDir, PACKAGED_AT[file])), { recursive: true });
    copyFileSync(join(ROOT, file), join(outDir, PACKAGED_AT[file]));
  }
  writeFileSync(join(outDir, LICENSES), thirdPartyLicenses(metafile));
  const manifest = packageJson(model, release.version);
  return finishPackage(
    bundleDir,
    outDir,
    manifest,
    toolsReadme(model, manifest.name, manifest.version),
    release.changelog,
  );
}
