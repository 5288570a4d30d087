/**
 * The MCP server on Streamable HTTP: on 127.0.0.1, behind the same Host and Origin checks as the
 * project's other servers, one session (and budget) per client.
 */
import { request as httpRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../generated/client.ts";
import { quote } from "../../generated/costs.ts";
import { MCP_PATH, startHttpServer } from "../../packages/mcp/http.ts";

const KEY = "sk-live-http-test-7c1d0e9a";
let running: Awaited<ReturnType<typeof startHttpServer>>;

beforeAll(async () => {
  const client = createClient({ apiKey: KEY, baseUrl: "http://127.0.0.1:9", quote });
  running = await startHttpServer({
    client,
    settings: { apiKey: KEY, budget: 50, confirmAbove: null },
    version: "0",
    port: 0,
    allowedOrigins: ["http://127.0.0.1:7777"],
  });
});
afterAll(() => running.close());

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "page", version: "1" } },
});

/** A raw POST to /mcp with the headers given (Host among them), as a page or a rebound name would send it. */
function post(headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sending = httpRequest(
      {
        host: "127.0.0.1",
        port: running.port,
        path: MCP_PATH,
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    sending.on("error", reject);
    sending.end(initialize);
  });
}

describe("the HTTP transport", () => {
  it("serves the SDK's client on 127.0.0.1, a session per client", async () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const before = running.sessions;
    const clients = [new Client({ name: "a", version: "1" }), new Client({ name: "b", version: "1" })];
    for (const client of clients)
      await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}${MCP_PATH}`)));
    expect((await clients[0]!.listTools()).tools.map((tool) => tool.name)).toContain("create");
    expect(running.sessions).toBe(before + 2);
    for (const client of clients) await client.close();
  });

  it("refuses a page of another site and a name rebound to 127.0.0.1, before the protocol", async () => {
    const page = await post({ origin: "https://evil.example" });
    expect(page.status).toBe(403);
    expect(JSON.parse(page.body).error.message).toMatch(/Origin: "https:\/\/evil\.example" is not allowed/);
    const rebound = await post({ host: `evil.example:${running.port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.message).toMatch(/^Host: must name this server/);
    const sessions = running.sessions;
    const allowed = await post({ origin: "http://127.0.0.1:7777" });
    expect(allowed.status).toBe(200);
    expect(running.sessions).toBe(sessions + 1);
  });

  it("answers an unknown session and another path with an error, starting nothing", async () => {
    const unknown = await post({ "mcp-session-id": "no-such-session" });
    expect(unknown.status).toBe(404);
    const sessions = running.sessions;
    const response = await fetch(`${running.url}/other`, { method: "POST", body: initialize });
    expect(response.status).toBe(404);
    expect(running.sessions).toBe(sessions);
  });
});
