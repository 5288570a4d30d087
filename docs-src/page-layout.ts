/** The HTML shell shared by every page of the docs site: head, navigation, content. */
import { REDOC_SCRIPT_FILE, REFERENCE_SPEC_FILE, SITE_PAGES, STYLESHEET_FILE, type SitePage } from "./site-pages.ts";

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function navigation(current: SitePage): string {
  const links = SITE_PAGES.map((page) => {
    const mark = page === current ? ` aria-current="page"` : "";
    return `<a href="${page.file}"${mark}>${escapeHtml(page.nav)}</a>`;
  });
  return `<nav class="site-nav" aria-label="Documentation">${links.join("")}</nav>`;
}

function shell(page: SitePage, title: string, siteTitle: string, body: string, bodyClass: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(siteTitle)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${STYLESHEET_FILE}">
</head>
<body class="${bodyClass}">
${navigation(page)}
${body}
</body>
</html>
`;
}

export function guidePage(page: SitePage, title: string, siteTitle: string, contentHtml: string): string {
  return shell(page, title, siteTitle, `<main class="guide">\n${contentHtml}</main>`, "guide-page");
}

/**
 * Redoc's standalone bundle initialises itself from the <redoc> element: the options are its
 * attributes, so the page carries no script of its own.
 */
export function referencePage(page: SitePage, siteTitle: string): string {
  const redoc = `<redoc spec-url="${REFERENCE_SPEC_FILE}" scroll-y-offset="nav.site-nav" expand-responses="200" path-in-middle-panel="true" required-props-first="true" sort-enums-alphabetically="false"></redoc>
<script src="${REDOC_SCRIPT_FILE}"></script>`;
  return shell(page, "API reference", siteTitle, redoc, "reference-page");
}
