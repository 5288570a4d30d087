/**
 * A static file server for the built site, on the project's HTTP layer (http-server/): bound to
 * 127.0.0.1 only, with its limits, and serving only requests whose Host names it and that come
 * from no page or from its own (another site's page, a rebound name, `Origin: null` are refused).
 */
import { createReadStream, readFileSync, statSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { extname, join, normalize, sep } from "node:path";
import { sendWhole } from "../http-server/answer.ts";
import { listenOnLoopback } from "../http-server/listen.ts";
import { DOCS_SERVER_HEADERS } from "./content-security.ts";
import { LOCAL_SERVERS_PATH } from "./site-pages.ts";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/**
 * A file's type as the asker reads it best. The Markdown copies are `text/markdown` for programs;
 * a browser opening one (it asks for HTML first) gets `text/plain`, which every browser shows as
 * text, where some would offer `text/markdown` as a download.
 */
export function contentType(file: string, accept: string | undefined): string {
  const type = CONTENT_TYPES[extname(file)] ?? "application/octet-stream";
  return type.startsWith("text/markdown") && /\btext\/html\b/.test(accept ?? "") ? CONTENT_TYPES[".txt"]! : type;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
  /** Tells every open page to reload (only with liveReload). */
  reload(): void;
}

/** The path of the live-reload event stream, and the script each HTML page gets to follow it. */
const RELOAD_PATH = "/__reload";
const RELOAD_SCRIPT = `<script>new EventSource("${RELOAD_PATH}").onmessage = () => location.reload();</script>`;

/**
 * The reload stream keeps the server's timeouts: a comment every `heartbeatMs` (within the idle
 * timeout) keeps a page's stream open, and each stream ends after `maxMs`, so that no client holds a
 * connection for good. The page's EventSource then connects again at once (`retry`), and is told of
 * a reload it missed meanwhile: each stream and reload carries the count of reloads as its event id.
 */
export const RELOAD_STREAM = { heartbeatMs: 4_000, maxMs: 60_000 };

/** Maps a request path to a file under root, or undefined when it would leave root or is missing. */
function fileFor(root: string, urlPath: string): string | undefined {
  const decoded = decodeURIComponent(urlPath.split("?")[0] ?? "/");
  // Node's parser refuses a target that does not start with "/" (400), and normalizing a rooted path
  // never climbs above its "/": the stripping and the check below are kept as defence in depth, with
  // no request that reaches them (their mutants are marked equivalent).
  // Stryker disable next-line Regex: equivalent: join() reads a leading "/" as a plain separator
  const relative = normalize(decoded.endsWith("/") ? `${decoded}index.html` : decoded).replace(/^([/\\])+/, "");
  const file = join(root, relative);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,MethodExpression: equivalent: no request path leaves the root (above)
  if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) return undefined;
  try {
    return statSync(file).isFile() ? file : undefined;
    // Stryker disable next-line BlockStatement: equivalent: an empty catch returns undefined too
  } catch {
    return undefined;
  }
}

export interface StaticServerOptions {
  /** Tells every open page to reload when asked (npm run dev). */
  readonly liveReload?: boolean;
  /** Where the sandbox started in this project listens, for the try-it console; none when omitted. */
  readonly localSandbox?: () => string | null;
  /** The reload stream's heartbeat and length (tests shorten them). */
  readonly reloadStream?: typeof RELOAD_STREAM;
}

export function serveStatic(
  root: string,
  port: number,
  { liveReload = false, localSandbox = () => null, reloadStream = RELOAD_STREAM }: StaticServerOptions = {},
): Promise<RunningServer> {
  const listeners = new Set<ServerResponse>();
  let reloads = 0;
  return listenOnLoopback({
    port,
    // The site calls no other server of its own: no page elsewhere may read it.
    // Stryker disable next-line ArrayDeclaration,BooleanLiteral: equivalent: with no other origin allowed, no request gets CORS (an "Origin: Stryker was here" aside)
    policy: { allowedOrigins: [], cors: false },
    refuse: (_request, response, refusal) =>
      sendWhole(
        response,
        refusal.status,
        { "content-type": "text/plain; charset=utf-8", ...DOCS_SERVER_HEADERS, ...refusal.headers },
        `${refusal.message}\n`,
      ),
    handle: (request, response) => {
      if (liveReload && request.url === RELOAD_PATH) {
        const missed = Number(request.headers["last-event-id"]) < reloads;
        response
          .writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
          .write(`: connected\nretry: 1000\nid: ${reloads}\n${missed ? "data: reload\n" : ""}\n`);
        listeners.add(response);
        const heartbeat = setInterval(() => response.write(":\n\n"), reloadStream.heartbeatMs);
        const end = setTimeout(() => response.end(), reloadStream.maxMs);
        response.on("close", () => {
          listeners.delete(response);
          clearInterval(heartbeat);
          clearTimeout(end);
        });
        return;
      }
      if (request.url === `/${LOCAL_SERVERS_PATH}` && (request.method === "GET" || request.method === "HEAD")) {
        const body = `${JSON.stringify({ sandbox: localSandbox() })}\n`;
        sendWhole(
          response,
          200,
          { "content-type": CONTENT_TYPES[".json"]!, "cache-control": "no-store", ...DOCS_SERVER_HEADERS },
          request.method === "HEAD" ? "" : body,
        );
        return;
      }
      let file: string | undefined;
      try {
        file = request.method === "GET" || request.method === "HEAD" ? fileFor(root, request.url ?? "/") : undefined;
      } catch {
        file = undefined; // a malformed %-escape is simply not found
      }
      if (!file) {
        sendWhole(
          response,
          404,
          { "content-type": "text/plain; charset=utf-8", ...DOCS_SERVER_HEADERS },
          "not found\n",
        );
        return;
      }
      response.writeHead(200, {
        "content-type": contentType(file, request.headers.accept),
        "cache-control": "no-cache",
        vary: "Accept",
        ...DOCS_SERVER_HEADERS,
      });
      if (request.method === "HEAD") response.end();
      else if (liveReload && extname(file) === ".html")
        response.end(readFileSync(file, "utf8").replace("</body>", `${RELOAD_SCRIPT}</body>`));
      else createReadStream(file).pipe(response);
    },
  }).then((running) => ({
    url: `${running.url}/`,
    close: () => {
      for (const listener of listeners) listener.end();
      return running.close();
    },
    reload: () => {
      reloads += 1;
      for (const listener of listeners) listener.write(`id: ${reloads}\ndata: reload\n\n`);
    },
  }));
}
