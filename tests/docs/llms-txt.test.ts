/**
 * llms.txt (docs-src/llms-txt.ts, https://llmstxt.org): the site's name, its summary on one line as
 * a quote (none without one), the version and what the file lists, then a link to the Markdown copy
 * of every guide, and of the reference with the OpenAPI description, each with what it holds where
 * its name does not say it.
 */
import { describe, expect, it } from "vitest";
import { llmsTxt } from "../../docs-src/llms-txt.ts";
import type { SitePage } from "../../docs-src/site-pages.ts";
import type { OpenApiDocument } from "../../model/document.ts";

const PAGES: { page: SitePage; about: string }[] = [
  { page: { kind: "markdown", file: "index.html", source: "docs/guides/overview.md", nav: "Overview" }, about: "" },
  { page: { kind: "reference", file: "reference.html", nav: "API reference" }, about: "every operation" },
  {
    page: { kind: "markdown", file: "errors.html", source: "docs/guides/errors.md", nav: "Errors" },
    about: "error bodies",
  },
];

const doc = (summary?: string): OpenApiDocument =>
  ({
    openapi: "3.1.0",
    info: { title: "Media API", version: "2026-06-20", summary },
    paths: {},
    components: {},
  }) as OpenApiDocument;

describe("llmsTxt", () => {
  it("gives the name, the summary on one line, the version, the guides' copies and the reference's", () => {
    expect(llmsTxt(doc("  Generates media\n   from prompts.  "), PAGES)).toBe(
      [
        "# Media API",
        "",
        "> Generates media from prompts.",
        "",
        "Version 2026-06-20. Every page of this documentation has a Markdown copy beside it (the same name ending in .md); they are listed here.",
        "",
        "## Guides",
        "",
        "- [Overview](index.md)",
        "- [Errors](errors.md): error bodies",
        "",
        "## Reference",
        "",
        "- [API reference](reference.md): every operation",
        "- [OpenAPI description](openapi.json): the OpenAPI 3.1 description the reference shows, with its code samples",
        "",
      ].join("\n"),
    );
  });

  it("has no quote line without a summary", () => {
    for (const summary of [undefined, "", "  \n "])
      expect(llmsTxt(doc(summary), PAGES).startsWith("# Media API\n\nVersion 2026-06-20.")).toBe(true);
  });
});
