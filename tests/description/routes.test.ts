import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { operations } from "../../model/document.ts";
import { builtPath, doc } from "../support/description.ts";

const spec = (name: string) => readFileSync(new URL(`../../spec/${name}`, import.meta.url), "utf8");

/** The placeholder slug table of spec/placeholder-slugs.md: area create route -> slugs, ranges expanded. */
function slugTable(): Map<string, string[]> {
  const table = new Map<string, string[]>();
  for (const line of spec("placeholder-slugs.md").split("\n")) {
    const route = /`POST (\/v1\/[a-z0-9-]+)\/\{slug\}`/.exec(line)?.[1];
    if (!route) continue;
    const cell = line.split("|")[3] ?? "";
    const slugs: string[] = [];
    for (const part of cell.replace(/\(.*$/, "").split(",")) {
      const range = /`([a-z]+)-([a-z])`\s*…\s*`[a-z]+-([a-z])`/.exec(part);
      if (range) {
        for (let c = range[2]!.charCodeAt(0); c <= range[3]!.charCodeAt(0); c += 1) {
          slugs.push(`${range[1]}-${String.fromCharCode(c)}`);
        }
      } else {
        for (const match of part.matchAll(/`([a-z]+-[a-z])`/g)) slugs.push(match[1]!);
      }
    }
    table.set(route, slugs);
  }
  return table;
}

describe("routes", () => {
  const table = slugTable();
  const declared = new Set(operations(doc).map(({ path, method }) => `${method.toUpperCase()} ${path}`));

  it("reads the whole slug table of spec/placeholder-slugs.md", () => {
    expect([...table.keys()]).toHaveLength(8);
    expect(table.get("/v1/images")).toEqual(["i-a", "i-b", "i-c", "i-d", "i-e", "i-f", "i-g", "i-h", "i-j", "i-k"]);
    expect(table.get("/v1/videos")).toHaveLength(7);
  });

  it("has a concrete POST route for every slug of the table, and no other create route", () => {
    const expected = [...table].flatMap(([route, slugs]) =>
      slugs.map((slug) => `POST ${builtPath(`${route}/${slug}`)}`),
    );
    for (const route of expected) expect(declared, route).toContain(route);
    const creates = [...declared].filter(
      (r) => r.startsWith("POST") && [...table.keys()].some((k) => r.startsWith(`POST ${k}/`)),
    );
    expect(creates.sort()).toEqual(expected.sort());
  });

  it("has every route the seed names", () => {
    const seed = spec("media-service-spec.md");
    // "POST /v1/audios/..." is how the seed writes a route whose exact path is not shown.
    const named = new Set(
      [...seed.matchAll(/\b(GET|POST) (\/v1\/[A-Za-z0-9/{}._-]*[A-Za-z0-9}])(\/\.\.\.)?/g)].map(
        (m) => `${m[1]} ${m[2]}${m[3] ? "/{slug}" : ""}`,
      ),
    );
    expect(named.size).toBeGreaterThan(15);
    for (const route of named) {
      const [method, path] = route.split(" ") as [string, string];
      if (path.endsWith("/{slug}")) {
        const slugs = table.get(path.slice(0, -"/{slug}".length));
        expect(slugs, `${route}: area missing from the slug table`).toBeDefined();
        for (const slug of slugs!) expect(declared).toContain(`${method} ${builtPath(path.replace("{slug}", slug))}`);
      } else {
        expect(declared, route).toContain(route);
      }
    }
    expect(named).toContain("POST /v1/audios/{slug}");
  });

  it("poll routes are GET /v1/<area>/{id} for every area", () => {
    for (const route of table.keys()) expect(declared).toContain(`GET ${route}/{id}`);
  });
});
