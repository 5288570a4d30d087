/**
 * A page's Markdown as the site renders it (docs-src/markdown-page.ts): headings get GitHub-style
 * ids, the first `#` heading is the title and each `##` a section, links to other pages' sources
 * lead to their pages, a whole HTML comment is dropped and any other raw HTML shown as text, a link
 * with a scheme other than http(s) or mailto becomes its text, and a code block is highlighted in
 * the language its fence names first.
 */
import { describe, expect, it } from "vitest";
import { headingSlug, linkedPage, markdownCopy, renderMarkdown } from "../../docs-src/markdown-page.ts";
import { markdownCopyFile, SITE_PAGES } from "../../docs-src/site-pages.ts";

const SOURCE = "docs/guides/overview.md";
const html = (markdown: string): string => renderMarkdown(`# Page\n\n${markdown}`, SOURCE).html;
const body = (markdown: string): string => html(markdown).replace('<h1 id="page">Page</h1>\n', "");
const errorsPage = SITE_PAGES.find((page) => page.kind === "markdown" && page.source === "docs/guides/errors.md");

describe("headingSlug", () => {
  it("lower-cases, drops tags and punctuation, trims and joins words with one hyphen, as GitHub does", () => {
    expect(headingSlug("Rate Limits, Quotas & Cooldowns!")).toBe("rate-limits-quotas-cooldowns");
    expect(headingSlug("The <code>x-pricing</code> extension")).toBe("the-x-pricing-extension");
    expect(headingSlug("<b>Bold</b> <em>and</em> plain")).toBe("bold-and-plain");
    expect(headingSlug("  Padded   with    spaces  ")).toBe("padded-with-spaces");
    expect(headingSlug("snake_case and kebab-case 42")).toBe("snake_case-and-kebab-case-42");
  });
});

describe("renderMarkdown", () => {
  it("takes the first top-level heading as the title, and each second-level heading as a section", () => {
    const page = renderMarkdown("## Before\n\n# First\n\n## One `code`\n\n### Deeper\n\n# Second\n\n## Two", SOURCE);
    expect(page.title).toBe("First");
    expect(page.sections).toEqual([
      { id: "before", title: "Before" },
      { id: "one-code", title: "One code" },
      { id: "two", title: "Two" },
    ]);
    expect(page.html).toContain('<h3 id="deeper">Deeper</h3>\n');
    expect(page.html).toContain('<h2 id="one-code">One <code>code</code></h2>\n');
  });

  it("refuses a page without a title, naming its source", () => {
    expect(() => renderMarkdown("## Only a section\n\nText.", "docs/guides/x.md")).toThrow(
      'docs/guides/x.md: no "# Title" heading',
    );
  });

  it("drops a whole HTML comment, on one line or several, indented or last on the page", () => {
    for (const comment of [
      "<!-- generated: do not edit -->\n\nText.",
      "   <!-- indented three spaces -->\n\nText.",
      "<!--\nspread over\nlines\n-->\n\nText.",
      "Text.\n\n<!-- last, with no newline after it -->",
      "<!-- followed by blank lines -->\n\n\n\nText.",
    ]) {
      const shown = body(comment);
      expect(shown, comment).toBe("<p>Text.</p>\n");
    }
  });

  it("shows as text an HTML block that holds a comment and anything else", () => {
    expect(body("<div><!-- c -->\n\nText.")).toBe("&lt;div&gt;&lt;!-- c --&gt;<p>Text.</p>\n");
    expect(body("<div>a</div> <!-- c -->\n\nText.")).toBe("&lt;div&gt;a&lt;/div&gt; &lt;!-- c --&gt;<p>Text.</p>\n");
  });

  it("keeps links to pages, anchors and http(s) or mailto addresses, with their escaped titles, and makes any other scheme's link its text", () => {
    expect(
      body('[a](https://example.com/a.md "T & U") [m](mailto:x@example.com) [n](#part) [j](javascript:alert(1))'),
    ).toBe(
      '<p><a href="https://example.com/a.md" title="T &amp; U">a</a> <a href="mailto:x@example.com">m</a> <a href="#part">n</a> j</p>\n',
    );
  });

  it("leads a link to another page's source to that page, its anchor kept", () => {
    expect(body("[errors](errors.md#status-codes) and [again](./errors.md)")).toBe(
      `<p><a href="${errorsPage?.file}#status-codes">errors</a> and <a href="${errorsPage?.file}">again</a></p>\n`,
    );
  });

  it("highlights a code block in the first language its fence names, and leaves a block with none plain", () => {
    const named = body("```ts title=example\nconst a = 1;\n```\n");
    expect(named).toMatch(
      /^<pre class="language-typescript"><code class="language-typescript"><span class="token keyword">const<\/span>/,
    );
    expect(named).toBe(body("```ts\nconst a = 1;\n```\n"));
    expect(body("```\nconst a = 1;\n```\n")).toBe("<pre><code>const a = 1;</code></pre>\n");
  });
});

describe("linkedPage", () => {
  it("finds the page of a source a link names relative to the linking page, and nothing for other links", () => {
    expect(linkedPage(SOURCE, "errors.md#x")).toBe(errorsPage);
    expect(linkedPage("docs/guides/sub/deeper.md", "../errors.md")).toBe(errorsPage);
    expect(linkedPage(SOURCE, "https://example.com/errors.md")).toBeUndefined();
    expect(linkedPage(SOURCE, "errors.html")).toBeUndefined();
    expect(linkedPage(SOURCE, "#errors.md")).toBeUndefined();
  });

  it("refuses a link to a Markdown file that is not a page of the site", () => {
    expect(() => linkedPage(SOURCE, "missing.md#x")).toThrow(
      "docs/guides/overview.md: link to missing.md#x, which is not a page of the site",
    );
  });
});

describe("markdownCopy", () => {
  it("leads links to a page's source or HTML file to its Markdown copy, anchors kept, and leaves other links", () => {
    expect(errorsPage).toBeDefined();
    const copy = markdownCopyFile(errorsPage!);
    expect(
      markdownCopy("[s](errors.md#codes) [h](errors.html) [n](#x) [w](https://example.com/errors.html)", SOURCE),
    ).toBe(`[s](${copy}#codes) [h](${copy}) [n](#x) [w](https://example.com/errors.html)`);
  });

  it("names a page's copy by changing only the final .html", () => {
    expect(markdownCopyFile({ ...errorsPage!, file: "a.html-b.html" })).toBe("a.html-b.md");
  });
});
