/** Builds the packages of packages/ from a bundle, each with the version and changelog given, and packs them into tarballs. */
import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { buildClientPackage } from "./client/build.ts";
import { buildMcpPackage } from "./mcp/build.ts";
import {
  CLIENT_PACKAGE,
  MCP_PACKAGE,
  TOOLS_PACKAGE,
  type BuiltPackage,
  type PackageRelease,
} from "./shared/package-build.ts";
import { buildToolsPackage } from "./tools/build.ts";

const run = promisify(execFile);

const BUILDS: Readonly<
  Record<string, (bundleDir: string, outDir: string, release: PackageRelease) => Promise<BuiltPackage>>
> = {
  [CLIENT_PACKAGE]: buildClientPackage,
  [TOOLS_PACKAGE]: buildToolsPackage,
  [MCP_PACKAGE]: buildMcpPackage,
};

/** `npm pack` of folders into `into`, in one npm run; the tarballs' paths, in the folders' order. */
export async function pack(folders: readonly string[], into: string): Promise<string[]> {
  const { stdout } = await run("npm", ["pack", ...folders, "--pack-destination", into, "--ignore-scripts", "--json"], {
    cwd: into,
  });
  return (JSON.parse(stdout) as Array<{ filename: string }>).map(({ filename }) => join(into, filename));
}

/** Builds each package of `releases` (name → version and changelog) into `outDir/<name>/` and packs it there; the tarballs, in order. */
export async function packPackages(
  bundleDir: string,
  outDir: string,
  releases: Readonly<Record<string, PackageRelease>>,
): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const built: BuiltPackage[] = [];
  for (const [name, release] of Object.entries(releases)) {
    const build = BUILDS[name];
    if (!build) throw new Error(`no build for the package ${name}`);
    built.push(await build(bundleDir, join(outDir, name.replace("/", "-").replace(/^@/, "")), release));
  }
  return pack(
    built.map((entry) => entry.dir),
    outDir,
  );
}
