/**
 * CORS for the docs' try-it console (docs-src/browser/): the reference page, served from
 * 127.0.0.1 or localhost on any port or opened from disk (origin `null`), may call the sandbox.
 * Other origins get no CORS headers, so a browser keeps them out, unless SANDBOX_CORS_ORIGINS lists
 * them (comma-separated exact origins). A preflight (OPTIONS with Access-Control-Request-Method) is
 * answered here, before the sandbox's routes, rules and windows: it is the browser asking, not a call.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** The docs site's origins: served on this machine (`npm run docs:serve`) or opened from disk. */
const DOCS_ORIGIN = /^(null|http:\/\/(127\.0\.0\.1|localhost)(:\d{1,5})?)$/;

/** What a page may send and read: the console sends a key and JSON, and shows every header. */
const ALLOWED_HEADERS = "authorization, content-type, prefer";
const ALLOWED_METHODS = "GET, POST";
/** Preflights are cached for ten minutes. */
const MAX_AGE_SECONDS = 600;

export function corsOrigins(env: NodeJS.ProcessEnv = process.env): (origin: string) => boolean {
  const extra = new Set((env.SANDBOX_CORS_ORIGINS ?? "").split(",").map((origin) => origin.trim()).filter(Boolean));
  return (origin) => DOCS_ORIGIN.test(origin) || extra.has(origin);
}

/**
 * Adds the CORS headers for an allowed origin and answers its preflight (true: answered, nothing
 * more to do). Every other request gets its headers set here and is answered by the sandbox.
 */
export function answerCors(request: IncomingMessage, response: ServerResponse, allowed: (origin: string) => boolean): boolean {
  const origin = request.headers.origin;
  const preflight = request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined;
  if (origin === undefined || !allowed(origin)) {
    if (preflight) response.writeHead(403, { "content-length": 0, vary: "Origin" }).end();
    return preflight;
  }
  response.setHeader("access-control-allow-origin", origin);
  response.setHeader("vary", "Origin");
  if (!preflight) {
    // The page reads the rate-limit and Retry-After headers, which CORS hides by default.
    response.setHeader("access-control-expose-headers", "*");
    return false;
  }
  response
    .writeHead(204, {
      "access-control-allow-methods": ALLOWED_METHODS,
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": String(MAX_AGE_SECONDS),
      "content-length": 0,
    })
    .end();
  return true;
}
