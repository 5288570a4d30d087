/**
 * `npm run package [-- BUNDLE_DIR OUT_DIR]`: builds both packages of the bundle (generated/ by
 * default) into OUT_DIR (packages/dist/ by default), packs each into a tarball there, and prints
 * the tarballs' paths. Their versions and changelogs are the ones `npm run release` would publish:
 * the next versions when the bundle changed since the last recorded release, the recorded ones
 * otherwise (a release refused, for an unacknowledged breaking change, is refused here too).
 */
import { relative, resolve } from "node:path";
import { releaseEntries } from "./package-changelog.ts";
import { packageReleases } from "./command.ts";
import { planRelease, projectPaths } from "./plan.ts";
import { packPackages } from "../packages/pack.ts";

const paths = projectPaths();
const bundleDir = resolve(process.argv[2] ?? paths.bundleDir);
const outDir = resolve(process.argv[3] ?? paths.tarballDir);
try {
  const plan = planRelease({ ...paths, bundleDir });
  // No recorded release means a pending first one, so one of the two is there.
  const record = plan.pending?.record ?? plan.last!;
  for (const tarball of await packPackages(bundleDir, outDir, packageReleases(record, releaseEntries(paths.releasesDir, plan.pending)))) console.log(relative(process.cwd(), tarball));
} catch (error) {
  process.stderr.write(`package: ${(error as Error).message.split("\n")[0]}\n`);
  process.exitCode = 2;
}
