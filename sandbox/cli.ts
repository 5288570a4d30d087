/**
 * `npm run sandbox [-- --port N --config FILE]`: the stateful sandbox of the description on
 * 127.0.0.1 (port from --port, SANDBOX_PORT, or 4020; config from --config, SANDBOX_CONFIG, or
 * sandbox/default-config.json). A bad option, a bad config or a busy port ends it with one clear
 * line before it listens; SIGINT and SIGTERM stop it cleanly.
 */
import { parseArgs } from "node:util";
import { loadServiceModel } from "../model/service-model.ts";
import { commandLine, runtimeFile } from "../tools/packaged.ts";
import { ConfigError, DEFAULT_CONFIG_FILE, readConfigFile } from "./config.ts";
import { PortInUseError } from "../http-server/listen.ts";
import { startSandbox } from "./server.ts";

function fail(message: string, code: number): never {
  console.error(message);
  process.exit(code);
}

const HELP = `usage: ${commandLine("sandbox")} [--port N] [--config FILE]

The stateful sandbox of the service's description on 127.0.0.1; SIGINT or SIGTERM stops it.

  --port N        SANDBOX_PORT     the port, 0 for a free one (default 4020)
  --config FILE   SANDBOX_CONFIG   accounts, keys, clock and limits (default ${DEFAULT_CONFIG_FILE})
  --help                           this text

The config's fields, the outcome markers and the rules: ${runtimeFile("sandbox/README.md")}`;

let parsed;
try {
  parsed = parseArgs({ options: { port: { type: "string" }, config: { type: "string" }, help: { type: "boolean" } } });
} catch (error) {
  fail(`sandbox: ${(error as Error).message} (${commandLine("sandbox")} --help)`, 2);
}
const { values } = parsed;
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const givenPort = values.port ?? process.env.SANDBOX_PORT ?? "4020";
const port = Number(givenPort);
if (!/^\d+$/.test(givenPort) || port > 65535) {
  fail(`${values.port !== undefined ? "--port" : "SANDBOX_PORT"}: "${givenPort}" is not a port number (an integer from 0 to 65535)`, 2);
}
const file = values.config ?? process.env.SANDBOX_CONFIG ?? DEFAULT_CONFIG_FILE;

const model = loadServiceModel();
let config;
try {
  config = readConfigFile(file, model);
} catch (error) {
  if (error instanceof ConfigError) fail(`sandbox: bad config ${error.message}`, 2);
  throw error;
}

let sandbox;
try {
  sandbox = await startSandbox({ config, port, model });
} catch (error) {
  if (error instanceof PortInUseError) fail(`sandbox: ${error.message}; choose another with --port N or SANDBOX_PORT=N (0 picks a free one)`, 1);
  throw error;
}
const keys = Object.entries(config.accounts).map(([name, account]) => `${name} (${account.plan}): ${account.keys.join(", ")}`);
console.log(`sandbox of ${model.doc.info.title} ${model.version} listening on ${sandbox.url}`);
console.log(`config ${file}; accounts and keys: ${keys.join("; ")}`);

const running = sandbox;
let stopping = false;
const stop = (reason: string): void => {
  // Ctrl-C reaches both npm and the sandbox, and npm forwards it again: stop once, ignore the repeat.
  if (stopping) return;
  stopping = true;
  void running.close().then(() => {
    console.log(`sandbox stopped (${reason})`);
    process.exit(0);
  });
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
// A parent that dies without forwarding a signal (npm killed with SIGKILL) leaves this process
// reparented: stop then too, rather than keep the port.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop("parent exited");
}, 1000).unref();
