/**
 * The HTML shell of every page (docs-src/page-layout.ts): its title and the site's, escaped; the
 * sidebar listing every page in the site's order, the current one marked and with its sections; on
 * the reference, that list folded under one line counting the other pages; the site's script on
 * every page and the reference's own scripts after it, in the order they depend on each other.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { guidePage, referencePage } from "../../docs-src/page-layout.ts";
import {
  REDOC_SCRIPT_FILE,
  REFERENCE_DATA_FILE,
  REFERENCE_SCRIPT_FILE,
  SITE_PAGES,
  SITE_SCRIPT_FILE,
  type SitePage,
} from "../../docs-src/site-pages.ts";

const errors = SITE_PAGES.find((page) => page.file === "errors.html") as SitePage;
const reference = SITE_PAGES.find((page) => page.kind === "reference") as SitePage;

/** Each page of the site as the sidebar links it, the current one marked, with `inner` after its link. */
const listed = (current: SitePage, inner = ""): string =>
  SITE_PAGES.map((page) =>
    page === current
      ? `<li><a href="${page.file}" aria-current="page">${page.nav}</a>${inner}</li>`
      : `<li><a href="${page.file}">${page.nav}</a></li>`,
  ).join("");

const scripts = (html: string): string[] =>
  [...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1] ?? "");

describe("guidePage", () => {
  // In a beforeAll, so that the mutation run credits each test with it (tests/mutation/hook-coverage.ts).
  let html: string;
  beforeAll(() => {
    html = guidePage(errors, "Errors <& more>", "Media & Co", "<p>Content.</p>\n", [
      { id: "status-codes", title: "Status codes" },
      { id: "a&b", title: "Rate <limits>" },
    ]);
  });

  it("titles the page with its title and the site's, escaped", () => {
    expect(html).toContain("<title>Errors &lt;&amp; more&gt; · Media &amp; Co</title>");
    expect(html).toContain('<a class="brand" href="index.html">Media &amp; Co</a>');
  });

  it("lists every page in the sidebar, the current one marked with its sections as anchors, then the content", () => {
    const sections =
      '<ul><li><a href="#status-codes">Status codes</a></li><li><a href="#a&amp;b">Rate &lt;limits&gt;</a></li></ul>';
    expect(html).toContain(`<body class="guide-page">\n<header class="site-header">`);
    expect(html).toContain(
      `<div class="layout">\n<nav id="site-sidebar" class="sidebar" aria-label="Documentation"><ul>${listed(errors, sections)}</ul></nav>\n` +
        '<main class="guide">\n<p>Content.</p>\n</main>\n</div>\n',
    );
  });

  it("marks the current page without a sections list when it has no sections", () => {
    expect(guidePage(errors, "Errors", "Media", "", [])).toContain(`<ul>${listed(errors)}</ul>`);
  });

  it("loads the site's script only", () => {
    expect(scripts(html)).toEqual([SITE_SCRIPT_FILE]);
    expect(html.endsWith(`<script src="${SITE_SCRIPT_FILE}"></script>\n</body>\n</html>\n`)).toBe(true);
  });
});

describe("referencePage", () => {
  // In a beforeAll, so that the mutation run credits each test with it (tests/mutation/hook-coverage.ts).
  let html: string;
  beforeAll(() => {
    html = referencePage(reference, "Media");
  });

  it("folds the list of pages under one line that counts the others, with Redoc's container after it", () => {
    expect(SITE_PAGES.length).toBeGreaterThan(2);
    expect(html).toContain(`<body class="reference-page">\n<header class="site-header">`);
    expect(html).toContain(
      `<nav id="site-sidebar" class="sidebar folded" aria-label="Documentation"><details><summary>Guides and pages (${SITE_PAGES.length - 1})</summary>` +
        `<ul>${listed(reference)}</ul></details></nav>\n<div id="redoc"></div>\n`,
    );
    expect(html).toContain("<title>API reference · Media</title>");
  });

  it("loads the site's script, then the description, Redoc and the reference's own script", () => {
    expect(scripts(html)).toEqual([SITE_SCRIPT_FILE, REFERENCE_DATA_FILE, REDOC_SCRIPT_FILE, REFERENCE_SCRIPT_FILE]);
    expect(html).toContain(
      scripts(html)
        .map((file) => `<script src="${file}"></script>`)
        .join("\n"),
    );
  });
});
