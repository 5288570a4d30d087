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
import { consoleData } from "./console-operations.ts";
import { type CoverageRun, coverageSection } from "./coverage-section.ts";
import { fillPlaceholders } from "./guide-placeholders.ts";
import { llmsTxt } from "./llms-txt.ts";
import { markdownCopy, renderMarkdown } from "./markdown-page.ts";
import { guidePage, referencePage } from "./page-layout.ts";
import { offlineRedocBundle } from "./redoc-bundle.ts";
import { type GuideSections, referenceCopies } from "./reference-copy.ts";
import { referenceMarkdown } from "./reference-markdown.ts";
import { pageEntries, referenceEntries, searchIndexScript } from "./search-index.ts";
import {
  LLMS_FILE,
  markdownCopyFile,
  REDOC_SCRIPT_FILE,
  REFERENCE_DATA_FILE,
  REFERENCE_SCRIPT_FILE,
  REFERENCE_SPEC_FILE,
  RULES_PAGE_FILE,
  SEARCH_INDEX_FILE,
  SITE_PAGES,
  SITE_SCRIPT_FILE,
  STYLESHEET_FILE,
  searchWeight,
  type SitePage,
} from "./site-pages.ts";

export const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DEFAULT_SITE_DIR = join(PROJECT_ROOT, "docs", "site");

/** A guide's Markdown with its placeholders filled from the description. */
export function guideMarkdown(source: string, doc: OpenApiDocument): string {
  return fillPlaceholders(readFileSync(join(PROJECT_ROOT, source), "utf8"), doc, source);
}

/**
 * A Markdown page's text as built: a guide's with its placeholders filled, a generated page's as
 * made; the rules page ends with a run's rule × condition coverage where the build was given one.
 */
function pageMarkdown(
  page: Exclude<SitePage, { kind: "reference" }>,
  doc: OpenApiDocument,
  coverage?: CoverageRun,
): string {
  const markdown = page.kind === "markdown" ? guideMarkdown(page.source, doc) : page.markdown(doc);
  return coverage && page.file === RULES_PAGE_FILE ? `${markdown}\n${coverageSection(coverage)}` : markdown;
}

/**
 * Builds the whole site into `outDir` (emptied first); returns the files written. `coverage`: a
 * conformance run whose rule × condition coverage the rules page shows.
 */
export function buildSite(doc: OpenApiDocument, outDir: string, coverage?: CoverageRun): string[] {
  const siteTitle = doc.info.title;
  const files: Record<string, string> = {
    // The built site is derived output; it ignores itself so it is never committed.
    ".gitignore": "*\n",
    [REDOC_SCRIPT_FILE]: offlineRedocBundle(),
    [REFERENCE_SCRIPT_FILE]: referenceScript(),
    [SITE_SCRIPT_FILE]: siteScript(),
  };
  const entries = new Map<SitePage, Omit<SearchEntry, "excerpt">[]>();
  const about = new Map<SitePage, string>();
  const guides: GuideSections[number][] = [];
  // The guides first: the reference's introduction links to their sections.
  for (const page of SITE_PAGES) {
    if (page.kind === "reference") continue;
    const markdown = pageMarkdown(page, doc, coverage);
    const rendered = renderMarkdown(markdown, page.source);
    files[page.file] = guidePage(page, rendered.title, siteTitle, rendered.html, rendered.sections);
    files[markdownCopyFile(page)] = markdownCopy(markdown, page.source);
    entries.set(page, pageEntries(page.file, page.nav, rendered.html, searchWeight(page)));
    about.set(page, rendered.title === page.nav ? "" : rendered.title);
    guides.push({ file: page.file, nav: page.nav, sections: rendered.sections });
  }
  const { whole, page: shown } = referenceCopies(doc, guides);
  for (const page of SITE_PAGES) {
    if (page.kind !== "reference") continue;
    files[page.file] = referencePage(page, siteTitle);
    files[markdownCopyFile(page)] = referenceMarkdown(whole);
    entries.set(page, referenceEntries(page.file, page.nav, whole));
    about.set(page, "every operation with its parameters, answers and code samples");
  }
  files[REFERENCE_SPEC_FILE] = `${JSON.stringify(whole, null, 2)}\n`;
  files[REFERENCE_DATA_FILE] = referenceDataScript(shown, consoleData(readServiceModel(doc)));
  files[SEARCH_INDEX_FILE] = searchIndexScript(SITE_PAGES.flatMap((page) => entries.get(page) ?? []));
  files[LLMS_FILE] = llmsTxt(
    doc,
    SITE_PAGES.map((page) => ({ page, about: about.get(page) ?? "" })),
  );
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(outDir, name), text);
  copyFileSync(fileURLToPath(new URL(`./assets/${STYLESHEET_FILE}`, import.meta.url)), join(outDir, STYLESHEET_FILE));
  return [...Object.keys(files), STYLESHEET_FILE];
}
