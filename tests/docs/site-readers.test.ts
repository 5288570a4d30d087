/**
 * What the built site offers beyond its HTML, and what keeps its pages safe, checked without a
 * browser: llms.txt lists a Markdown copy of every page, the copies link to each other, the
 * reference's copy holds every operation with its samples; getting started names the local servers'
 * addresses and the sandbox's demo key; every page carries the Content-Security-Policy and no
 * inline script; the search index holds guide sections and operations; HTML and unsafe links in
 * Markdown are shown as text.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import MiniSearch from "minisearch";
import { describe, expect, it } from "vitest";
import {
  SEARCH_INDEX_GLOBAL,
  SEARCH_OPTIONS,
  SEARCH_QUERY_OPTIONS,
  type SearchEntry,
} from "../../docs-src/browser/search-data.ts";
import { LIVE_RELOAD_SCRIPT_HASH } from "../../docs-src/content-security.ts";
import { renderMarkdown } from "../../docs-src/markdown-page.ts";
import { markdownCopyFile, SEARCH_INDEX_FILE, SITE_PAGES } from "../../docs-src/site-pages.ts";
import { deref, loadBundle, operations } from "../../model/document.ts";
import { readServiceModel } from "../../model/service-model.ts";
import { serveStatic } from "../../docs-src/static-server.ts";
import { siteForThisFile } from "./built-site.ts";

const doc = loadBundle();
const builtSite = siteForThisFile(doc);

const read = (file: string): string => readFileSync(join(builtSite().dir, file), "utf8");

describe("llms.txt and the Markdown copies", () => {
  it("lists a Markdown copy of every page, each beside its page and starting with its title", () => {
    const llms = read("llms.txt");
    expect(llms.startsWith(`# ${doc.info.title}\n`)).toBe(true);
    const listed = [...llms.matchAll(/^- \[[^\]]+\]\(([^)]+)\)/gm)].map((match) => match[1]);
    expect(listed).toEqual([...SITE_PAGES.map(markdownCopyFile), "openapi.json"]);
    for (const page of SITE_PAGES) {
      const copy = read(markdownCopyFile(page));
      expect(copy, page.file).toMatch(/^# \S/);
      expect(read(page.file), page.file).toContain(
        `<link rel="alternate" type="text/markdown" href="${markdownCopyFile(page)}">`,
      );
    }
  });

  it("link the copies to each other, never to the HTML pages or the sources", () => {
    const gettingStarted = read("getting-started.md");
    expect(gettingStarted).toContain("](jobs-and-polling.md");
    for (const page of SITE_PAGES) {
      for (const [, target] of read(markdownCopyFile(page)).matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/i.test(target ?? "")) continue;
        expect(existsSync(join(builtSite().dir, target ?? "")), `${markdownCopyFile(page)} links to ${target}`).toBe(
          true,
        );
        expect(target, markdownCopyFile(page)).not.toMatch(/\.html$|^\.\.\//);
      }
    }
  });

  it("hold every operation of the reference with its route and its typed-client sample", () => {
    const reference = read("reference.md");
    for (const { path, method, operation } of operations(doc)) {
      expect(reference, operation.operationId).toContain(
        `### ${operation.summary}\n\n\`${method.toUpperCase()} ${path}\` (operationId \`${operation.operationId}\`)`,
      );
    }
    expect(reference).toContain('import { createClient } from "@media-service/client";');
    expect(reference).toContain("**Request example: Text-to-image at the default size**");
  });

  it("hold every answer's description whole, lists and all, under each operation that answers it", () => {
    const reference = read("reference.md");
    const tooMany = String(
      deref(doc, { $ref: "#/components/responses/TooManyRequests" } as never as { description?: string }).description ??
        "",
    );
    // Each line of the description, as it stands inside the answer's list item (indented by two).
    const lines = tooMany
      .trim()
      .split("\n")
      .filter((line) => line.trim() !== "");
    const answering = operations(doc).filter(({ operation }) => operation.responses["429"] !== undefined).length;
    expect(answering).toBeGreaterThan(30);
    for (const line of lines.slice(1)) expect(reference.split(`  ${line}\n`).length - 1, line).toBe(answering);
    expect(reference).toContain(`- **429** ${lines[0]}`);
  });

  it("list each request body's fields with their type, requiredness, default and meaning, and what is not shown", () => {
    const reference = read("reference.md");
    // I-A's and I-B's routes in this build (a slug map may change their slugs).
    const pathOf = (label: string) => readServiceModel(doc).createRoutes.find((route) => route.label === label)!.path;
    const section = reference.slice(
      reference.indexOf(`\`POST ${pathOf("I-A")}\``),
      reference.indexOf(`\`POST ${pathOf("I-B")}\``),
    );
    expect(section).toContain("| Field | Type | Required | Default | Meaning |");
    expect(section).toContain("| `prompt` | string | yes |  | Description of the image or of the edit. |");
    expect(section).toMatch(
      /\| `num_images` \| integer, 1 to 4 \| not shown \| `1` \| Number of images; each is billed\. \|/,
    );
    expect(section).toContain(
      "- Requiredness is stated only for prompt; whether the other fields are required is not shown.",
    );
    const posts = reference.slice(reference.indexOf("`POST /v1/posts`"));
    expect(posts).toMatch(/\| `license` \| string, one of `arr`, `cc-by`, `cc0` \|[^\n]*`arr`: All Rights Reserved/);
  });
});

describe("getting started", () => {
  it("names the mock's and the sandbox's addresses and the sandbox's demo key, and sends no one to the README for them", () => {
    const guide = read("getting-started.md");
    expect(guide).toContain("| `npm run mock` |");
    expect(guide).toContain("`http://127.0.0.1:4010`");
    expect(guide).toContain("`http://127.0.0.1:4020`");
    expect(guide).toContain("export API_KEY=sandbox-demo-key");
    expect(guide).not.toMatch(/README/);
  });
});

describe("every page", () => {
  it("carries the Content-Security-Policy and runs only the site's own script files", () => {
    const pages = readdirSync(builtSite().dir).filter((file) => file.endsWith(".html"));
    expect(pages).toHaveLength(SITE_PAGES.length);
    for (const page of pages) {
      const html = read(page);
      const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/
        .exec(html)?.[1]
        ?.replace(/&#39;|&quot;/g, "'");
      expect(policy, page).toContain(`script-src 'self' '${LIVE_RELOAD_SCRIPT_HASH}';`);
      expect(policy, page).toContain("default-src 'none'");
      expect(policy, page).toContain("connect-src 'self' http://127.0.0.1:*");
      expect(policy, page).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
      expect(html.match(/<script(?![^>]*\ssrc=)[^>]*>/g), `${page}: inline script`).toBeNull();
      expect(html, page).not.toMatch(/\son[a-z]+=/i);
    }
  });

  it("lets run only the inline script npm run dev's server adds to follow its reloads", async () => {
    const server = await serveStatic(builtSite().dir, 0, { liveReload: true });
    try {
      const html = await (await fetch(`${server.url}errors.html`)).text();
      const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? "");
      expect(inline).toHaveLength(1);
      expect(
        `sha256-${createHash("sha256")
          .update(inline[0] ?? "")
          .digest("base64")}`,
      ).toBe(LIVE_RELOAD_SCRIPT_HASH);
    } finally {
      await server.close();
    }
  });
});

describe("the search index", () => {
  it("finds a guide's section and a reference operation", () => {
    const window: Record<string, unknown> = {};
    runInNewContext(read(SEARCH_INDEX_FILE), { window });
    const index = MiniSearch.loadJSON<SearchEntry>(window[SEARCH_INDEX_GLOBAL] as string, SEARCH_OPTIONS);
    expect(index.search("moderation blocks").map((hit) => hit.id)).toContain("errors.html#moderation-blocks");
    expect(index.search("createImageIA").map((hit) => hit.id)).toContain("reference.html#operation/createImageIA");
  });

  it("ranks for a client developer's words: the guide that explains first, the implementers' catalogue after", () => {
    const window: Record<string, unknown> = {};
    runInNewContext(read(SEARCH_INDEX_FILE), { window });
    const index = MiniSearch.loadJSON<SearchEntry>(window[SEARCH_INDEX_GLOBAL] as string, SEARCH_OPTIONS);
    const ids = (query: string) => index.search(query, SEARCH_QUERY_OPTIONS).map((hit) => String(hit.id));
    const cooldown = ids("cooldown");
    expect(cooldown[0]).toBe("limits.html#cooldown");
    // The catalogue still answers, after every guide's and the reference's entries.
    const firstCatalogue = cooldown.findIndex((id) => id.startsWith("rules.html"));
    expect(firstCatalogue).toBeGreaterThan(0);
    expect(cooldown.slice(firstCatalogue).some((id) => id.startsWith("limits.html"))).toBe(false);
    expect(ids("uploads")[0]).toMatch(/^limits\.html#uploads$|^reference\.html#tag\/Uploads$/);
    expect(ids("retired model")[0]).toBe("versioning.html#retired-models");
  });

  it("keeps each entry's words for the result's snippet, as text", () => {
    const window: Record<string, unknown> = {};
    runInNewContext(read(SEARCH_INDEX_FILE), { window });
    const index = MiniSearch.loadJSON<SearchEntry>(window[SEARCH_INDEX_GLOBAL] as string, SEARCH_OPTIONS);
    const [first] = index.search("cooldown", SEARCH_QUERY_OPTIONS);
    expect(String(first?.excerpt)).toMatch(/^After three consecutive failed generations within an hour/);
    // Words, not markup: no tag, no Markdown emphasis or code marks (a "<" of the text itself stays).
    for (const hit of index.search("model", SEARCH_QUERY_OPTIONS))
      expect(String(hit.excerpt), String(hit.id)).not.toMatch(/<\/?(?:code|p|strong|em|a|li)\b|\*\*|`/);
  });
});

describe("Markdown from the description", () => {
  it("shows raw HTML as text and keeps only page, anchor and http(s)/mailto links", () => {
    const { html } = renderMarkdown(
      '# T\n\n<img src=x onerror="alert(1)">\n\nInline <script>alert(2)</script> [a](javascript:alert(3)) [b](https://example.org/) [c](#part)\n',
      "docs/guides/overview.md",
    );
    expect(html).not.toMatch(/<img|<script|href="javascript/i);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).toContain(' a <a href="https://example.org/">b</a> <a href="#part">c</a>');
  });
});
