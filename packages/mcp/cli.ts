/**
 * The bin `media-service-mcp`: the MCP server on stdio (the default: an MCP client starts it), or
 * with --http on Streamable HTTP at http://127.0.0.1:PORT/mcp. The API key is read from
 * MEDIA_API_KEY only; nothing it prints names it. A bad flag or setting is one line and exit 2.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { allowedOriginsSetting } from "../../http-server/loopback-guard.ts";
import { parseFlags, portSetting, runCommand } from "../../tools/command.ts";
import { stopWhenAsked } from "../../tools/process-lifecycle.ts";
import { BIN } from "./bin.ts";
import { CATALOG } from "./catalog.ts";
import { DEFAULT_MCP_PORT, MCP_PATH, startHttpServer } from "./http.ts";
import { createSessionServer } from "./server.ts";
import { serviceClient } from "./service-client.ts";
import { BASE_URL_VARIABLE, BUDGET_VARIABLE, CONFIRM_VARIABLE, KEY_VARIABLE, readSettings } from "./settings.ts";

/** The package's version, defined by its build; a run from the repository is the development one. */
declare const MCP_PACKAGE_VERSION: string | undefined;
const VERSION = typeof MCP_PACKAGE_VERSION === "undefined" ? "0.0.0-development" : MCP_PACKAGE_VERSION;

const HELP = `usage: ${BIN} [--http [--port N] [--allow-origin ORIGIN]] [--base-url URL] [--budget N] [--confirm-above N]

The MCP server of the media service (interface ${CATALOG.version}) for agents: on stdio by default,
or on Streamable HTTP at http://127.0.0.1:PORT${MCP_PATH} with --http.

  ${KEY_VARIABLE}                          the API key: from the environment only (required)
  --base-url URL       ${BASE_URL_VARIABLE}     the service's root address (required; the sandbox: http://127.0.0.1:4020)
  --budget N           ${BUDGET_VARIABLE}   credits one session may commit to creates, or "unlimited";
                                             unset: every priced create is refused
  --confirm-above N    ${CONFIRM_VARIABLE}  a create quoted above N credits asks the user first,
                                             where the client supports elicitation
  --http                                     Streamable HTTP on 127.0.0.1 instead of stdio
  --port N             MEDIA_MCP_PORT        its port, 0 for a free one (default ${DEFAULT_MCP_PORT})
  --allow-origin ORIGIN MEDIA_MCP_ALLOW_ORIGINS  a web page origin allowed to call it (repeatable)
  --help                                     this text

Exit status: 0 stopped (a signal, or stdin closed), 1 a failure (a port in use), 2 a bad option or setting.`;

const { values } = parseFlags({
  name: BIN,
  help: HELP,
  options: {
    http: { type: "boolean" },
    port: { type: "string" },
    "allow-origin": { type: "string", multiple: true },
    "base-url": { type: "string" },
    budget: { type: "string" },
    "confirm-above": { type: "string" },
  },
});

await runCommand(
  BIN,
  async () => {
    const settings = readSettings(values);
    const client = serviceClient(settings);
    const budget =
      settings.budget === undefined
        ? "no budget: priced creates refused"
        : settings.budget === null
          ? "no budget limit"
          : `budget ${settings.budget} credits per session`;
    if (values.http) {
      const port = portSetting(values.port, "--port", "MEDIA_MCP_PORT", DEFAULT_MCP_PORT);
      const allowedOrigins = allowedOriginsSetting(values["allow-origin"], "MEDIA_MCP_ALLOW_ORIGINS");
      const running = await startHttpServer({ client, settings, version: VERSION, port, allowedOrigins });
      process.stderr.write(`${BIN}: ${running.url}${MCP_PATH} for ${settings.baseUrl}; ${budget}\n`);
      stopWhenAsked(() => running.close());
      return;
    }
    const { server, close } = createSessionServer({ client, settings, version: VERSION });
    await server.connect(new StdioServerTransport());
    // stdout is the protocol's: this one line goes to stderr, which MCP clients show as the server's log.
    process.stderr.write(`${BIN}: stdio for ${settings.baseUrl}; ${budget}\n`);
    process.stdin.once("end", () => void close().finally(() => process.exit(0)));
    stopWhenAsked(close);
  },
  () => "--port N or MEDIA_MCP_PORT=N",
);
