/**
 * The site's search index (docs-src/search-index.ts): a page's entries are its lead (its title
 * heading dropped) and each second-level section, with its anchor; the reference's are its tags and
 * its operations (route, operationId, description's words without Markdown marks, parameter
 * names), at Redoc's anchors; the text is the rendered words only; and the index script holds them
 * all, each with an excerpt of its first characters, for the search box to load.
 */
import MiniSearch from "minisearch";
import { describe, expect, it } from "vitest";
import {
  EXCERPT_CHARS,
  SEARCH_INDEX_GLOBAL,
  SEARCH_OPTIONS,
  type SearchEntry,
} from "../../docs-src/browser/search-data.ts";
import { pageEntries, plainText, referenceEntries, searchIndexScript } from "../../docs-src/search-index.ts";
import type { OpenApiDocument } from "../../model/document.ts";

describe("plainText", () => {
  it("drops tags, undoes entities and folds every run of spaces to one", () => {
    expect(plainText('  <p class="x">A&lt;b&gt; &quot;c&quot;\n\n  &#39;d&#39;<br>e&amp;f &amp;lt; &nbsp;</p>  ')).toBe(
      "A<b> \"c\" 'd' e&f &lt; &nbsp;",
    );
    expect(plainText("<li>one</li><li>two</li>")).toBe("one two");
  });
});

describe("pageEntries", () => {
  const html =
    '<h1 id="errors">Errors</h1>\n<p>The lead &amp; more.</p>\n' +
    '<h2 id="status-codes">Status <code>codes</code></h2>\n<p>400 and 401.</p>\n' +
    '<h3 id="deep">Deep</h3>\n<p>Still codes.</p>\n' +
    '<h2 id="retries">Retries</h2>\n<p>Wait.</p>\n';

  it("gives the lead without its title, then each second-level section with its anchor, title and text", () => {
    expect(pageEntries("errors.html", "Errors", html, 3)).toEqual([
      { id: "errors.html", title: "Errors", page: "Errors", text: "The lead & more.", weight: 3 },
      {
        id: "errors.html#status-codes",
        title: "Status codes",
        page: "Errors",
        text: "400 and 401. Deep Still codes.",
        weight: 3,
      },
      { id: "errors.html#retries", title: "Retries", page: "Errors", text: "Wait.", weight: 3 },
    ]);
  });

  it("weighs a page 1 unless told, and keeps a title heading's words out of the lead only at its start", () => {
    const [lead] = pageEntries("a.html", "A", '<h1 class="t">Title\nline</h1><p>Lead.</p><h1>Later</h1>');
    expect(lead).toEqual({ id: "a.html", title: "A", page: "A", text: "Lead. Later", weight: 1 });
    const [noTitle] = pageEntries("b.html", "B", "<p>Lead.</p><h1>Later</h1>");
    expect(noTitle?.text).toBe("Lead. Later");
  });
});

describe("referenceEntries", () => {
  const doc = {
    openapi: "3.1.0",
    info: { title: "T", version: "1" },
    tags: [
      { name: "Image jobs", description: "Create **image** jobs; see [the guide](guides/x.html) and `poll`." },
      { name: "Bare" },
    ],
    paths: {
      "/v1/images/{id}": {
        get: {
          operationId: "getImageJob",
          summary: "Get an image job",
          description: "Reads *one* job: `status`, [links](#x).",
          parameters: [{ name: "id", in: "path" }, { $ref: "#/components/parameters/X" }],
          responses: {},
        },
      },
      "/v1/cost": { post: { operationId: "quoteCost", responses: {} } },
    },
    components: { parameters: { X: { name: "limit", in: "query" } } },
  } as unknown as OpenApiDocument;

  it("gives each tag at its anchor, its description's words without Markdown marks", () => {
    const [tag, bare] = referenceEntries("reference.html", "API reference", doc);
    expect(tag).toEqual({
      id: "reference.html#tag/Image%20jobs",
      title: "Image jobs",
      page: "API reference",
      text: "Create image jobs; see the guide and poll.",
      weight: 1,
    });
    expect(bare).toEqual({ id: "reference.html#tag/Bare", title: "Bare", page: "API reference", text: "", weight: 1 });
  });

  it("gives each operation at Redoc's anchor, titled by its summary or id, with its route, id, words and parameter names, shared ones included", () => {
    const [, , poll, quote] = referenceEntries("reference.html", "API reference", doc);
    expect(poll).toEqual({
      id: "reference.html#operation/getImageJob",
      title: "Get an image job",
      page: "API reference",
      text: "GET /v1/images/{id} getImageJob Reads one job: status, links. id limit",
      weight: 1,
    });
    expect(quote).toEqual({
      id: "reference.html#operation/quoteCost",
      title: "quoteCost",
      page: "API reference",
      text: "POST /v1/cost quoteCost",
      weight: 1,
    });
  });
});

describe("searchIndexScript", () => {
  it("assigns the index to the search box's global, each entry stored with an excerpt of its first characters", () => {
    const long = `${"word ".repeat(200)}end`;
    const script = searchIndexScript([
      { id: "a.html", title: "Alpha", page: "A", text: long, weight: 2 },
      { id: "b.html#x", title: "Beta", page: "B", text: "short text", weight: 1 },
    ]);
    const assigned = new RegExp(`^window\\.${SEARCH_INDEX_GLOBAL} = ("(?:[^"\\\\]|\\\\.)*");\\n$`).exec(script);
    expect(assigned).not.toBeNull();
    const index = MiniSearch.loadJSON<SearchEntry>(JSON.parse(assigned?.[1] ?? '""'), SEARCH_OPTIONS);
    const [alpha] = index.search("alpha");
    expect(alpha).toMatchObject({
      id: "a.html",
      title: "Alpha",
      page: "A",
      weight: 2,
      excerpt: long.slice(0, EXCERPT_CHARS),
    });
    expect(long.length).toBeGreaterThan(EXCERPT_CHARS);
    expect(index.search("short")[0]).toMatchObject({ id: "b.html#x", excerpt: "short text" });
  });
});
