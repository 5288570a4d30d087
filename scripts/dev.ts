/**
 * `npm run dev [-- --port N] [--root DIR]`: the working loop of the people who edit the
 * description. Watches openapi/ (chokidar: a file replaced by a rename, as `sed -i`, `git checkout`
 * and safe-saving editors write, stays watched); on every change it rebundles, regenerates, lints
 * and rebuilds the docs (scripts/dev-loop.ts), prints what it found and how long each step took,
 * and reloads the docs in the browser. The docs are served on 127.0.0.1 (port from --port,
 * DOCS_PORT, or 8080). --root is the project whose openapi/, generated/ and docs/ it uses
 * (default: this repository).
 */
import { existsSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { watch } from "chokidar";
import { DEFAULT_SITE_DIR, PROJECT_ROOT } from "../docs-src/site.ts";
import { serveStatic } from "../docs-src/static-server.ts";
import { REDOCLY_OFFLINE_ENV } from "../lint/run-redocly.ts";
import { slugMapFile } from "../model/slug-map.ts";
import { portProblem, stopWhenAsked } from "../tools/process-lifecycle.ts";
import { DevLoop, type PassResult } from "./dev-loop.ts";

// Redocly's CLI, the lint's child on every pass, inherits this: no usage data sent.
Object.assign(process.env, REDOCLY_OFFLINE_ENV);

function fail(message: string): never {
  console.error(`dev: ${message}`);
  process.exit(2);
}

let values: { port?: string; root?: string };
try {
  ({ values } = parseArgs({ options: { port: { type: "string" }, root: { type: "string" } } }));
} catch (error) {
  fail(`${(error as Error).message}; usage: npm run dev -- [--port N] [--root DIR]`);
}
const given = values.port ?? process.env.DOCS_PORT ?? "8080";
const port = Number(given);
if (!/^\d+$/.test(given) || port > 65535)
  fail(
    `${values.port !== undefined ? "--port" : "DOCS_PORT"}: "${given}" is not a port number (an integer from 0 to 65535)`,
  );
const root = values.root === undefined ? PROJECT_ROOT : resolve(values.root);
const sources = join(root, "openapi");
if (!existsSync(join(sources, "openapi.yaml"))) fail(`--root ${values.root ?? root}: no openapi/openapi.yaml under it`);
const siteDir = values.root === undefined ? DEFAULT_SITE_DIR : join(root, "docs", "site");

/** Description files only: editors' and sed's temporary files (`.x.swp`, `x~`, `sedqRDLB1`, `4913`) are not sources. */
const isSource = (file: string): boolean => /\.(ya?ml|json)$/i.test(file) && !basename(file).startsWith(".");

function report(result: PassResult, trigger: string): void {
  const total = result.timings.reduce((sum, [, ms]) => sum + ms, 0);
  const steps = result.timings.map(([step, ms]) => `${step} ${(ms / 1000).toFixed(2)}`).join(", ");
  console.log(`${result.ok ? "ok" : "FAILED"} after ${trigger}: ${(total / 1000).toFixed(2)} s (${steps})`);
  for (const message of result.messages) console.log(`  ${message}`);
}

// The port first, so a port in use is said at once rather than after a whole pass.
let docs: Awaited<ReturnType<typeof serveStatic>>;
try {
  docs = await serveStatic(siteDir, port, { liveReload: true });
} catch (error) {
  console.error(`dev: ${portProblem(error, port, "--port N or DOCS_PORT") ?? (error as Error).message}`);
  process.exit(1);
}
const server = docs;
const loop = new DevLoop({ root, siteDir, slugMap: slugMapFile() });
report(await loop.pass(), "start");

// Editors save in bursts (temp file, rename): one pass per quiet moment, never two at once.
let timer: NodeJS.Timeout | undefined;
let running: Promise<void> = Promise.resolve();
const changed = new Set<string>();
const watcher = watch(sources, {
  ignoreInitial: true,
  // Directories pass, so new ones are watched; files only when they are description files.
  ignored: (file, stats) => stats?.isFile() === true && !isSource(file),
});
watcher.on("all", (_event, file) => {
  if (!isSource(file)) return;
  changed.add(relative(sources, file));
  clearTimeout(timer);
  timer = setTimeout(() => {
    const trigger = [...changed].sort().join(", ");
    changed.clear();
    running = running.then(async () => {
      report(await loop.pass(), trigger);
      server.reload();
    });
  }, 50);
});
watcher.on("error", (error) => console.error(`dev: watching ${sources}: ${(error as Error).message}`));
// Said once the watcher has read the tree: a save before then would go unseen.
watcher.on("ready", () =>
  console.log(
    `dev: watching ${relative(".", sources) || "."}/; docs at ${server.url} reload on every change (Ctrl-C to stop)`,
  ),
);

stopWhenAsked(async () => {
  await watcher.close();
  await server.close();
});
