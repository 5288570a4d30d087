/** Renders a guide's Markdown to HTML; links to other pages' .md sources point at their .html pages. */
import { posix } from "node:path";
import { Marked, type Tokens } from "marked";
import { SITE_PAGES } from "./site-pages.ts";

const htmlBySource = new Map(SITE_PAGES.flatMap((page) => (page.kind === "markdown" ? [[page.source, page.file] as const] : [])));

/** Heading ids in GitHub's style, so guides can link to sections. */
function slug(text: string): string {
  return text.toLowerCase().replace(/<[^>]+>/g, "").replace(/[^a-z0-9 _-]/g, "").trim().replace(/\s+/g, "-");
}

export function renderMarkdown(markdown: string, source: string): { title: string; html: string } {
  let title = "";
  const marked = new Marked({
    gfm: true,
    walkTokens(token) {
      if (token.type !== "link") return;
      const link = token as Tokens.Link;
      const [target, hash] = link.href.split("#");
      if (!target?.endsWith(".md") || /^[a-z]+:/i.test(target)) return;
      const resolved = posix.normalize(posix.join(posix.dirname(source), target));
      const page = htmlBySource.get(resolved);
      if (!page) throw new Error(`${source}: link to ${link.href}, which is not a page of the site`);
      link.href = hash ? `${page}#${hash}` : page;
    },
    renderer: {
      heading({ tokens, depth, text }) {
        if (depth === 1 && !title) title = text;
        return `<h${depth} id="${slug(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
  const html = marked.parse(markdown, { async: false });
  if (!title) throw new Error(`${source}: no "# Title" heading`);
  return { title, html };
}
