/**
 * The slug map (model/slug-map.ts): which file is in effect, and what a map may hold. A real slug
 * becomes the last segment of a create path, so it must be one path segment of lower-case letters,
 * digits, dots, underscores and hyphens, starting with a letter or digit: the whole slug, not only
 * its first character (a slash after it would add a path segment; an upper-case letter or a space
 * anywhere would make a path the description's routes never match).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { applySlugMap, applySlugMapFile, PROJECT_SLUG_MAP, readSlugMap, slugMapFile } from "../../model/slug-map.ts";

const work = mkdtempSync(join(tmpdir(), "slug-map-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let files = 0;
/** A map file holding `text`. */
function mapFile(text: string): string {
  const file = join(work, `map-${++files}.json`);
  writeFileSync(file, text);
  return file;
}

const slugRule = "must be a string matching /^[a-z0-9][a-z0-9._-]*$/";

describe("a slug map's slugs", () => {
  it.each(["imagegen-4-ultra", "v2", "flux.1_pro", "9", "a-"])("accepts %j", (slug) => {
    expect(readSlugMap(mapFile(JSON.stringify({ "i-a": slug })))).toEqual({ "i-a": slug });
  });

  it.each([
    ["a slash after the first character", "flux/pro"],
    ["an upper-case letter after the first", "fluxPro"],
    ["a space at the end", "flux "],
    ["a newline at the end", "flux\n"],
    ["a first character other than a letter or digit", "-flux"],
    ["an upper-case first character", "Flux"],
    ["nothing", ""],
  ])("refuses %s (%j), naming the placeholder and the rule", (_case, slug) => {
    const file = mapFile(JSON.stringify({ "v-b": slug }));
    expect(() => readSlugMap(file)).toThrow(new Error(`slug map ${file}: slug for "v-b" ${slugRule}`));
  });

  it("refuses a slug that is not a string", () => {
    const file = mapFile(JSON.stringify({ "i-a": 4 }));
    expect(() => readSlugMap(file)).toThrow(new Error(`slug map ${file}: slug for "i-a" ${slugRule}`));
  });
});

describe("a slug map file", () => {
  it("must be JSON, naming the file and the parser's reason", () => {
    const file = mapFile("{ not json");
    expect(() => readSlugMap(file)).toThrow(`slug map ${file}: not readable as JSON (`);
  });

  it.each([
    ["an array", "[]"],
    ["null", "null"],
    ["a string", '"i-a"'],
  ])("must be an object, not %s", (_case, text) => {
    const file = mapFile(text);
    expect(() => readSlugMap(file)).toThrow(
      new Error(`slug map ${file}: must be a JSON object from placeholder slug to real slug`),
    );
  });

  it("is none where no file is named: the placeholders stay", () => {
    expect(readSlugMap(undefined)).toEqual({});
  });
});

describe("the slug map in effect", () => {
  it("is the file MEDIA_SLUG_MAP names, else none for `none`", () => {
    expect(slugMapFile({ MEDIA_SLUG_MAP: "/maps/real.json" })).toBe("/maps/real.json");
    expect(slugMapFile({ MEDIA_SLUG_MAP: "none" })).toBeUndefined();
  });

  it("is the project's slug-map.json where the variable is unset or empty, and only where that file exists", () => {
    // The repository keeps the placeholders (no slug-map.json); a deployment may commit its map.
    const projects = existsSync(PROJECT_SLUG_MAP) ? PROJECT_SLUG_MAP : undefined;
    expect(slugMapFile({})).toBe(projects);
    expect(slugMapFile({ MEDIA_SLUG_MAP: "" })).toBe(projects);
    expect(PROJECT_SLUG_MAP).toBe(join(fileURLToPath(new URL("../..", import.meta.url)), "slug-map.json"));
  });
});

describe("a slug map applied to the description's paths", () => {
  const paths = { "/v1/images/i-a": {}, "/v1/images/i-b": {}, "/v1/images/{id}": {}, "/v1/account/credits": {} };

  it("renames each create path to its real slug, in the same order, and leaves the poll and other paths", () => {
    expect(Object.keys(applySlugMap(paths, { "i-b": "real-b" }))).toEqual([
      "/v1/images/i-a",
      "/v1/images/real-b",
      "/v1/images/{id}",
      "/v1/account/credits",
    ]);
  });

  it("refuses placeholders the description lacks, naming each in one or in several", () => {
    expect(() => applySlugMap(paths, { "i-z": "z" }, "the map")).toThrow(
      new Error('the map: "i-z" is not a slug of any path in the description'),
    );
    expect(() => applySlugMap(paths, { "i-y": "y", "i-a": "a", "i-z": "z" })).toThrow(
      new Error('the slug map: "i-y", "i-z" are not slugs of any path in the description'),
    );
  });

  it("refuses two slugs that would end as one path, naming both", () => {
    expect(() => applySlugMap(paths, { "i-a": "same", "i-b": "same" }, "the map")).toThrow(
      new Error(
        "the map: /v1/images/i-a and /v1/images/i-b would both become /v1/images/same; every real slug must be unique within its area",
      ),
    );
  });

  it("names the file of applySlugMapFile in its errors", () => {
    const file = mapFile(JSON.stringify({ "i-z": "z" }));
    expect(() => applySlugMapFile(paths, file)).toThrow(
      new Error(`slug map ${file}: "i-z" is not a slug of any path in the description`),
    );
  });
});
