/**
 * The server over Streamable HTTP on 127.0.0.1, at /mcp: one session (its own server, budget and
 * tasks) per client, on the project's HTTP layer (http-server/), so that the Host and Origin
 * checks are those of our other servers: a page on another site, or one whose name rebinds to
 * 127.0.0.1, is refused before it reaches the protocol; only pages the user allows may call.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { listenOnLoopback, type LoopbackServer } from "../../http-server/listen.ts";
import type { McpServerOptions, SessionServer } from "./server.ts";
import { createSessionServer } from "./server.ts";

export const MCP_PATH = "/mcp";
/** The default port of `media-service-mcp --http`. */
export const DEFAULT_MCP_PORT = 4030;

export interface HttpServerOptions extends McpServerOptions {
  readonly port: number;
  /** Page origins allowed besides the server's own (`--allow-origin`). */
  readonly allowedOrigins?: readonly string[];
}

interface OpenSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: SessionServer;
}

function jsonRpcError(response: ServerResponse, status: number, message: string): void {
  response
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

export async function startHttpServer(options: HttpServerOptions): Promise<LoopbackServer & { sessions: number }> {
  const sessions = new Map<string, OpenSession>();

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? "").split("?")[0];
    if (path !== MCP_PATH) return jsonRpcError(response, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    // An MCP answer may stay silent for as long as wait_job waits, and a notification stream for the
    // whole session: the idle timeout of the HTTP layer, which guards against slow senders of
    // requests, would cut them (the request itself has been let in by the guard and the limits).
    request.socket.setTimeout(0);
    const id = request.headers["mcp-session-id"];
    if (typeof id === "string") {
      const open = sessions.get(id);
      if (!open) return jsonRpcError(response, 404, "Session not found: start a new session with initialize");
      return open.transport.handleRequest(request, response);
    }
    // A request without a session may only start one: the transport answers anything but initialize with its 400.
    const server = createSessionServer(options);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, server });
      },
      onsessionclosed: (sessionId) => {
        sessions.delete(sessionId);
        void server.close();
      },
    });
    await server.server.connect(transport);
    await transport.handleRequest(request, response);
    if (transport.sessionId === undefined) await server.close();
  }

  const running = await listenOnLoopback({
    port: options.port,
    policy: { allowedOrigins: options.allowedOrigins ?? [], cors: false },
    handle: (request, response) => {
      handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) jsonRpcError(response, 500, `Internal error: ${(error as Error).message}`);
        else response.end();
      });
    },
    refuse: (_request, response, refusal) => {
      response.writeHead(refusal.status, { "content-type": "application/json", ...refusal.headers });
      response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: refusal.message }, id: null }));
    },
  });
  return {
    ...running,
    get sessions() {
      return sessions.size;
    },
    async close() {
      for (const { server } of sessions.values()) await server.close();
      sessions.clear();
      await running.close();
    },
  };
}
