/**
 * `npm run docs:serve`: serves the built site (docs/site/) on 127.0.0.1. The port is
 * `--port N`, else the DOCS_PORT environment variable, else 8080; 0 picks a free port.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_SITE_DIR } from "./site.ts";
import { serveStatic } from "./static-server.ts";

function portFrom(argv: string[], env: NodeJS.ProcessEnv): number {
  const flag = argv.indexOf("--port");
  const raw = flag >= 0 ? argv[flag + 1] : env.DOCS_PORT;
  const port = raw === undefined ? 8080 : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port ${raw}`);
  return port;
}

try {
  if (!existsSync(join(DEFAULT_SITE_DIR, "index.html"))) throw new Error(`${DEFAULT_SITE_DIR} has no built site; run npm run docs first`);
  const server = await serveStatic(DEFAULT_SITE_DIR, portFrom(process.argv.slice(2), process.env));
  console.log(`docs: serving ${DEFAULT_SITE_DIR} at ${server.url} (Ctrl-C to stop)`);
} catch (error) {
  process.stderr.write(`docs:serve failed: ${(error as Error).message}\n`);
  process.exit(1);
}
