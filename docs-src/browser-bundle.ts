/**
 * The reference page's own script: docs-src/browser/reference.ts (Redoc from the embedded
 * description, the try-it console) bundled by esbuild into one classic script for the browsers
 * Redoc supports, so the page needs no module loading (which browsers refuse from disk).
 */
import { buildSync } from "esbuild";
import { fileURLToPath } from "node:url";
import type { ConsoleData, ReferenceData } from "./browser/console-data.ts";
import { REFERENCE_DATA_GLOBAL } from "./browser/console-data.ts";

export function referenceScript(): string {
  const result = buildSync({
    entryPoints: [fileURLToPath(new URL("./browser/reference.ts", import.meta.url))],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** The data script: the docs-only description and the console's data, set as one global (no fetch). */
export function referenceDataScript(spec: unknown, console: ConsoleData): string {
  const data: ReferenceData = { spec, console };
  return `window.${REFERENCE_DATA_GLOBAL} = ${JSON.stringify(data)};\n`;
}
