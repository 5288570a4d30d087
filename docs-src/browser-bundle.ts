/**
 * The site's own scripts, docs-src/browser/*.ts bundled by esbuild into classic scripts for the
 * browsers Redoc supports, so the pages need no module loading (which browsers refuse from disk):
 * site.ts on every page (search, menu), reference.ts on the reference (Redoc, the try-it console).
 */
import { buildSync } from "esbuild";
import { fileURLToPath } from "node:url";
import type { ConsoleData, ReferenceData } from "./browser/console-data.ts";
import { REFERENCE_DATA_GLOBAL } from "./browser/console-data.ts";

function browserScript(entry: string): string {
  const result = buildSync({
    entryPoints: [fileURLToPath(new URL(`./browser/${entry}`, import.meta.url))],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
    minify: true,
    // Stryker disable next-line StringLiteral: equivalent: nothing bundled (ours, minisearch) carries a legal comment to keep
    legalComments: "none",
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

export const referenceScript = (): string => browserScript("reference.ts");
export const siteScript = (): string => browserScript("site.ts");

/** The data script: the docs-only description and the console's data, set as one global (no fetch). */
export function referenceDataScript(spec: unknown, console: ConsoleData): string {
  const data: ReferenceData = { spec, console };
  return `window.${REFERENCE_DATA_GLOBAL} = ${JSON.stringify(data)};\n`;
}
