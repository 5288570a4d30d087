/**
 * Shared set-up of the MCP server's tests: the sandbox in-process (startSandbox, its documented
 * config), the typed client counting what it sends, the server of one session, and the SDK's own
 * client linked to it in memory, with every message either way recorded (to look for the key).
 */
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createClient } from "../../generated/client.ts";
import { quote } from "../../generated/costs.ts";
import { createSessionServer, type SessionServer } from "../../packages/mcp/server.ts";
import type { McpSettings } from "../../packages/mcp/settings.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";

/** A key long enough that any echo of it shows. */
export const KEY = "sk-live-mcp-test-3f9a71c2e8d4";

export interface Harness {
  readonly sandbox: RunningSandbox;
  readonly mcp: Client;
  readonly server: SessionServer;
  /** Requests the typed client sent, as "METHOD /path". */
  readonly sent: string[];
  /** Every JSON-RPC message between the SDK's client and the server, both ways. */
  readonly messages: JSONRPCMessage[];
  /** The server's messages alone. */
  readonly fromServer: JSONRPCMessage[];
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** The account's fields besides its key and plan (credits by default: plenty). */
  readonly account?: Record<string, unknown>;
  readonly settings?: Partial<Pick<McpSettings, "budget" | "confirmAbove">>;
  readonly client?: ClientOptions;
  /** The key the server is given (KEY, the sandbox account's, by default). */
  readonly apiKey?: string;
  /** Extra sandbox config (limits). */
  readonly config?: Record<string, unknown>;
}

/** A sandbox whose jobs take 0.3 s (3 s at ten times the speed), a server of one session, and the SDK's client. */
export async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({
    port: 0,
    config: {
      accounts: {
        main: { keys: [KEY], plan: "paid", credits: { monthlyLimit: 10_000, extra: 0 }, ...options.account },
      },
      clock: { speed: 10 },
      jobs: { defaultDurationSeconds: 3 },
      ...options.config,
    },
  });
  const sent: string[] = [];
  const apiKey = options.apiKey ?? KEY;
  const client = createClient({
    apiKey,
    baseUrl: sandbox.url,
    quote,
    defaultPollIntervalMs: 50,
    pollIntervalMs: { video: 50, model3d: 50 },
    fetch: (request: Request) => {
      sent.push(`${request.method} ${new URL(request.url).pathname}`);
      return fetch(request);
    },
  });
  const server = createSessionServer({
    client,
    settings: { apiKey, budget: 1000, confirmAbove: null, ...options.settings },
    version: "0.0.0-test",
    taskPollIntervalMs: 50,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const messages: JSONRPCMessage[] = [];
  const fromServer: JSONRPCMessage[] = [];
  for (const transport of [clientSide, serverSide]) {
    const send = transport.send.bind(transport);
    transport.send = (message, sendOptions) => {
      messages.push(message);
      if (transport === serverSide) fromServer.push(message);
      return send(message, sendOptions);
    };
  }
  await server.server.connect(serverSide);
  const mcp = new Client(
    { name: "test-agent", version: "1.0.0" },
    options.client ?? { capabilities: { tasks: { requests: {} } } },
  );
  await mcp.connect(clientSide);
  return {
    sandbox,
    mcp,
    server,
    sent,
    messages,
    fromServer,
    async close() {
      await mcp.close();
      await server.close();
      await sandbox.close();
    },
  };
}

/** The text of a tool result's first block. */
export const textOf = (result: unknown): string =>
  (result as { content: Array<{ type: string; text?: string }> }).content.find((block) => block.type === "text")
    ?.text ?? "";

/** The account's credits still available, read through the sandbox's own route. */
export async function available(sandbox: RunningSandbox): Promise<number> {
  const response = await fetch(`${sandbox.url}/v1/account/credits`, { headers: { authorization: `Bearer ${KEY}` } });
  return ((await response.json()) as { total_available: number }).total_available;
}
