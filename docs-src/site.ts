/**
 * Builds the static docs site into a folder: the Redoc reference of a docs-only copy of the
 * bundled description (with generated code samples) carried in a script, Redoc's script from npm,
 * the page's own script with the try-it console, and the guides as
 * HTML pages with their placeholders filled from the description.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { OpenApiDocument } from "../model/document.ts";
import { withCodeSamples } from "./code-samples.ts";
import { fillPlaceholders } from "./guide-placeholders.ts";
import { renderMarkdown } from "./markdown-page.ts";
import { guidePage, referencePage } from "./page-layout.ts";
import { offlineRedocBundle } from "./redoc-bundle.ts";
import { referenceDataScript, referenceScript } from "./browser-bundle.ts";
import { consoleData } from "./console-operations.ts";
import { readServiceModel } from "../model/service-model.ts";
import { REDOC_SCRIPT_FILE, REFERENCE_DATA_FILE, REFERENCE_SCRIPT_FILE, REFERENCE_SPEC_FILE, SITE_PAGES, STYLESHEET_FILE } from "./site-pages.ts";

export const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DEFAULT_SITE_DIR = join(PROJECT_ROOT, "docs", "site");

/** A guide's Markdown with its placeholders filled from the description. */
export function guideMarkdown(source: string, doc: OpenApiDocument): string {
  return fillPlaceholders(readFileSync(join(PROJECT_ROOT, source), "utf8"), doc, source);
}

/** Builds the whole site into `outDir` (emptied first); returns the files written. */
export function buildSite(doc: OpenApiDocument, outDir: string): string[] {
  const siteTitle = doc.info.title;
  const reference = withCodeSamples(doc);
  const files: Record<string, string> = {
    // The built site is derived output; it ignores itself so it is never committed.
    ".gitignore": "*\n",
    [REFERENCE_SPEC_FILE]: `${JSON.stringify(reference, null, 2)}\n`,
    [REFERENCE_DATA_FILE]: referenceDataScript(reference, consoleData(readServiceModel(doc))),
    [REDOC_SCRIPT_FILE]: offlineRedocBundle(),
    [REFERENCE_SCRIPT_FILE]: referenceScript(),
  };
  for (const page of SITE_PAGES) {
    if (page.kind === "reference") {
      files[page.file] = referencePage(page, siteTitle);
    } else {
      const { title, html } = renderMarkdown(guideMarkdown(page.source, doc), page.source);
      files[page.file] = guidePage(page, title, siteTitle, html);
    }
  }
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(outDir, name), text);
  copyFileSync(fileURLToPath(new URL(`./assets/${STYLESHEET_FILE}`, import.meta.url)), join(outDir, STYLESHEET_FILE));
  return [...Object.keys(files), STYLESHEET_FILE];
}
