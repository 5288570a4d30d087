import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copyDescription } from "../support/description-copy.ts";
import { loadBundle } from "../../model/document.ts";
import { applySlugMap, placeholderPaths, PROJECT_SLUG_MAP, readSlugMap, slugMapFile } from "../../model/slug-map.ts";
import { readServiceModel } from "../../model/service-model.ts";
import { buildDescription, bundleDescription, writeBundle } from "../../tools/bundle-description.ts";

const project = new URL("../../", import.meta.url).pathname;

/** The script's work in this process (tools/bundle-description.ts), as the script reports it. */
async function bundle(root: string, out: string, env: Record<string, string> = {}) {
  try {
    await bundleDescription(root, out, slugMapFile({ MEDIA_SLUG_MAP: "none", ...env }));
    return { code: 0, stderr: "" };
  } catch (error) {
    return { code: 1, stderr: (error as Error).message };
  }
}

describe("the bundle step", () => {
  let work: string;
  let root: string;
  let out: string;
  beforeEach(() => {
    ({ work, root, out } = copyDescription());
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it("names the file and the line of invalid YAML", async () => {
    writeFileSync(
      join(work, "openapi", "components", "schemas", "JobStatus.yaml"),
      "title: JobStatus\n  type: [oops\n",
    );
    const result = await bundle(root, out);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/JobStatus\.yaml:\d+:\d+/);
    expect(existsSync(join(out, "openapi.yaml"))).toBe(false);
  });

  it("substitutes real slugs from MEDIA_SLUG_MAP in one place, leaving poll routes templated", async () => {
    const map = join(work, "slugs.json");
    writeFileSync(map, JSON.stringify({ "i-a": "real-image-model", "v-b": "real-video-model" }));
    const result = await bundle(root, out, { MEDIA_SLUG_MAP: map });
    expect(result.stderr).toBe("");
    const paths = Object.keys(JSON.parse(readFileSync(join(out, "openapi.json"), "utf8")).paths);
    expect(paths).toContain("/v1/images/real-image-model");
    expect(paths).toContain("/v1/videos/real-video-model");
    expect(paths).not.toContain("/v1/images/i-a");
    expect(paths).toContain("/v1/images/{id}");
    expect(readFileSync(join(out, "openapi.yaml"), "utf8")).toContain("/v1/images/real-image-model:");
  });

  it("rejects a slug map that names an unknown slug or an invalid slug, saying which", async () => {
    const map = join(work, "slugs.json");
    writeFileSync(map, JSON.stringify({ "i-z": "whatever" }));
    const unknown = await bundle(root, out, { MEDIA_SLUG_MAP: map });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('"i-z" is not a slug of any path');
    writeFileSync(map, JSON.stringify({ "i-a": "Not A Slug" }));
    const invalid = await bundle(root, out, { MEDIA_SLUG_MAP: map });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('slug for "i-a" must be a string matching');
    expect(existsSync(join(out, "openapi.json"))).toBe(false);
  });

  it("rejects two slugs that would become one path, naming the map file and both routes", async () => {
    const map = join(work, "slugs.json");
    writeFileSync(map, JSON.stringify({ "i-a": "real-image-model", "i-b": "real-image-model" }));
    const collision = await bundle(root, out, { MEDIA_SLUG_MAP: map });
    expect(collision.code).toBe(1);
    expect(collision.stderr).toContain(
      `slug map ${map}: /v1/images/i-a and /v1/images/i-b would both become /v1/images/real-image-model`,
    );
    writeFileSync(map, JSON.stringify({ "i-a": "i-b" }));
    const onExisting = await bundle(root, out, { MEDIA_SLUG_MAP: map });
    expect(onExisting.code).toBe(1);
    expect(onExisting.stderr).toContain("would both become /v1/images/i-b");
    expect(existsSync(join(out, "openapi.json"))).toBe(false);
  });
});

describe("one build in memory", () => {
  it("is the files it writes, the slug map it applied, where its paths come from, and the one service model of its document", async () => {
    const root = join(project, "openapi", "openapi.yaml");
    const build = await buildDescription(root, {
      slugMapFile: join(project, "tests", "support", "real-slugs.json"),
      overlayFiles: [],
    });
    const out = mkdtempSync(join(tmpdir(), "build-value-"));
    try {
      writeBundle(build, out);
      expect(readFileSync(join(out, "openapi.json"), "utf8")).toBe(build.outputs["openapi.json"]);
      expect(readFileSync(join(out, "openapi.yaml"), "utf8")).toBe(build.outputs["openapi.yaml"]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    expect(JSON.parse(build.outputs["openapi.json"])).toEqual(build.doc);
    expect(build.slugMap["i-a"]).toBe("imagegen-4-ultra");
    // The real slug's path is found in the placeholder's file.
    expect(build.sources.locate(["paths", "/v1/images/imagegen-4-ultra", "post"])?.file).toBe(
      join(project, "openapi", "paths", "v1_images_i-a.yaml"),
    );
    // Generators and docs that read the model of this document get this very model.
    expect(build.model).toBe(readServiceModel(build.doc));
    expect(build.model.createRoutes.find((route) => route.label === "I-A")?.path).toBe("/v1/images/imagegen-4-ultra");
  });
});

describe("the slug map in effect", () => {
  it("is MEDIA_SLUG_MAP when set (none: the placeholders), else slug-map.json at the project root when it exists, else none", () => {
    expect(slugMapFile({ MEDIA_SLUG_MAP: "/somewhere/slugs.json" })).toBe("/somewhere/slugs.json");
    expect(slugMapFile({ MEDIA_SLUG_MAP: "none" })).toBeUndefined();
    expect(slugMapFile({})).toBe(existsSync(PROJECT_SLUG_MAP) ? PROJECT_SLUG_MAP : undefined);
    expect(PROJECT_SLUG_MAP).toBe(join(project, "slug-map.json"));
  });
});

describe("placeholder paths", () => {
  it("undo a slug map by the model labels, leaving every other path as it is", () => {
    const paths = loadBundle().paths;
    const placeholders = placeholderPaths(paths);
    const mapped = applySlugMap(placeholders, { "i-a": "real-image-model", "v-b": "real-video-model" });
    expect(Object.keys(mapped)).toContain("/v1/images/real-image-model");
    expect(placeholderPaths(mapped)).toEqual(placeholders);
    expect(Object.keys(placeholders)).toContain("/v1/images/{id}");
  });
});

describe("a real slug in the slug map", () => {
  /** readSlugMap on a map file giving I-A the slug `slug`: its error, or null when the slug is taken. */
  const refusal = (slug: string): string | null => {
    const dir = mkdtempSync(join(tmpdir(), "slug-map-"));
    try {
      const file = join(dir, "slugs.json");
      writeFileSync(file, JSON.stringify({ "i-a": slug }));
      readSlugMap(file);
      return null;
    } catch (error) {
      return (error as Error).message;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it("is taken whole when it is one path segment of lower-case letters, digits, '.', '_' and '-', starting with a letter or digit", () => {
    for (const slug of ["real-image-model", "imagegen-4-ultra", "flux.1-pro", "sdxl_turbo", "4k", "v2"])
      expect(refusal(slug), slug).toBeNull();
  });

  it("is refused when it goes bad after a valid start: a second path segment, a space, a line break, a query or an upper-case letter", () => {
    // The spec: the real slug of each model is the last path segment (spec/media-service-spec.md, Conventions).
    for (const slug of [
      "flux/pro",
      "flux/",
      "abc def",
      "model\n",
      "model\r\n",
      "model ",
      "model?version=2",
      "model#part",
      "model%2Fpro",
      "flux-Pro",
      "model/../i-b",
    ]) {
      expect(refusal(slug) ?? "accepted", JSON.stringify(slug)).toContain('slug for "i-a" must be a string matching');
    }
  });

  it("is refused when it is no slug from its first character, or empty", () => {
    for (const slug of ["", "Not A Slug", "/flux", "-model", ".model", "\nmodel"])
      expect(refusal(slug) ?? "accepted", JSON.stringify(slug)).toContain('slug for "i-a" must be a string matching');
  });
});
