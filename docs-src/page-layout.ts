/** The HTML shell shared by every page of the docs site: head, navigation, content. */
import { REDOC_SCRIPT_FILE, REFERENCE_DATA_FILE, REFERENCE_SCRIPT_FILE, SITE_PAGES, STYLESHEET_FILE, type SitePage } from "./site-pages.ts";

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
 * The description comes in a script, not by fetch, so the page works opened from disk; the page's
 * own script (docs-src/browser/reference.ts) renders Redoc into #redoc and adds the try-it console.
 */
export function referencePage(page: SitePage, siteTitle: string): string {
  const scripts = [REFERENCE_DATA_FILE, REDOC_SCRIPT_FILE, REFERENCE_SCRIPT_FILE].map((file) => `<script src="${file}"></script>`);
  return shell(page, "API reference", siteTitle, `<div id="redoc"></div>\n${scripts.join("\n")}`, "reference-page");
}
