/**
 * Bundles the modular description (openapi/openapi.yaml) with Redocly into openapi.yaml and
 * openapi.json in an output folder, substituting real slugs from a slug map. Redocly's own messages
 * name the file and the broken $ref; the outputs are written only when the whole bundle succeeded.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { stringify } from "yaml";
import { applySlugMap, readSlugMap } from "../model/slug-map.ts";

const REDOCLY = fileURLToPath(new URL("../node_modules/.bin/redocly", import.meta.url));

export class BundleError extends Error {}

/** Bundles `root` into `outDir`; returns the number of paths. Throws BundleError with Redocly's output. */
export async function bundleDescription(root: string, outDir: string, slugMapFile: string | undefined): Promise<number> {
  const work = mkdtempSync(join(tmpdir(), "bundle-"));
  try {
    const tmpJson = join(work, "openapi.json");
    try {
      await promisify(execFile)(REDOCLY, ["bundle", root, "--ext", "json", "--output", tmpJson, "--lint-config", "off"], { encoding: "utf8" });
    } catch (error) {
      const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
      throw new BundleError(`bundle failed for ${root}:\n${stderr}${stdout}`);
    }
    const bundled = JSON.parse(readFileSync(tmpJson, "utf8")) as { paths: Record<string, unknown> };
    bundled.paths = applySlugMap(bundled.paths, readSlugMap(slugMapFile), `slug map ${slugMapFile}`);
    const outputs: Record<string, string> = {
      "openapi.json": `${JSON.stringify(bundled, null, 2)}\n`,
      "openapi.yaml": stringify(bundled, { lineWidth: 0, aliasDuplicateObjects: false }),
    };
    // Write every output beside its target first, then rename, so a failure leaves no half-written file.
    for (const [name, text] of Object.entries(outputs)) writeFileSync(join(outDir, `${name}.tmp`), text);
    for (const name of Object.keys(outputs)) renameSync(join(outDir, `${name}.tmp`), join(outDir, name));
    return Object.keys(bundled.paths).length;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
