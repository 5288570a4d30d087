/**
 * `npm run sandbox [-- --port N --config FILE --allow-origin ORIGIN]`: the stateful sandbox of the
 * description on 127.0.0.1 (port from --port, SANDBOX_PORT, or config.ts's DEFAULT_SANDBOX_PORT;
 * config from --config, SANDBOX_CONFIG, or sandbox/default-config.json). A bad option or a bad
 * config is one line and exit 2, a busy port one line and exit 1 (tools/command.ts), before it
 * listens; SIGINT and SIGTERM stop it cleanly.
 */
import type { IncomingMessage } from "node:http";
import type { HttpRefusal } from "../http-server/error-codes.ts";
import { recordLocalServer } from "../http-server/local-servers.ts";
import { allowedOriginsSetting, allowOriginHint, DOCS_ORIGINS } from "../http-server/loopback-guard.ts";
import { loadServiceModel } from "../model/service-model.ts";
import { parseFlags, portSetting, runCommand, UsageError } from "../tools/command.ts";
import { commandLine, IN_TOOLS_PACKAGE, runtimeFile } from "../tools/packaged.ts";
import {
  ConfigError,
  DEFAULT_CONFIG_FILE,
  DEFAULT_SANDBOX_PORT,
  readConfigFile,
  type SandboxConfig,
} from "./config.ts";
import { startSandbox } from "./server.ts";

const HELP = `usage: ${commandLine("sandbox")} [--port N] [--config FILE] [--allow-origin ORIGIN]

The stateful sandbox of the service's description on 127.0.0.1; SIGINT or SIGTERM stops it.

  --port N               SANDBOX_PORT           the port, 0 for a free one (default ${DEFAULT_SANDBOX_PORT})
  --config FILE          SANDBOX_CONFIG         accounts, keys, clock and limits (default ${DEFAULT_CONFIG_FILE})
  --allow-origin ORIGIN  SANDBOX_ALLOW_ORIGINS  a page origin allowed to call the sandbox, besides the docs
                                                served at http://127.0.0.1:8080 (repeat it, or list them
                                                comma-separated); "null" allows the docs opened from disk,
                                                and so any page's sandboxed frame: allow it knowingly
  --help                                        this text

Exit status: 0 stopped by a signal, 1 a failure (a port in use), 2 a bad option or config.
The config's fields, the outcome markers and the rules: ${runtimeFile("sandbox/README.md")}`;

const { values } = parseFlags({
  name: "sandbox",
  help: HELP,
  options: { port: { type: "string" }, config: { type: "string" }, "allow-origin": { type: "string", multiple: true } },
});

await runCommand(
  "sandbox",
  async () => {
    const port = portSetting(values.port, "--port", "SANDBOX_PORT", DEFAULT_SANDBOX_PORT);
    const allowedOrigins = allowedOriginsSetting(values["allow-origin"], "SANDBOX_ALLOW_ORIGINS");
    const file = values.config ?? process.env.SANDBOX_CONFIG ?? DEFAULT_CONFIG_FILE;
    const model = loadServiceModel();
    let config: SandboxConfig;
    try {
      config = readConfigFile(file, model);
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(`bad config ${error.message}`);
      throw error;
    }
    const sandbox = await startSandbox({ config, port, model, allowedOrigins, onRefusal: logRefusal() });
    const keys = Object.entries(config.accounts).map(
      ([name, account]) => `${name} (${account.plan}): ${account.keys.join(", ")}`,
    );
    console.log(`sandbox of ${model.doc.info.title} ${model.version} listening on ${sandbox.url}`);
    console.log(`config ${file}; accounts and keys: ${keys.join("; ")}`);
    console.log(
      `pages allowed to call it: ${[...DOCS_ORIGINS, ...allowedOrigins].join(", ")} (others: --allow-origin ORIGIN)`,
    );
    // In this repository, the docs server finds the sandbox by this record (http-server/local-servers.ts).
    const forget = IN_TOOLS_PACKAGE ? () => {} : recordLocalServer("sandbox", sandbox.url);
    stopOnSignals({ close: () => sandbox.close().then(forget) });
  },
  () => "--port N or SANDBOX_PORT=N",
);

/**
 * One line per page origin (or Host) refused, the first time: which page, what it asked, and the
 * flag that lets it call; a page that goes on polling adds no more lines.
 */
function logRefusal(): (request: IncomingMessage, refusal: HttpRefusal) => void {
  const told = new Set<string>();
  return (request, refusal) => {
    const origin = request.headers.origin;
    const asked = `${request.method ?? "?"} ${(request.url ?? "").slice(0, 80)}`;
    const key = origin ?? `host ${request.headers.host ?? ""}`;
    if (told.has(key)) return;
    told.add(key);
    const line =
      origin !== undefined && refusal.code === "origin_not_allowed"
        ? `refused ${asked} from a page at ${JSON.stringify(origin.slice(0, 100))}; if you trust that page (the docs served elsewhere than the default address, say), restart the sandbox and ${allowOriginHint(origin)} (later requests from it are refused without a line)`
        : `refused ${asked}: ${refusal.message}`;
    process.stderr.write(`sandbox: ${line}\n`);
  };
}

function stopOnSignals(running: { close(): Promise<void> }): void {
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
}
