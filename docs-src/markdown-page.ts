/**
 * Renders a page's Markdown to HTML: links to other pages' .md sources point at their .html pages,
 * code blocks are highlighted at build time. The Markdown carries text from the description, which
 * is data: raw HTML in it is shown as text (a whole comment dropped), never passed through, and a link is kept only to a
 * page, an anchor or an http(s)/mailto address (a `javascript:` link becomes its text).
 */
import { posix } from "node:path";
import { Marked, type Tokens } from "marked";
import { highlightedCode } from "./highlight.ts";
import { escapeHtml } from "./html-text.ts";
import { markdownCopyFile, SITE_PAGES, type SitePage } from "./site-pages.ts";

const pageBySource = new Map(
  SITE_PAGES.flatMap((page) => (page.kind === "markdown" ? [[page.source, page] as const] : [])),
);

/** A scheme other than these in a link's address is not followed. */
const SAFE_SCHEME = /^(?:https?|mailto):/i;
const ANY_SCHEME = /^\s*[a-z][a-z0-9+.-]*:/i;

/** The page a guide's link to another page's .md source leads to; undefined for any other link. */
export function linkedPage(source: string, href: string): SitePage | undefined {
  const target = href.split("#")[0];
  if (!target?.endsWith(".md") || ANY_SCHEME.test(target)) return undefined;
  const page = pageBySource.get(posix.normalize(posix.join(posix.dirname(source), target)));
  if (!page) throw new Error(`${source}: link to ${href}, which is not a page of the site`);
  return page;
}

const pageByFile = new Map(SITE_PAGES.map((page) => [page.file, page]));

/** A page's Markdown as its copy in the site: links to other pages (their sources or HTML files) lead to their copies. */
export function markdownCopy(markdown: string, source: string): string {
  return markdown.replace(/\]\(([^)\s]+)\)/g, (whole, href: string) => {
    const page = pageByFile.get(href.split("#")[0] ?? "") ?? linkedPage(source, href);
    // Stryker disable next-line Regex: equivalent: the first match of [^#]* starts at 0 (empty before a "#") with its anchor or without
    return page ? `](${href.replace(/^[^#]*/, markdownCopyFile(page))})` : whole;
  });
}

/** Heading ids in GitHub's style, so guides can link to sections. */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/[^a-z0-9 _-]/g, "")
    .trim()
    .replace(/\s+/g, "-");
}

export interface RenderedPage {
  title: string;
  html: string;
  /** The page's second-level headings, for the sidebar and the search index. */
  sections: { id: string; title: string }[];
}

export function renderMarkdown(markdown: string, source: string): RenderedPage {
  let title = "";
  const sections: RenderedPage["sections"] = [];
  const marked = new Marked({
    gfm: true,
    walkTokens(token) {
      if (token.type !== "link") return;
      const link = token as Tokens.Link;
      const page = linkedPage(source, link.href);
      // Stryker disable next-line Regex: equivalent: the first match of [^#]* starts at 0 (empty before a "#") with its anchor or without
      if (page) link.href = link.href.replace(/^[^#]*/, page.file);
    },
    renderer: {
      heading({ tokens, depth, text }) {
        const plain = this.parser.parseInline(tokens, this.parser.textRenderer);
        if (depth === 1 && !title) title = plain;
        const id = headingSlug(text);
        if (depth === 2) sections.push({ id, title: plain });
        return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      html({ text }) {
        // A comment (a generated page's "do not edit" note) is for the source's reader: dropped.
        if (/^\s*<!--[\s\S]*?-->\s*$/.test(text)) return "";
        return escapeHtml(text);
      },
      link({ href, title: linkTitle, tokens }) {
        const text = this.parser.parseInline(tokens);
        if (ANY_SCHEME.test(href) && !SAFE_SCHEME.test(href.trim())) return text;
        return `<a href="${escapeHtml(href)}"${linkTitle ? ` title="${escapeHtml(linkTitle)}"` : ""}>${text}</a>`;
      },
      code({ text, lang }) {
        return highlightedCode(text, lang?.trim().split(/\s+/)[0]);
      },
    },
  });
  const html = marked.parse(markdown, { async: false });
  if (!title) throw new Error(`${source}: no "# Title" heading`);
  return { title, html, sections };
}
