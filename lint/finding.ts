import type { OpenApiDocument } from "../model/document.ts";
import type { SlugMap } from "../model/slug-map.ts";

/** A JSON path into the linted document, as Spectral reports it. */
export type JsonPath = Array<string | number>;

/** One broken house rule: where, and a message that says how to fix it. */
export interface Finding {
  path: JsonPath;
  message: string;
}

export interface RuleCheckOptions {
  /** Placeholder slug to real slug, as the bundle applied it (MEDIA_SLUG_MAP). */
  slugMap: SlugMap;
}

/** Reads the whole (bundled, unresolved) document and returns what breaks the rule. */
export type RuleCheck = (doc: OpenApiDocument, options: RuleCheckOptions) => Finding[];

/** A house rule: Spectral reports it as `house-<name>` with this description of why it exists. */
export interface HouseRule {
  readonly description: string;
  readonly check: RuleCheck;
}
