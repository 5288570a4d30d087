/**
 * `npm run dev [-- --port N] [--root DIR]`: the working loop of the people who edit the
 * description. Watches openapi/ (chokidar: a file replaced by a rename, as `sed -i`, `git checkout`
 * and safe-saving editors write, stays watched); on every change it rebundles, regenerates, lints
 * and rebuilds the docs (scripts/dev-loop.ts), prints what it found and how long each step took,
 * and reloads the docs in the browser. The docs are served on 127.0.0.1 (port from --port,
 * DOCS_PORT, or 8080). --root is the project whose openapi/, generated/ and docs/ it uses
 * (default: this repository). A bad option or a --root with no description is one line and exit 2,
 * a port in use one line and exit 1 (tools/command.ts).
 */
import { existsSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { watch } from "chokidar";
import { DEFAULT_SITE_DIR, PROJECT_ROOT } from "../docs-src/site.ts";
import { serveStatic } from "../docs-src/static-server.ts";
import { DOCS_PORT } from "../http-server/loopback-guard.ts";
import { REDOCLY_OFFLINE_ENV } from "../lint/run-redocly.ts";
import { slugMapFile } from "../model/slug-map.ts";
import { parseFlags, portSetting, runCommand, UsageError } from "../tools/command.ts";
import { stopWhenAsked } from "../tools/process-lifecycle.ts";
import { DevLoop, type PassResult } from "./dev-loop.ts";

// Redocly's CLI, the lint's child on every pass, inherits this: no usage data sent.
Object.assign(process.env, REDOCLY_OFFLINE_ENV);

const HELP = `usage: npm run dev -- [--port N] [--root DIR]

Watches openapi/ and, on every change, rebundles, regenerates, lints and rebuilds the docs,
printing what it found and how long each step took; the docs, served on 127.0.0.1, reload in
the browser. Ctrl-C stops it.

  --port N    DOCS_PORT   the docs' port, 0 for a free one (default ${DOCS_PORT})
  --root DIR              the project whose openapi/, generated/ and docs/ it uses (default: this repository)
  --help                  this text

Exit status: 0 stopped by a signal, 1 a failure (a port in use), 2 a bad option or a DIR with no openapi/openapi.yaml.`;

const { values } = parseFlags({
  name: "dev",
  help: HELP,
  options: { port: { type: "string" }, root: { type: "string" } },
});

/** Description files only: editors' and sed's temporary files (`.x.swp`, `x~`, `sedqRDLB1`, `4913`) are not sources. */
const isSource = (file: string): boolean => /\.(ya?ml|json)$/i.test(file) && !basename(file).startsWith(".");

function report(result: PassResult, trigger: string): void {
  const total = result.timings.reduce((sum, [, ms]) => sum + ms, 0);
  const steps = result.timings.map(([step, ms]) => `${step} ${(ms / 1000).toFixed(2)}`).join(", ");
  console.log(`${result.ok ? "ok" : "FAILED"} after ${trigger}: ${(total / 1000).toFixed(2)} s (${steps})`);
  for (const message of result.messages) console.log(`  ${message}`);
}

/** Every quiet moment after changes under `sources`, one pass of the loop and the docs reloaded; stops when asked. */
function rebuildOnChange(sources: string, loop: DevLoop, server: Awaited<ReturnType<typeof serveStatic>>): void {
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
}

await runCommand(
  "dev",
  async () => {
    const port = portSetting(values.port, "--port", "DOCS_PORT", DOCS_PORT);
    const root = values.root === undefined ? PROJECT_ROOT : resolve(values.root);
    if (!existsSync(join(root, "openapi", "openapi.yaml")))
      throw new UsageError(`--root ${values.root ?? root}: no openapi/openapi.yaml under it`);
    const siteDir = values.root === undefined ? DEFAULT_SITE_DIR : join(root, "docs", "site");
    // The port first, so a port in use is said at once rather than after a whole pass.
    const server = await serveStatic(siteDir, port, { liveReload: true });
    const loop = new DevLoop({ root, siteDir, slugMap: slugMapFile() });
    report(await loop.pass(), "start");
    rebuildOnChange(join(root, "openapi"), loop, server);
  },
  () => "--port N or DOCS_PORT=N",
);
