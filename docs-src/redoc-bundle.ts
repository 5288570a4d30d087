/**
 * Redoc's standalone bundle from npm (redoc 2.5), prepared to load nothing from outside the site.
 * Its side menu always shows the Redocly logo from cdn.redoc.ly and has no option to turn that
 * off, so the logo URL is replaced by an empty inline SVG. The source-map comment is dropped so
 * no tool fetches a map the site does not ship. A Redoc upgrade that changes either spot fails
 * the build here instead of silently requesting the CDN.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const REMOTE_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const EMPTY_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='0' height='0'/%3E";
const SOURCE_MAP_COMMENT = /\n\/\/# sourceMappingURL=\S+\s*$/;

export function offlineRedocBundle(): string {
  const file = createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js");
  return offlineBundle(readFileSync(file, "utf8"), file);
}

/** `original` (the bundle read from `file`) with the logo inlined and the source map dropped; an error naming `file` where either spot is not as expected, or a CDN URL remains. */
export function offlineBundle(original: string, file: string): string {
  const occurrences = original.split(REMOTE_LOGO).length - 1;
  if (occurrences !== 1) throw new Error(`${file}: expected the Redocly logo URL once, found it ${occurrences} times`);
  if (!SOURCE_MAP_COMMENT.test(original)) throw new Error(`${file}: no trailing source-map comment`);
  const offline = original.replace(REMOTE_LOGO, EMPTY_SVG).replace(SOURCE_MAP_COMMENT, "\n");
  const remaining = offline.match(/https?:\/\/cdn\.[a-z0-9.-]+/g);
  if (remaining) throw new Error(`${file}: still refers to ${remaining.join(", ")}`);
  return offline;
}
