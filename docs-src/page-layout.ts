/**
 * The HTML shell shared by every page of the docs site: the Content-Security-Policy, a header with
 * the site's name, the one search box and (narrow screens) the menu button; the sidebar listing
 * every page (the current one with its sections); the content.
 */
import { CONTENT_SECURITY_POLICY } from "./content-security.ts";
import { escapeHtml } from "./html-text.ts";
import {
  markdownCopyFile,
  REDOC_SCRIPT_FILE,
  REFERENCE_DATA_FILE,
  REFERENCE_SCRIPT_FILE,
  SITE_PAGES,
  SITE_SCRIPT_FILE,
  STYLESHEET_FILE,
  type SitePage,
} from "./site-pages.ts";

export interface PageSection {
  id: string;
  title: string;
}

function pageList(current: SitePage, sections: readonly PageSection[]): string {
  const items = SITE_PAGES.map((page) => {
    if (page !== current) return `<li><a href="${page.file}">${escapeHtml(page.nav)}</a></li>`;
    const own = sections.map(
      (section) => `<li><a href="#${escapeHtml(section.id)}">${escapeHtml(section.title)}</a></li>`,
    );
    return `<li><a href="${page.file}" aria-current="page">${escapeHtml(page.nav)}</a>${own.length > 0 ? `<ul>${own.join("")}</ul>` : ""}</li>`;
  });
  return `<ul>${items.join("")}</ul>`;
}

/** Every page of the site, the current one with its sections. */
function sidebar(current: SitePage, sections: readonly PageSection[]): string {
  return `<nav id="site-sidebar" class="sidebar" aria-label="Documentation">${pageList(current, sections)}</nav>`;
}

/**
 * The reference's list of pages, folded into one line at the top of Redoc's menu: the reader of the
 * reference looks for operations, which the list would push below the fold; the guides are one
 * click away (and in the search).
 */
function foldedSidebar(current: SitePage): string {
  return `<nav id="site-sidebar" class="sidebar folded" aria-label="Documentation"><details><summary>Guides and pages (${SITE_PAGES.length - 1})</summary>${pageList(current, [])}</details></nav>`;
}

function header(siteTitle: string): string {
  return `<header class="site-header">
<a class="brand" href="${SITE_PAGES[0]!.file}">${escapeHtml(siteTitle)}</a>
<div class="site-search" role="search">
<input type="search" id="site-search" placeholder="Search guides and reference (/ or Ctrl+K)" aria-label="Search guides and reference" aria-keyshortcuts="/ Control+K Meta+K" autocomplete="off" spellcheck="false">
<ol id="site-search-results" class="search-results" hidden></ol>
</div>
<button type="button" class="menu-toggle" aria-controls="site-sidebar" aria-expanded="false">Pages</button>
</header>`;
}

function shell(
  page: SitePage,
  title: string,
  siteTitle: string,
  body: string,
  bodyClass: string,
  scripts: readonly string[],
): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CONTENT_SECURITY_POLICY)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)} · ${escapeHtml(siteTitle)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${STYLESHEET_FILE}">
<link rel="alternate" type="text/markdown" href="${markdownCopyFile(page)}">
</head>
<body class="${bodyClass}">
${header(siteTitle)}
${body}
${[SITE_SCRIPT_FILE, ...scripts].map((file) => `<script src="${file}"></script>`).join("\n")}
</body>
</html>
`;
}

/** A guide (or any Markdown page): the sidebar and the rendered content. */
export function guidePage(
  page: SitePage,
  title: string,
  siteTitle: string,
  contentHtml: string,
  sections: readonly PageSection[],
): string {
  return shell(
    page,
    title,
    siteTitle,
    `<div class="layout">\n${sidebar(page, sections)}\n<main class="guide">\n${contentHtml}</main>\n</div>`,
    "guide-page",
    [],
  );
}

/**
 * The description comes in a script, not by fetch, so the page works opened from disk; the page's
 * own script (docs-src/browser/reference.ts) renders Redoc into #redoc, puts the site's pages at the
 * top of Redoc's sidebar and adds the try-it console.
 */
export function referencePage(page: SitePage, siteTitle: string): string {
  return shell(page, "API reference", siteTitle, `${foldedSidebar(page)}\n<div id="redoc"></div>`, "reference-page", [
    REFERENCE_DATA_FILE,
    REDOC_SCRIPT_FILE,
    REFERENCE_SCRIPT_FILE,
  ]);
}
