/**
 * The bounds every server of the project holds a client to: one body's size, the bytes buffered at
 * once, the bytes of a refused body read and thrown away so that its client hears the refusal,
 * connections, and how long a slow client may take. The specification states none of them; each
 * server names its body limit, the rest are these defaults (the sandbox's config `http` section
 * overrides them, sandbox/README.md).
 */
import type { Server } from "node:http";

export interface HttpLimits {
  /** One request body, in bytes; larger bodies are answered 413, their bytes never buffered. */
  readonly maxBodyBytes: number;
  /** Body bytes buffered at once across all requests; past it new bodies are answered 503. */
  readonly maxBufferedBytes: number;
  /** Open connections; Node closes those past it at once. */
  readonly maxConnections: number;
  /** A request's headers must arrive within this. */
  readonly headersTimeoutSeconds: number;
  /** A whole request (headers and body) must arrive within this. */
  readonly requestTimeoutSeconds: number;
  /** A connection with nothing in flight is closed after this. */
  readonly idleTimeoutSeconds: number;
}

const MB = 1024 * 1024;

/** The defaults besides the body limit, which each server derives from what it serves. */
export const HTTP_DEFAULTS = {
  maxBufferedBytes: 64 * MB,
  maxConnections: 512,
  headersTimeoutSeconds: 10,
  requestTimeoutSeconds: 60,
  idleTimeoutSeconds: 5,
} as const;

/**
 * The bytes of a refused or unwanted body read and thrown away after the answer, so that a client
 * still sending hears its 413 rather than a reset connection; past it the connection is closed.
 * Reading costs no memory (nothing is kept), only the time the request timeout already bounds.
 */
export const MAX_DISCARDED_BYTES = 64 * MB;

/** Applies the connection cap and the timeouts to a server before it listens, and answers CONNECT. */
export function applyServerLimits(server: Server, limits: Omit<HttpLimits, "maxBodyBytes" | "maxBufferedBytes">): void {
  server.maxConnections = limits.maxConnections;
  server.headersTimeout = limits.headersTimeoutSeconds * 1000;
  server.requestTimeout = limits.requestTimeoutSeconds * 1000;
  server.keepAliveTimeout = limits.idleTimeoutSeconds * 1000;
  // A socket silent this long, mid-request or not, is closed (Node's default is never).
  server.timeout = Math.max(limits.idleTimeoutSeconds, limits.headersTimeoutSeconds) * 1000;
  // CONNECT is no request Node hands to the listener; unanswered, the client would hear nothing at all.
  // Node no longer tracks such a socket (closeAllConnections misses it), so it is destroyed once written.
  server.on("connect", (_request, socket) =>
    socket.end("HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", () =>
      socket.destroy(),
    ),
  );
}

/** How often Node checks the header and request timeouts: often enough that they hold within a second. */
export const TIMEOUT_CHECK_MS = 1000;
