/**
 * The site's one search, across guides and reference: the index is built at docs build time
 * (docs-src/search-index.ts) with MiniSearch, carried in a script (search-index.js, so it loads from
 * disk too) and read back by the search box (site.ts) with the same options.
 */
import type { Options } from "minisearch";

/** One searchable entry: a guide's section or a reference operation or tag. */
export interface SearchEntry {
  /** Its address in the site: `errors.html#moderation`, `reference.html#operation/createImageIA`. */
  id: string;
  title: string;
  /** The page it is on, shown under the title. */
  page: string;
  /** Its text, searched. */
  text: string;
  /** The text's start, kept in the index to show the words around a match under the title. */
  excerpt: string;
  /**
   * How far up its page's results come, for a client developer's words: 1 for the guides and the
   * reference, less for the pages of implementers and maintainers (the rules catalogue, the
   * changelog), whose lists of rule ids and changes name every word of the service.
   */
  weight: number;
}

export const SEARCH_OPTIONS: Options<SearchEntry> = {
  fields: ["title", "text", "page"],
  storeFields: ["title", "page", "excerpt", "weight"],
};

export const SEARCH_QUERY_OPTIONS = {
  prefix: true,
  fuzzy: 0.2,
  boost: { title: 3 },
  combineWith: "AND",
  boostDocument: (_id: unknown, _term: string, stored?: Record<string, unknown>) =>
    typeof stored?.weight === "number" ? stored.weight : 1,
} as const;

/** How much of an entry's text the index keeps for its snippet: enough for a section's lead paragraphs. */
export const EXCERPT_CHARS = 600;

/** The global the index script assigns: MiniSearch's JSON form of the index. */
export const SEARCH_INDEX_GLOBAL = "__MEDIA_SEARCH__";
