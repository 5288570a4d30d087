/** The working loop of `npm run dev` on a copy of the project: rebuilds and reports faults by file (live reload: dev-loop.test.ts). */
import fs, { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { slugMapFile } from "../../model/slug-map.ts";
import { DevLoop } from "../../scripts/dev-loop.ts";

const project = new URL("../../", import.meta.url).pathname;

/**
 * Runs `work` recording every file read with readFileSync in this process (fs's export patched,
 * and synced into the ES module bindings that the project's code imports), then restores it.
 */
async function recordingReads<T>(work: () => Promise<T>): Promise<{ result: T; reads: string[] }> {
  const reads: string[] = [];
  const original = fs.readFileSync;
  fs.readFileSync = ((file: Parameters<typeof original>[0], ...rest: [never]) => {
    reads.push(String(file));
    return original(file, ...rest);
  }) as typeof original;
  syncBuiltinESMExports();
  try {
    return { result: await work(), reads };
  } finally {
    fs.readFileSync = original;
    syncBuiltinESMExports();
  }
}

describe("the dev loop", () => {
  let root: string;
  let loop: DevLoop;
  const pathFile = () => join(root, "openapi", "paths", "v1_images_i-a.yaml");
  let original: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "dev-loop-"));
    cpSync(join(project, "openapi"), join(root, "openapi"), { recursive: true });
    mkdirSync(join(root, "generated"));
    mkdirSync(join(root, "docs"));
    original = readFileSync(pathFile(), "utf8");
    // The project's generated files are compared with the loop's, so the loop uses the same slug map.
    loop = new DevLoop({ root, siteDir: join(root, "site"), slugMap: slugMapFile() });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("bundles, regenerates, lints and builds the docs of a clean description, reading back nothing it wrote", async () => {
    const { result, reads } = await recordingReads(() => loop.pass());
    // The recording sees the pass's reads (the guides the docs are built from), and none of the files it wrote.
    expect(reads).toContain(join(project, "docs", "guides", "overview.md"));
    expect(
      reads.filter((file) => file.startsWith(join(root, "generated")) || file.startsWith(join(root, "site"))),
    ).toEqual([]);
    expect(result.messages).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.timings.map(([step]) => step)).toEqual(["bundle", "generate", "lint", "docs"]);
    expect(readFileSync(join(root, "generated", "client.ts"), "utf8")).toBe(
      readFileSync(join(project, "generated", "client.ts"), "utf8"),
    );
    expect(readFileSync(join(root, "site", "index.html"), "utf8")).toContain("<html");
  });

  it("reports a broken $ref by file and leaves the last good output", async () => {
    writeFileSync(pathFile(), original.replace("ImageJobAccepted.yaml", "NoSuchResponse.yaml"));
    const before = readFileSync(join(root, "generated", "openapi.json"), "utf8");
    const result = await loop.pass();
    expect(result.ok).toBe(false);
    expect(result.messages.join("\n")).toMatch(/v1_images_i-a\.yaml[\s\S]*NoSuchResponse\.yaml/);
    expect(readFileSync(join(root, "generated", "openapi.json"), "utf8")).toBe(before);
  });

  it("reports a lint finding after an edit, and passes again once it is mended", async () => {
    writeFileSync(
      pathFile(),
      original.replace("  summary: Create an image with I-A (text-to-image and editing, five sizes)\n", ""),
    );
    const broken = await loop.pass();
    expect(broken.ok).toBe(false);
    expect(broken.messages.join("\n")).toMatch(/summary/i);
    expect(broken.messages.join("\n")).toMatch(/^openapi\/paths\/v1_images_i-a\.yaml:\d+:\d+ /m);
    writeFileSync(pathFile(), original);
    expect((await loop.pass()).ok).toBe(true);
  });
});
