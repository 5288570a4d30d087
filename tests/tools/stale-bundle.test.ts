/** Whether a bundle is the current one of its sources (tools/bundle-description.ts staleBundle), whatever the bundle file is named. */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { slugMapFile } from "../../model/slug-map.ts";
import { staleBundle } from "../../tools/bundle-description.ts";

const project = new URL("../../", import.meta.url).pathname;
const root = join(project, "openapi/openapi.yaml");
const dir = mkdtempSync(join(tmpdir(), "stale-bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("staleBundle", () => {
  it("takes a current bundle under any name for current, in JSON or YAML by its extension", async () => {
    for (const [source, name] of [
      ["openapi.json", "snapshot.json"],
      ["openapi.yaml", "snapshot.yaml"],
    ] as const) {
      const copy = join(dir, name);
      copyFileSync(join(project, "generated", source), copy);
      expect(await staleBundle(copy, root, slugMapFile()), name).toBeNull();
    }
  });

  it("says a changed bundle is not the bundle of its sources", async () => {
    const changed = join(dir, "changed.json");
    writeFileSync(changed, "{}\n");
    expect(await staleBundle(changed, root, slugMapFile())).toMatch(/changed\.json is not the bundle of /);
  });
});
