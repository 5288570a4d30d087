/**
 * `npm run docs:serve [-- --port N --dir DIR]`: serves the built site (docs/site/, or DIR) on
 * 127.0.0.1. The port is `--port N`, else the DOCS_PORT environment variable, else 8080; 0 picks a
 * free port. A bad option or a DIR without a built site is one line and exit 2, a busy port one
 * line and exit 1 (tools/command.ts). Stops on SIGINT/SIGTERM and when the npm process that
 * launched it dies.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { localServer } from "../http-server/local-servers.ts";
import { DOCS_ORIGINS, DOCS_PORT } from "../http-server/loopback-guard.ts";
import { parseFlags, portSetting, runCommand, UsageError } from "../tools/command.ts";
import { stopWhenAsked } from "../tools/process-lifecycle.ts";
import { SANDBOX_DEFAULT_URL } from "./sandbox-facts.ts";
import { DEFAULT_SITE_DIR } from "./site.ts";
import { serveStatic } from "./static-server.ts";

const HELP = `usage: npm run docs:serve -- [--port N] [--dir DIR]

Serves the built docs site on 127.0.0.1 (npm run docs builds it); Ctrl-C stops it.

  --port N    DOCS_PORT   the port, 0 for a free one (default ${DOCS_PORT}: the sandbox and the mock
                          let pages from it call them)
  --dir DIR               the built site (default ${DEFAULT_SITE_DIR})
  --help                  this text

Exit status: 0 stopped by a signal, 1 a failure (a port in use), 2 a bad option or a DIR with no site.`;

const { values } = parseFlags({
  name: "docs:serve",
  help: HELP,
  options: { port: { type: "string" }, dir: { type: "string" } },
});

await runCommand(
  "docs:serve",
  async () => {
    const port = portSetting(values.port, "--port", "DOCS_PORT", DOCS_PORT);
    const dir = values.dir ? resolve(values.dir) : DEFAULT_SITE_DIR;
    if (!existsSync(join(dir, "index.html")))
      throw new UsageError(
        `${dir} has no built site (no index.html); run npm run docs first, or name the site with --dir DIR`,
      );
    const server = await serveStatic(dir, port, { localSandbox: () => localServer("sandbox") });
    stopWhenAsked(() => server.close());
    console.log(`docs: serving ${dir} at ${server.url} (Ctrl-C to stop)`);
    const origin = server.url.replace(/\/$/, "");
    const sandbox = localServer("sandbox");
    console.log(
      `docs: Try it calls ${sandbox ? `the sandbox running at ${sandbox}` : `the sandbox started in this project (npm run sandbox), wherever it listens, else ${SANDBOX_DEFAULT_URL}`}${DOCS_ORIGINS.includes(origin) ? "" : `; for it to accept these pages, start the sandbox with --allow-origin ${origin}`}`,
    );
  },
  () => "--port N or DOCS_PORT=N",
);
