/**
 * `npm run package [-- BUNDLE_DIR OUT_DIR]`: builds both packages of the bundle (generated/ by
 * default) into OUT_DIR (packages/dist/ by default), packs each into a tarball there, and prints
 * the tarballs' paths. Their version and changelog are the ones `npm run release` would publish:
 * the next version when the bundle changed since the latest recorded release, the recorded one
 * otherwise (a release refused, for an unacknowledged breaking change, is refused here too).
 */
import { relative, resolve } from "node:path";
import { packPackages } from "../packages/pack.ts";
import { parseFlags, runCommand } from "../tools/command.ts";
import { packageReleases } from "./command.ts";
import { planRelease, projectPaths } from "./plan.ts";

const HELP = `usage: npm run package -- [BUNDLE_DIR [OUT_DIR]]

Builds both packages of the bundle in BUNDLE_DIR (default: generated/) into OUT_DIR (default:
packages/dist/), packs each into a tarball there and prints the tarballs' paths, with the
version and changelog npm run release would publish.

Exit status: 0 packed, 1 a failure (a package that does not build), 2 a bad option, a BUNDLE_DIR
with no bundle, or a release refused (an unacknowledged breaking change).`;

const { positionals } = parseFlags({
  name: "package",
  help: HELP,
  options: {},
  positionals: ["BUNDLE_DIR", "OUT_DIR"],
});

await runCommand("package", async () => {
  const paths = projectPaths();
  const bundleDir = resolve(positionals[0] ?? paths.bundleDir);
  const outDir = resolve(positionals[1] ?? paths.tarballDir);
  const plan = planRelease({ ...paths, bundleDir });
  const records = plan.recorded.map((release) => release.record);
  // Nothing pending means the bundle is the latest package release's, so one of the two is there.
  const released = plan.pending ? [...records, plan.pending] : records;
  const version = (plan.pending ?? plan.last!.record).version!;
  for (const tarball of await packPackages(bundleDir, outDir, packageReleases(version, released)))
    console.log(relative(process.cwd(), tarball));
});
