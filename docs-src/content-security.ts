/**
 * The Content-Security-Policy of every page of the docs site, set as a `<meta http-equiv>` so it
 * holds opened from disk too: scripts and style sheets only from the site's own files (Redoc's
 * styled-components write `<style>` elements, hence inline styles; no eval),
 * images from the site or inline, and connections only to the site and to 127.0.0.1, where the
 * sandbox (`npm run sandbox`, 4020) and the contract mock (`npm run mock`, 4010) listen: both take
 * `--port`, so the port is left open. Text from the description can then never run as script even
 * if an escape were missed. The one inline script allowed, by its hash, is the listener that
 * `npm run dev`'s server adds to every page to follow its reloads (docs-src/static-server.ts;
 * tests/docs/site-readers.test.ts checks the hash against what that server sends).
 */
export const LIVE_RELOAD_SCRIPT_HASH = "sha256-6PLWmH+jhXdPIS5uJl5u9sBA21NQ8jmpmodrpsmb2T8=";

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src 'self' '${LIVE_RELOAD_SCRIPT_HASH}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self' http://127.0.0.1:*",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join("; ");

/**
 * What every answer of the docs server carries besides its type: the policy as a header too (it then
 * also covers the Markdown copies and llms.txt, which a `<meta>` cannot), with `frame-ancestors`,
 * which only a header can set: no page, this site's included, may frame the docs (a page elsewhere
 * could otherwise lay its own content over the console's key field); `X-Frame-Options` says the
 * same to browsers that predate it; `nosniff` keeps a browser from reading a text file as HTML.
 */
export const DOCS_SERVER_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
};
