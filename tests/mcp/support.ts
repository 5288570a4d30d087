/**
 * Shared set-up of the MCP server's tests: one sandbox in-process per test file (startSandbox, its
 * documented config), and per test an account of its own, the typed client counting what it sends,
 * the server of one session, and the SDK's own client linked to it in memory, with every message
 * either way recorded (to look for the key).
 */
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createSessionServer, type SessionServer } from "../../packages/mcp/server.ts";
import { serviceClient } from "../../packages/mcp/service-client.ts";
import type { McpSettings } from "../../packages/mcp/settings.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";

/** A key long enough that any echo of it shows; each account's key is it with the account's name. */
export const KEY = "sk-live-mcp-test-3f9a71c2e8d4";
export const keyOf = (account: string) => `${KEY}-${account}`;

/** Accounts of their own for the tests that need a limit: one job in flight, a spend limit of 20 credits. */
const SPECIAL_ACCOUNTS = {
  queue: { concurrency: 1 },
  capped: { monthlySpendLimit: 20 },
} as const;
/** Plain accounts, one per test, so that no test sees another's jobs or charges. */
const PLAIN_ACCOUNTS = 24;

/**
 * One sandbox for a test file (startSandbox and its documented config): ten times the real pace, so
 * that image jobs take 0.3 s and 3D jobs (the area's typical two minutes) 12 s; the content-filtered
 * family's cooldown pauses 40 s.
 */
export async function fileSandbox(): Promise<RunningSandbox> {
  const account = (fields: object) => ({ plan: "paid", credits: { monthlyLimit: 10_000, extra: 0 }, ...fields });
  const accounts: Record<string, object> = {};
  for (let index = 0; index < PLAIN_ACCOUNTS; index += 1)
    accounts[`t${index}`] = account({ keys: [keyOf(`t${index}`)] });
  for (const [name, fields] of Object.entries(SPECIAL_ACCOUNTS))
    accounts[name] = account({ keys: [keyOf(name)], ...fields });
  return startSandbox({
    port: 0,
    config: {
      accounts,
      clock: { speed: 10 },
      jobs: { defaultDurationSeconds: 3 },
      limits: { cooldown: { pauseSeconds: 40, growthSeconds: 10 } },
    },
  });
}

export interface Harness {
  readonly sandbox: RunningSandbox;
  /** The key of the test's account. */
  readonly key: string;
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
  /** One of the accounts with a limit; a plain account of its own by default. */
  readonly account?: keyof typeof SPECIAL_ACCOUNTS;
  readonly settings?: Partial<Pick<McpSettings, "budget" | "confirmAbove">>;
  readonly client?: ClientOptions;
  /** The key the server is given (the account's by default). */
  readonly apiKey?: string;
}

let plainUsed = 0;

/** A server of one session on `sandbox`, for an account of its own, and the SDK's client linked to it in memory. */
export async function harness(sandbox: RunningSandbox, options: HarnessOptions = {}): Promise<Harness> {
  if (!options.account && plainUsed >= PLAIN_ACCOUNTS)
    throw new Error("tests/mcp/support.ts: more plain accounts needed");
  const key = keyOf(options.account ?? `t${plainUsed++}`);
  const sent: string[] = [];
  const apiKey = options.apiKey ?? key;
  // The server's own client (its maximum pause among its options), with short polls and counted requests.
  const client = serviceClient(
    { apiKey, baseUrl: sandbox.url },
    {
      defaultPollIntervalMs: 50,
      pollIntervalMs: { video: 50, model3d: 50 },
      fetch: (request: Request) => {
        sent.push(`${request.method} ${new URL(request.url).pathname}`);
        return fetch(request);
      },
    },
  );
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
    key,
    mcp,
    server,
    sent,
    messages,
    fromServer,
    async close() {
      await mcp.close();
      await server.close();
    },
  };
}

/** The text of a tool result's first block. */
export const textOf = (result: unknown): string =>
  (result as { content: Array<{ type: string; text?: string }> }).content.find((block) => block.type === "text")
    ?.text ?? "";

/** An account's credits still available, read through the sandbox's own route. */
export async function available({ sandbox, key }: Pick<Harness, "sandbox" | "key">): Promise<number> {
  const response = await fetch(`${sandbox.url}/v1/account/credits`, { headers: { authorization: `Bearer ${key}` } });
  return ((await response.json()) as { total_available: number }).total_available;
}
