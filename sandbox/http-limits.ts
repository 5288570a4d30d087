/**
 * The sandbox's bounds on what clients may hold of it: one body's size, the bytes buffered at once,
 * connections, and how long a slow client may take. The specification states none of them; the body
 * limit is derived from the description (the largest inline media it allows), the others are the
 * sandbox's defaults, each overridable in the config's `http` section (sandbox/README.md).
 */
import type { Server } from "node:http";
import { deref, type JsonSchema } from "../model/document.ts";
import type { ServiceModel } from "../model/service-model.ts";

export interface HttpLimits {
  /** One request body, in bytes; larger bodies are answered 413 unread. */
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
const INLINE_FORMS = new Set(["data-uri", "raw-base64"]);
/** Room beside the largest inline media for the body's other fields (prompts, URLs, options). */
const OTHER_FIELDS_BYTES = MB;

/** The sandbox's defaults besides the body limit. */
export const HTTP_DEFAULTS = {
  maxBufferedBytes: 64 * MB,
  maxConnections: 512,
  headersTimeoutSeconds: 10,
  requestTimeoutSeconds: 60,
  idleTimeoutSeconds: 5,
} as const;

/** The largest `x-media` maxSizeMB among request fields that take media inline (data URI or raw base64), with its field. */
export function largestInlineMedia(model: ServiceModel): { readonly field: string; readonly megabytes: number } | null {
  let largest: { field: string; megabytes: number } | null = null;
  for (const route of model.createRoutes) {
    const body = model.doc.paths[route.path]?.post?.requestBody?.content["application/json"]?.schema;
    const properties = (body ? deref<JsonSchema>(model.doc, body).properties : undefined) as Record<string, JsonSchema> | undefined;
    for (const [name, property] of Object.entries(properties ?? {})) {
      const media = deref<JsonSchema>(model.doc, property)["x-media"] as { forms?: string[]; maxSizeMB?: number } | undefined;
      if (media?.maxSizeMB === undefined || !media.forms?.some((form) => INLINE_FORMS.has(form))) continue;
      if (!largest || media.maxSizeMB > largest.megabytes) largest = { field: `POST ${route.path} ${name}`, megabytes: media.maxSizeMB };
    }
  }
  return largest;
}

/**
 * The default body limit: the largest inline media base64-encoded (4 bytes per 3), plus room for the
 * other fields; where the description states no inline size, the room alone.
 */
export function defaultMaxBodyBytes(model: ServiceModel): number {
  const media = largestInlineMedia(model);
  return (media ? Math.ceil((media.megabytes * MB * 4) / 3) : 0) + OTHER_FIELDS_BYTES;
}

/** Applies the connection cap and the timeouts to a server before it listens, and answers CONNECT. */
export function applyServerLimits(server: Server, limits: HttpLimits): void {
  server.maxConnections = limits.maxConnections;
  server.headersTimeout = limits.headersTimeoutSeconds * 1000;
  server.requestTimeout = limits.requestTimeoutSeconds * 1000;
  server.keepAliveTimeout = limits.idleTimeoutSeconds * 1000;
  // A socket silent this long, mid-request or not, is closed (Node's default is never).
  server.timeout = Math.max(limits.idleTimeoutSeconds, limits.headersTimeoutSeconds) * 1000;
  // CONNECT is no request Node hands to the listener; unanswered, the client would hear nothing at all.
  // Node no longer tracks such a socket (closeAllConnections misses it), so it is destroyed once written.
  server.on("connect", (_request, socket) => socket.end("HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", () => socket.destroy()));
}

/** How often Node checks the header and request timeouts: often enough that they hold within a second. */
export const TIMEOUT_CHECK_MS = 1000;
