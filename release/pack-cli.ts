/**
 * `npm run package [-- BUNDLE_DIR OUT_DIR]`: builds both packages of the bundle (generated/ by
 * default) into OUT_DIR (packages/dist/ by default), packs each into a tarball there, and prints
 * the tarballs' paths. Their version and changelog are the ones `npm run release` would publish:
 * the next version when the bundle changed since the latest recorded release, the recorded one
 * otherwise (a release refused, for an unacknowledged breaking change, is refused here too).
 */
import { relative, resolve } from "node:path";
import { packPackages } from "../packages/pack.ts";
import { packageReleases } from "./command.ts";
import { planRelease, projectPaths } from "./plan.ts";

const paths = projectPaths();
const bundleDir = resolve(process.argv[2] ?? paths.bundleDir);
const outDir = resolve(process.argv[3] ?? paths.tarballDir);
try {
  const plan = planRelease({ ...paths, bundleDir });
  const records = plan.recorded.map((release) => release.record);
  // Nothing pending means the bundle is the latest package release's, so one of the two is there.
  const released = plan.pending ? [...records, plan.pending] : records;
  const version = (plan.pending ?? plan.last!.record).version!;
  for (const tarball of await packPackages(bundleDir, outDir, packageReleases(version, released)))
    console.log(relative(process.cwd(), tarball));
} catch (error) {
  process.stderr.write(`package: ${(error as Error).message.split("\n")[0]}\n`);
  process.exitCode = 2;
}
