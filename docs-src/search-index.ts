/**
 * The site's search index, built from the pages as rendered: each guide section (split at its
 * second-level headings) and each reference operation and tag of the description, serialized by
 * MiniSearch into a script the search box loads.
 */
import MiniSearch from "minisearch";
import { deref, operations, type OpenApiDocument } from "../model/document.ts";
import { EXCERPT_CHARS, SEARCH_INDEX_GLOBAL, SEARCH_OPTIONS, type SearchEntry } from "./browser/search-data.ts";

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&amp;": "&" };

/** The text of rendered HTML: tags dropped, entities undone, spaces folded. */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&(?:lt|gt|quot|#39|amp);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, " ")
    .trim();
}

/** Markdown's marks dropped from a description (backticks, emphasis, link targets): its words, for snippets. */
const markdownWords = (markdown: string): string =>
  plainText(markdown.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/`|\*\*?/g, ""));

/** A rendered page's entries: its lead (up to the first h2, its h1 dropped) and each h2 section. */
export function pageEntries(file: string, pageTitle: string, html: string, weight = 1): Omit<SearchEntry, "excerpt">[] {
  const parts = html.split(/(?=<h2 id=")/);
  return parts.map((part, index) => {
    const heading = /^<h2 id="([^"]*)">([\s\S]*?)<\/h2>/.exec(part);
    if (index === 0 || !heading)
      return {
        id: file,
        title: pageTitle,
        page: pageTitle,
        text: plainText(part.replace(/^<h1[^>]*>[\s\S]*?<\/h1>/, "")),
        weight,
      };
    return {
      id: `${file}#${heading[1]}`,
      title: plainText(heading[2] ?? ""),
      page: pageTitle,
      text: plainText(part.slice(heading[0].length)),
      weight,
    };
  });
}

/** The reference's entries: each operation (Redoc's `#operation/<id>` anchor) and each tag. */
export function referenceEntries(
  file: string,
  pageTitle: string,
  doc: OpenApiDocument,
): Omit<SearchEntry, "excerpt">[] {
  const tags = ((doc.tags ?? []) as { name: string; description?: string }[]).map((tag) => ({
    id: `${file}#tag/${encodeURIComponent(tag.name)}`,
    title: tag.name,
    page: pageTitle,
    text: markdownWords(tag.description ?? ""),
    weight: 1,
  }));
  const ops = operations(doc).map(({ path, method, operation }) => ({
    id: `${file}#operation/${operation.operationId}`,
    title: operation.summary ?? operation.operationId,
    page: pageTitle,
    text: [
      `${method.toUpperCase()} ${path}`,
      operation.operationId,
      markdownWords(operation.description ?? ""),
      // Shared parameters are references: their names are in the components.
      ...(operation.parameters ?? []).map((parameter) => deref(doc, parameter).name ?? ""),
    ]
      .filter(Boolean)
      .join(" "),
    weight: 1,
  }));
  return [...tags, ...ops];
}

export function searchIndexScript(entries: Omit<SearchEntry, "excerpt">[]): string {
  const index = new MiniSearch<SearchEntry>(SEARCH_OPTIONS);
  index.addAll(entries.map((entry) => ({ ...entry, excerpt: entry.text.slice(0, EXCERPT_CHARS) })));
  return `window.${SEARCH_INDEX_GLOBAL} = ${JSON.stringify(JSON.stringify(index))};\n`;
}
