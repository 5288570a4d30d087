/**
 * The typed client as a browser bundle: esbuild bundles `createClient` and minifies it (ESM), then
 * gzip -9. Beside it, openapi-fetch alone (which the client includes) and the client with the price
 * tables of the separate entry point, as a user who quotes offline ships it.
 */
import { build } from "esbuild";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { Figure, Measurement } from "../measurement.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const { version } = createRequire(import.meta.url)("openapi-fetch/package.json") as { version: string };

/** The bundle of `contents` (an entry module's text, resolved from the project root), minified, ESM, gzip -9. */
export async function gzippedBytes(contents: string): Promise<number> {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
  });
  return gzipSync(result.outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).byteLength;
}

/** The client as a user who does not quote offline ships it: createClient, openapi-fetch included. */
export const CLIENT_WITHOUT_TABLES = 'export { createClient } from "./generated/client.ts";';

const BUNDLES: ReadonlyArray<[label: string, contents: string]> = [
  ["typed client, without the price tables (incl. openapi-fetch)", CLIENT_WITHOUT_TABLES],
  [
    "typed client with the price tables and quote",
    'export { createClient } from "./generated/client.ts"; export { quote } from "./generated/costs.ts";',
  ],
  [`openapi-fetch ${version} alone`, 'export { default } from "openapi-fetch";'],
];

export const clientSize: Measurement = {
  name: "client bundle size",
  async run(): Promise<Figure[]> {
    const figures: Figure[] = [];
    for (const [label, contents] of BUNDLES) {
      figures.push({
        label,
        value: await gzippedBytes(contents),
        unit: "B",
        note: "esbuild --bundle --minify, ESM, browser, es2022; gzip -9; goal for the client without the tables: at most 6 kB",
      });
    }
    return figures;
  },
};
