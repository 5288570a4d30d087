/**
 * Bundles the modular description (openapi/openapi.yaml) with Redocly into
 * generated/openapi.yaml and generated/openapi.json. Redocly's own messages name the file and the
 * broken $ref; the outputs are written only when the whole bundle succeeded.
 *
 * Usage: tsx scripts/bundle.ts [root] [outDir]   (defaults: openapi/openapi.yaml, generated)
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { applySlugMap, readSlugMap } from "../model/slug-map.ts";

const root = process.argv[2] ?? "openapi/openapi.yaml";
const outDir = process.argv[3] ?? "generated";
const work = mkdtempSync(join(tmpdir(), "bundle-"));

try {
  const tmpJson = join(work, "openapi.json");
  try {
    execFileSync(
      "node_modules/.bin/redocly",
      ["bundle", root, "--ext", "json", "--output", tmpJson, "--lint-config", "off"],
      { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" },
    );
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    process.stderr.write(`bundle failed for ${root}:\n${stderr}${stdout}`);
    process.exit(1);
  }
  const bundled = JSON.parse(readFileSync(tmpJson, "utf8")) as { paths: Record<string, unknown> };
  bundled.paths = applySlugMap(bundled.paths, readSlugMap(process.env.MEDIA_SLUG_MAP), `MEDIA_SLUG_MAP ${process.env.MEDIA_SLUG_MAP}`);

  const outputs: Record<string, string> = {
    "openapi.json": `${JSON.stringify(bundled, null, 2)}\n`,
    "openapi.yaml": stringify(bundled, { lineWidth: 0, aliasDuplicateObjects: false }),
  };
  // Write every output beside its target first, then rename, so a failure leaves no half-written file.
  for (const [name, text] of Object.entries(outputs)) writeFileSync(join(outDir, `${name}.tmp`), text);
  for (const name of Object.keys(outputs)) renameSync(join(outDir, `${name}.tmp`), join(outDir, name));
  console.log(`bundled ${root} -> ${outDir}/openapi.{yaml,json} (${Object.keys(bundled.paths).length} paths)`);
} catch (error) {
  process.stderr.write(`bundle failed: ${(error as Error).message}\n`);
  process.exit(1);
} finally {
  rmSync(work, { recursive: true, force: true });
}
