/**
 * Measures the typed client as a browser bundle: esbuild bundles and minifies it (ESM), then gzip.
 * Printed beside openapi-fetch's own bundle, which the client includes, and beside the client
 * without its offline price tables (generated/costs.ts, used by `quote`).
 */
import { build, type Plugin } from "esbuild";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";

interface Measured {
  name: string;
  minified: number;
  gzipped: number;
}

/** Leaves generated/costs.ts out of the bundle (an external import), to show what the price tables weigh. */
const withoutPriceTables: Plugin = {
  name: "without-price-tables",
  setup(context) {
    context.onResolve({ filter: /\/costs\.ts$/ }, ({ path }) => ({ path, external: true }));
  },
};

async function measure(name: string, contents: string, plugins: Plugin[] = []): Promise<Measured> {
  const result = await build({
    stdin: { contents, resolveDir: process.cwd(), loader: "ts", sourcefile: `${name}.ts` },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    plugins,
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { name, minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

const CLIENT = 'export { createClient } from "./generated/client.ts";';
const { version } = createRequire(import.meta.url)("openapi-fetch/package.json") as { version: string };
const rows = [
  await measure(`openapi-fetch ${version} (createClient)`, 'export { default } from "openapi-fetch";'),
  await measure("typed client (generated/client.ts, incl. openapi-fetch and the offline quote)", CLIENT),
  await measure("typed client without the offline price tables", CLIENT, [withoutPriceTables]),
];

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
console.log("bundle (esbuild --bundle --minify, ESM, browser, es2022; gzip -9) | minified | min+gzip");
for (const row of rows) console.log(`${row.name} | ${row.minified} B (${kB(row.minified)}) | ${row.gzipped} B (${kB(row.gzipped)})`);
