/**
 * A server of the project on 127.0.0.1: Node's HTTP server with the limits applied and the loopback
 * guard (Host, Origin, CORS) before the server's own listener. The sandbox, the mock's front and
 * the docs server all start this way; a port in use is a PortInUseError.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { discardBody } from "./body-reader.ts";
import type { HttpRefusal } from "./error-codes.ts";
import { applyServerLimits, HTTP_DEFAULTS, TIMEOUT_CHECK_MS, type HttpLimits } from "./limits.ts";
import { guardRequest, type LoopbackPolicy } from "./loopback-guard.ts";

export const HOST = "127.0.0.1";

export class PortInUseError extends Error {
  /** As Node names it, so that code reading a listen error's code reads this one alike. */
  readonly code = "EADDRINUSE";

  constructor(readonly port: number) {
    super(`port ${port} on ${HOST} is already in use`);
  }
}

export interface LoopbackServerOptions {
  /** 0: a free port. */
  readonly port: number;
  readonly policy: LoopbackPolicy;
  /** Connections and timeouts (HTTP_DEFAULTS when omitted). */
  readonly limits?: Omit<HttpLimits, "maxBodyBytes" | "maxBufferedBytes">;
  /** Serves a request the guard let through. */
  handle(request: IncomingMessage, response: ServerResponse): void;
  /** Answers the guard's refusal in the server's own form (its headers included). */
  refuse(request: IncomingMessage, response: ServerResponse, refusal: HttpRefusal): void;
  /** Hears of each refusal (a refused origin or host), to tell the person running the server; none when omitted. */
  onRefusal?(request: IncomingMessage, refusal: HttpRefusal): void;
}

export interface LoopbackServer {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  close(): Promise<void>;
}

export async function listenOnLoopback(options: LoopbackServerOptions): Promise<LoopbackServer> {
  let port = options.port;
  const server = createServer({ connectionsCheckingInterval: TIMEOUT_CHECK_MS }, (request, response) => {
    const verdict = guardRequest(request, response, port, options.policy);
    if (verdict === "answered") return;
    if (verdict === null) return options.handle(request, response);
    options.onRefusal?.(request, verdict);
    // A refused request's body is never read; thrown away, so its client hears the refusal.
    const headers = discardBody(request) ? verdict.headers : { ...verdict.headers, connection: "close" };
    options.refuse(request, response, { ...verdict, ...(headers ? { headers } : {}) });
  });
  applyServerLimits(server, options.limits ?? HTTP_DEFAULTS);
  server.listen(options.port, HOST);
  try {
    // once() rejects with the error the server emits before it listens.
    await once(server, "listening");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") throw new PortInUseError(options.port);
    throw error;
  }
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${HOST}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        // Kept-alive connections (a browser's, a test's fetch) would otherwise hold the port open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A port the OS reports free right now on 127.0.0.1: `port` itself (a PortInUseError when it is
 * taken, before a child process is started on it), or any free one for 0.
 */
export async function freePort(port = 0): Promise<number> {
  const probe = await listenOnLoopback({
    port,
    // Stryker disable next-line ArrayDeclaration,BooleanLiteral: equivalent: the probe closes at once, serving no one
    policy: { allowedOrigins: [], cors: false },
    handle: () => {},
    refuse: () => {},
  });
  await probe.close();
  return probe.port;
}
