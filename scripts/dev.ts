/**
 * `npm run dev [-- --port N]`: the working loop of the people who edit the description. Watches
 * openapi/; on every change it rebundles, regenerates, lints and rebuilds the docs (tools/dev-loop.ts),
 * prints what it found and how long each step took, and reloads the docs in the browser. The docs
 * are served on 127.0.0.1 (port from --port, DOCS_PORT, or 8080).
 */
import { watch } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_SITE_DIR, PROJECT_ROOT } from "../docs-src/site.ts";
import { serveStatic } from "../docs-src/static-server.ts";
import { slugMapFile } from "../model/slug-map.ts";
import { DevLoop, type PassResult } from "../tools/dev-loop.ts";
import { portProblem, stopWhenAsked } from "../tools/process-lifecycle.ts";

const { values } = parseArgs({ options: { port: { type: "string" } } });
const given = values.port ?? process.env.DOCS_PORT ?? "8080";
const port = Number(given);
if (!/^\d+$/.test(given) || port > 65535) {
  console.error(`dev: ${values.port !== undefined ? "--port" : "DOCS_PORT"}: "${given}" is not a port number (an integer from 0 to 65535)`);
  process.exit(2);
}

function report(result: PassResult, trigger: string): void {
  const total = result.timings.reduce((sum, [, ms]) => sum + ms, 0);
  const steps = result.timings.map(([step, ms]) => `${step} ${(ms / 1000).toFixed(2)}`).join(", ");
  console.log(`${result.ok ? "ok" : "FAILED"} after ${trigger}: ${(total / 1000).toFixed(2)} s (${steps})`);
  for (const message of result.messages) console.log(`  ${message}`);
}

const loop = new DevLoop({ root: PROJECT_ROOT, siteDir: DEFAULT_SITE_DIR, slugMap: slugMapFile() });
report(await loop.pass(), "start");

let server;
try {
  server = await serveStatic(DEFAULT_SITE_DIR, port, { liveReload: true });
} catch (error) {
  console.error(`dev: ${portProblem(error, port, "--port N or DOCS_PORT") ?? (error as Error).message}`);
  process.exit(1);
}
const docs = server;
console.log(`dev: watching openapi/; docs at ${docs.url} reload on every change (Ctrl-C to stop)`);

// Editors save in bursts (temp file, rename): one pass per quiet moment, never two at once.
let timer: NodeJS.Timeout | undefined;
let running: Promise<void> = Promise.resolve();
const changed = new Set<string>();
const watcher = watch(join(PROJECT_ROOT, "openapi"), { recursive: true }, (_event, file) => {
  if (file) changed.add(String(file));
  clearTimeout(timer);
  timer = setTimeout(() => {
    const trigger = [...changed].join(", ");
    changed.clear();
    running = running.then(async () => {
      report(await loop.pass(), trigger);
      docs.reload();
    });
  }, 50);
});

stopWhenAsked(async () => {
  watcher.close();
  await docs.close();
});
