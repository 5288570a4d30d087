/**
 * `npm run docs:serve [-- --port N --dir DIR]`: serves the built site (docs/site/, or DIR) on
 * 127.0.0.1. The port is `--port N`, else the DOCS_PORT environment variable, else 8080; 0 picks a
 * free port. Stops on SIGINT/SIGTERM and when the npm process that launched it dies.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { portProblem, stopWhenAsked } from "../tools/process-lifecycle.ts";
import { DEFAULT_SITE_DIR } from "./site.ts";
import { serveStatic } from "./static-server.ts";

function portFrom(given: string | undefined): number {
  const raw = given ?? process.env.DOCS_PORT;
  const port = raw === undefined ? 8080 : Number(raw);
  if (!/^\d+$/.test(raw ?? "8080") || port > 65535) throw new Error(`${given !== undefined ? "--port" : "DOCS_PORT"}: "${raw}" is not a port number (an integer from 0 to 65535)`);
  return port;
}

let port = 0;
try {
  const { values } = parseArgs({ options: { port: { type: "string" }, dir: { type: "string" } } });
  const dir = values.dir ? resolve(values.dir) : DEFAULT_SITE_DIR;
  if (!existsSync(join(dir, "index.html"))) throw new Error(`${dir} has no built site; run npm run docs first`);
  port = portFrom(values.port);
  const server = await serveStatic(dir, port);
  stopWhenAsked(() => server.close());
  console.log(`docs: serving ${dir} at ${server.url} (Ctrl-C to stop)`);
} catch (error) {
  process.stderr.write(`docs:serve: ${portProblem(error, port, "--port N or DOCS_PORT") ?? (error as Error).message}\n`);
  process.exit(1);
}
