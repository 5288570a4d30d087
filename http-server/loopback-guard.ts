/**
 * What keeps the servers on 127.0.0.1 (sandbox, mock, docs) to the people running them, checked
 * before any route:
 * - `Host` must name the address the server is bound to (127.0.0.1 or localhost, with the server's
 *   port if a port is given): a page on another site that rebinds its own name to 127.0.0.1 (DNS
 *   rebinding) sends its own name, and is refused.
 * - A request from a page (it carries `Origin`) is served only when that origin is the server's own
 *   or one the user allowed; the others are refused before they reach the server's routes, so a page
 *   elsewhere can neither read an answer nor cause an effect (a job, a charge). `Origin: null` (a page
 *   opened from disk, or any page's sandboxed iframe) is refused unless the user allowed `null`. The
 *   page cannot read the refusal either (no CORS header); the server's `onRefusal` hears of it (the
 *   sandbox logs it with the flag that allows the page), and the docs' console, which knows its own
 *   origin, names the same flag.
 * - An allowed origin gets CORS headers, and its preflight (OPTIONS with Access-Control-Request-Method)
 *   is answered here: it is the browser asking, not a call.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { UsageError } from "../tools/command.ts";
import { HTTP_CODES, type HttpRefusal } from "./error-codes.ts";

/** The docs server's default port (`npm run docs:serve`, `npm run dev`). */
export const DOCS_PORT = 8080;

/** The origins allowed when the user names none: the docs site served on this machine at its default port. */
export const DOCS_ORIGINS: readonly string[] = [`http://127.0.0.1:${DOCS_PORT}`, `http://localhost:${DOCS_PORT}`];

/** What a page may send and read: the console sends a key and JSON, and shows every header. */
const ALLOWED_HEADERS = "authorization, content-type, prefer";
const ALLOWED_METHODS = "GET, POST";
/** Preflights are cached for ten minutes. */
const MAX_AGE_SECONDS = 600;
/** The host names of 127.0.0.1, the only address the servers bind to. */
const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost"]);

/** An origin as the browser sends it: `null`, or scheme://host[:port] with no path. */
const ORIGIN_FORM = /^(null|https?:\/\/[^/\s?#]+)$/;

/**
 * The origins a user allows, from a repeatable flag and an environment variable (each may list
 * several, comma-separated); an entry that is no origin is a UsageError naming it.
 */
export function allowedOriginsSetting(flagValues: readonly string[] | undefined, variable: string): string[] {
  const origins = [...(flagValues ?? []), process.env[variable] ?? ""]
    .flatMap((text) => text.split(",").map((origin) => origin.trim()))
    .filter(Boolean);
  const bad = origins.find((origin) => !ORIGIN_FORM.test(origin));
  if (bad !== undefined)
    throw new UsageError(
      `--allow-origin or ${variable}: "${bad.slice(0, 100)}" is not an origin (null, or scheme://host[:port] with no path, as a browser sends it)`,
    );
  return origins;
}

/** How a person lets a page's origin call the server: the flag, with the origin as the browser sends it. */
export function allowOriginHint(origin: string): string {
  return origin === "null"
    ? "allow null (pages opened from disk) with --allow-origin null"
    : `allow it with --allow-origin ${origin.slice(0, 100)}`;
}

export interface LoopbackPolicy {
  /** Origins, besides the server's own, whose pages may call it (exact strings; `null` allowed by name only). */
  readonly allowedOrigins: readonly string[];
  /** Whether allowed origins get CORS headers and preflights are answered (an API); the docs server serves only itself. */
  readonly cors: boolean;
}

function hostProblem(host: string | undefined, port: number): string | null {
  // A bracketed IPv6 name is no loopback name here (the servers listen on 127.0.0.1): it is refused unparsed.
  // Stryker disable next-line StringLiteral: equivalent: with no Host, any fallback but a loopback name is refused
  const named = /^([^:]*)(?::(\d+))?$/.exec(host ?? "");
  const name = named?.[1]?.toLowerCase();
  if (name !== undefined && LOOPBACK_NAMES.has(name) && (named?.[2] === undefined || Number(named[2]) === port))
    return null;
  const shown = host === undefined ? "none" : JSON.stringify(host.slice(0, 100));
  return `Host: must name this server, 127.0.0.1:${port} or localhost:${port} (got ${shown}); a name resolving here is refused, as DNS rebinding would use one`;
}

/**
 * Checks a request against the policy. "answered": a preflight was answered here, nothing more to
 * do; a refusal: the server answers it in its own form; null: serve the request (an allowed
 * origin's CORS headers are already set).
 */
export function guardRequest(
  request: IncomingMessage,
  response: ServerResponse,
  port: number,
  policy: LoopbackPolicy,
): "answered" | HttpRefusal | null {
  const host = hostProblem(request.headers.host, port);
  if (host) return { status: 403, ...HTTP_CODES.hostNotAllowed, message: host };
  const origin = request.headers.origin;
  if (origin === undefined) return null;
  const own = origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
  const preflight = request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined;
  if (!own && !policy.allowedOrigins.includes(origin)) {
    return {
      status: 403,
      ...HTTP_CODES.originNotAllowed,
      message: `Origin: ${JSON.stringify(origin.slice(0, 100))} is not allowed to call this server; if you trust that page, ${allowOriginHint(origin)}`,
    };
  }
  if (own || !policy.cors) return null;
  response.setHeader("access-control-allow-origin", origin);
  response.setHeader("vary", "Origin");
  if (!preflight) {
    // The page reads the rate-limit and Retry-After headers, which CORS hides by default.
    response.setHeader("access-control-expose-headers", "*");
    return null;
  }
  response
    .writeHead(204, {
      "access-control-allow-methods": ALLOWED_METHODS,
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": String(MAX_AGE_SECONDS),
      "content-length": 0,
    })
    .end();
  return "answered";
}
