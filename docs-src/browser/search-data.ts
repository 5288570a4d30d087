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
  text: string;
}

export const SEARCH_OPTIONS: Options<SearchEntry> = {
  fields: ["title", "text", "page"],
  storeFields: ["title", "page"],
};

export const SEARCH_QUERY_OPTIONS = { prefix: true, fuzzy: 0.2, boost: { title: 3 }, combineWith: "AND" } as const;

/** The global the index script assigns: MiniSearch's JSON form of the index. */
export const SEARCH_INDEX_GLOBAL = "__MEDIA_SEARCH__";
