/**
 * Builds the static docs site into a folder: the Redoc reference of a docs-only copy of the
 * bundled description (with generated code samples) carried in a script, Redoc's script from npm,
 * the site's own scripts (search, menu, try-it console), the guides and generated pages as HTML with
 * their placeholders filled from the description, the search index across all of them, a Markdown
 * copy of every page and llms.txt listing the copies.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { OpenApiDocument } from "../model/document.ts";
import { readServiceModel } from "../model/service-model.ts";
import { referenceDataScript, referenceScript, siteScript } from "./browser-bundle.ts";
import type { SearchEntry } from "./browser/search-data.ts";
import { withCodeSamples } from "./code-samples.ts";
import { consoleData } from "./console-operations.ts";
import { fillPlaceholders } from "./guide-placeholders.ts";
import { makeDescriptionsInert } from "./inert-descriptions.ts";
import { llmsTxt } from "./llms-txt.ts";
import { markdownCopy, renderMarkdown } from "./markdown-page.ts";
import { guidePage, referencePage } from "./page-layout.ts";
import { offlineRedocBundle } from "./redoc-bundle.ts";
import { referenceMarkdown } from "./reference-markdown.ts";
import { pageEntries, referenceEntries, searchIndexScript } from "./search-index.ts";
import {
  LLMS_FILE,
  markdownCopyFile,
  REDOC_SCRIPT_FILE,
  REFERENCE_DATA_FILE,
  REFERENCE_SCRIPT_FILE,
  REFERENCE_SPEC_FILE,
  SEARCH_INDEX_FILE,
  SITE_PAGES,
  SITE_SCRIPT_FILE,
  STYLESHEET_FILE,
  type SitePage,
} from "./site-pages.ts";

export const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DEFAULT_SITE_DIR = join(PROJECT_ROOT, "docs", "site");

/** A guide's Markdown with its placeholders filled from the description. */
export function guideMarkdown(source: string, doc: OpenApiDocument): string {
  return fillPlaceholders(readFileSync(join(PROJECT_ROOT, source), "utf8"), doc, source);
}

/** A Markdown page's text as built: a guide's with its placeholders filled, a generated page's as made. */
function pageMarkdown(page: Exclude<SitePage, { kind: "reference" }>, doc: OpenApiDocument): string {
  return page.kind === "markdown" ? guideMarkdown(page.source, doc) : page.markdown(doc);
}

/** Builds the whole site into `outDir` (emptied first); returns the files written. */
export function buildSite(doc: OpenApiDocument, outDir: string): string[] {
  const siteTitle = doc.info.title;
  const reference = withCodeSamples(doc);
  // The description's text is data: its raw HTML is shown as text, as on the guides.
  makeDescriptionsInert(reference);
  const files: Record<string, string> = {
    // The built site is derived output; it ignores itself so it is never committed.
    ".gitignore": "*\n",
    [REFERENCE_SPEC_FILE]: `${JSON.stringify(reference, null, 2)}\n`,
    [REFERENCE_DATA_FILE]: referenceDataScript(reference, consoleData(readServiceModel(doc))),
    [REDOC_SCRIPT_FILE]: offlineRedocBundle(),
    [REFERENCE_SCRIPT_FILE]: referenceScript(),
    [SITE_SCRIPT_FILE]: siteScript(),
  };
  const entries: SearchEntry[] = [];
  const titles: { page: SitePage; about: string }[] = [];
  for (const page of SITE_PAGES) {
    if (page.kind === "reference") {
      files[page.file] = referencePage(page, siteTitle);
      files[markdownCopyFile(page)] = referenceMarkdown(reference);
      entries.push(...referenceEntries(page.file, page.nav, reference));
      titles.push({ page, about: "every operation with its parameters, answers and code samples" });
      continue;
    }
    const markdown = pageMarkdown(page, doc);
    const { title, html, sections } = renderMarkdown(markdown, page.source);
    files[page.file] = guidePage(page, title, siteTitle, html, sections);
    files[markdownCopyFile(page)] = markdownCopy(markdown, page.source);
    entries.push(...pageEntries(page.file, page.nav, html));
    titles.push({ page, about: title === page.nav ? "" : title });
  }
  files[SEARCH_INDEX_FILE] = searchIndexScript(entries);
  files[LLMS_FILE] = llmsTxt(doc, titles);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(outDir, name), text);
  copyFileSync(fileURLToPath(new URL(`./assets/${STYLESHEET_FILE}`, import.meta.url)), join(outDir, STYLESHEET_FILE));
  return [...Object.keys(files), STYLESHEET_FILE];
}
