/**
 * What the docs server (docs-src/static-server.ts) serves, with real requests on 127.0.0.1: the
 * files under its root and nothing beside it, directories by their index.html, GET and HEAD only,
 * each with its type (a Markdown copy as plain text to a browser), revalidated on each use; the
 * try-it console's local-servers.json; a plain 404 otherwise; and, only in the dev loop, the reload
 * stream and its script in each HTML page.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_SERVERS_PATH } from "../../docs-src/site-pages.ts";
import { contentType, type RunningServer, serveStatic } from "../../docs-src/static-server.ts";
import { rawExchange } from "../../fuzz/raw-http.ts";

let dir: string;
let plain: RunningServer;
let live: RunningServer;
const PAGE = "<html><body><p>docs</p></body></html>";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "docs-files-"));
  const root = join(dir, "site");
  mkdirSync(join(root, "guides"), { recursive: true });
  writeFileSync(join(root, "index.html"), PAGE);
  writeFileSync(join(root, "guides", "index.html"), "<body>guides</body>");
  writeFileSync(join(root, "site.css"), "body{}");
  // A directory beside the root whose name starts with the root's: none of it is the site's.
  mkdirSync(join(dir, "site-private"));
  writeFileSync(join(dir, "site-private", "secret.txt"), "secret");
  writeFileSync(join(dir, "outside.txt"), "outside");
  plain = await serveStatic(root, 0);
  live = await serveStatic(root, 0, { liveReload: true, localSandbox: () => "http://127.0.0.1:4020" });
});
afterAll(async () => {
  await plain?.close();
  await live?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The exact request line (no client's URL normalizing), for paths that try to leave the root. */
const raw = (server: RunningServer, path: string, method: string, host = `127.0.0.1:${new URL(server.url).port}`) =>
  rawExchange(
    Number(new URL(server.url).port),
    Buffer.from([`${method} ${path} HTTP/1.1`, `Host: ${host}`, "Connection: close", "", ""].join("\r\n")),
  );

/** One request as a client sends it; the body as text (chunked transfer undone). */
async function ask(server: RunningServer, path: string, method = "GET") {
  const response = await fetch(new URL(path, server.url), { method });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

describe("contentType", () => {
  it("gives each kind of file its type, and anything else as bytes", () => {
    expect(contentType("a/index.html", undefined)).toBe("text/html; charset=utf-8");
    expect(contentType("site.css", "*/*")).toBe("text/css; charset=utf-8");
    expect(contentType("reference.md", undefined)).toBe("text/markdown; charset=utf-8");
    expect(contentType("archive.bin", "text/html")).toBe("application/octet-stream");
  });

  it("gives a Markdown copy as plain text to a browser, which asks for HTML, and as Markdown to anything else", () => {
    expect(contentType("reference.md", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8")).toBe(
      "text/plain; charset=utf-8",
    );
    expect(contentType("reference.md", "application/xhtml+xml, text/markdown")).toBe("text/markdown; charset=utf-8");
    expect(contentType("reference.md", "text/htmlx")).toBe("text/markdown; charset=utf-8");
    expect(contentType("index.html", "text/html")).toBe("text/html; charset=utf-8");
  });
});

describe("the docs server's files", () => {
  it("serves a file with its type, to be revalidated on each use and varying with Accept", async () => {
    const answer = await ask(plain, "/site.css");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(answer.headers.get("cache-control")).toBe("no-cache");
    expect(answer.headers.get("vary")).toBe("Accept");
    expect(answer.body).toBe("body{}");
  });

  it("serves a directory by its index.html", async () => {
    expect((await ask(plain, "/")).body).toBe(PAGE);
    expect((await ask(plain, "/guides/")).body).toBe("<body>guides</body>");
  });

  it("answers HEAD with the headers and no body", async () => {
    const answer = await ask(plain, "/index.html", "HEAD");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(answer.body).toBe("");
  });

  it("answers a plain 404 for a missing file, another method, and anything outside its root", async () => {
    for (const [method, path] of [
      ["GET", "/missing.html"],
      ["POST", "/index.html"],
      ["DELETE", "/index.html"],
      ["GET", "/..%2Foutside.txt"],
      ["GET", "/..%2Fsite-private%2Fsecret.txt"],
      ["GET", "/%2e%2e/site-private/secret.txt"],
      ["GET", "/guides"],
      ["GET", "/%E0%A4%A"],
    ] as const) {
      const answer = await raw(plain, path, method);
      expect(answer?.status, `${method} ${path}`).toBe(404);
      expect(answer?.headers.get("content-type"), path).toBe("text/plain; charset=utf-8");
      expect(answer?.body.toString(), path).toBe("not found\n");
    }
  });

  it("answers a refusal as plain text", async () => {
    const answer = await raw(plain, "/index.html", "GET", "evil.example");
    expect(answer?.status).toBe(403);
    expect(answer?.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(answer?.body.toString()).toMatch(/^Host: must name this server.*\n$/);
  });

  it("tells the console where this project's sandbox listens, to GET and HEAD, never cached", async () => {
    const answer = await ask(live, `/${LOCAL_SERVERS_PATH}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.body).toBe('{"sandbox":"http://127.0.0.1:4020"}\n');
    const head = await ask(live, `/${LOCAL_SERVERS_PATH}`, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect((await ask(live, `/${LOCAL_SERVERS_PATH}`, "POST")).status).toBe(404);
    expect((await ask(plain, `/${LOCAL_SERVERS_PATH}`)).body).toBe('{"sandbox":null}\n');
  });
});

describe("the dev loop's reload", () => {
  it("puts the reload script just before </body> of each HTML page, and leaves other files as they are", async () => {
    expect((await ask(live, "/index.html")).body).toBe(
      '<html><body><p>docs</p><script>new EventSource("/__reload").onmessage = () => location.reload();</script></body></html>',
    );
    expect((await ask(live, "/site.css")).body).toBe("body{}");
    expect((await ask(live, "/index.html", "HEAD")).body).toBe("");
  });

  it("is not there without the dev loop: pages as written, no reload stream", async () => {
    expect((await ask(plain, "/index.html")).body).toBe(PAGE);
    expect((await ask(plain, "/__reload")).status).toBe(404);
  });

  it("streams events, uncached, from the reload path", async () => {
    const port = Number(new URL(live.url).port);
    const { request } = await import("node:http");
    const head = await new Promise<{ status?: number; type?: string; cache?: string; first: string }>(
      (resolve, reject) => {
        const asking = request({ host: "127.0.0.1", port, path: "/__reload" }, (response) => {
          response.once("data", (chunk: Buffer) => {
            resolve({
              status: response.statusCode,
              type: response.headers["content-type"],
              cache: response.headers["cache-control"],
              first: chunk.toString(),
            });
            asking.destroy();
          });
        });
        asking.on("error", reject);
        asking.end();
      },
    );
    expect(head).toEqual({
      status: 200,
      type: "text/event-stream",
      cache: "no-cache",
      first: ": connected\nretry: 1000\nid: 0\n\n",
    });
  });
});
