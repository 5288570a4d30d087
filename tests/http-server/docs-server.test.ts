/**
 * The docs server (docs-src/static-server.ts, on http-server/) against pages of other sites and
 * rebound names, with real requests on 127.0.0.1: a Host that does not name it and a page's
 * foreign Origin (`null` included) are refused 403; its own pages, and requests from no page, are
 * served; no page may frame any answer; the Markdown copies and llms.txt are text.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStatic, type RunningServer } from "../../docs-src/static-server.ts";
import { rawExchange } from "../../fuzz/raw-http.ts";
import { listenOnLoopback } from "../../http-server/listen.ts";

let dir: string;
let site: RunningServer;
let port: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "docs-guard-"));
  writeFileSync(join(dir, "index.html"), "<p>docs</p>");
  writeFileSync(join(dir, "index.md"), "# Docs\n");
  writeFileSync(join(dir, "llms.txt"), "# Docs\n");
  site = await serveStatic(dir, 0);
  port = Number(new URL(site.url).port);
});
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (headers: string[], path = "/index.html") =>
  rawExchange(port, Buffer.from([`GET ${path} HTTP/1.1`, ...headers, "Connection: close", "", ""].join("\r\n")));

/** What a browser's navigation asks for. */
const BROWSER_ACCEPT = "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

describe("the docs server", () => {
  it("serves requests whose Host names it, from no page or from its own", async () => {
    for (const headers of [
      [`Host: 127.0.0.1:${port}`],
      [`Host: localhost:${port}`],
      [`Host: 127.0.0.1:${port}`, `Origin: http://127.0.0.1:${port}`],
    ]) {
      const answer = await get(headers);
      expect(answer?.status, headers.join(" ")).toBe(200);
      expect(answer?.body.toString()).toContain("<p>docs</p>");
    }
  });

  it("sends every file with the site's Content-Security-Policy: no script but its own, no connection but to 127.0.0.1", async () => {
    for (const path of ["/index.html", "/index.md", "/llms.txt", "/missing.html"]) {
      const policy = (await get([`Host: 127.0.0.1:${port}`], path))?.headers.get("content-security-policy");
      expect(policy, path).toContain("default-src 'none'");
      expect(policy, path).toContain("connect-src 'self' http://127.0.0.1:*");
      expect(policy, path).not.toContain("'unsafe-eval'");
    }
  });

  it("lets no page frame any of its answers, pages, files, not-found and refusals alike", async () => {
    const answers = {
      page: await get([`Host: 127.0.0.1:${port}`]),
      markdown: await get([`Host: 127.0.0.1:${port}`], "/index.md"),
      "not found": await get([`Host: 127.0.0.1:${port}`], "/missing.html"),
      "refused origin": await get([`Host: 127.0.0.1:${port}`, "Origin: https://evil.example"]),
      "refused host": await get(["Host: evil.example"]),
    };
    for (const [what, answer] of Object.entries(answers)) {
      expect(answer?.headers.get("content-security-policy"), what).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
      expect(answer?.headers.get("x-frame-options"), what).toBe("DENY");
      expect(answer?.headers.get("x-content-type-options"), what).toBe("nosniff");
    }
  });

  it("sends the Markdown copies and llms.txt as text: Markdown to programs, plain text to a browser", async () => {
    const markdown = await get([`Host: 127.0.0.1:${port}`], "/index.md");
    expect(markdown?.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const inBrowser = await get([`Host: 127.0.0.1:${port}`, BROWSER_ACCEPT], "/index.md");
    expect(inBrowser?.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(inBrowser?.body.toString()).toContain("# Docs");
    for (const accept of [[], [BROWSER_ACCEPT]]) {
      const llms = await get([`Host: 127.0.0.1:${port}`, ...accept], "/llms.txt");
      expect(llms?.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    }
  });

  it("refuses a Host that does not name it (DNS rebinding)", async () => {
    for (const host of ["evil.example", `evil.example:${port}`, "127.0.0.1:1"]) {
      const answer = await get([`Host: ${host}`]);
      expect(answer?.status, host).toBe(403);
      expect(answer?.body.toString()).toContain("Host: must name this server");
    }
  });

  it("refuses pages of other sites and Origin null", async () => {
    for (const origin of ["null", "https://evil.example", "http://127.0.0.1:8080"]) {
      const answer = await get([`Host: 127.0.0.1:${port}`, `Origin: ${origin}`]);
      expect(answer?.status, origin).toBe(403);
      expect(answer?.body.toString()).not.toContain("docs");
    }
  });
});

describe("the servers' onRefusal", () => {
  it("hears of every refused request, with the refusal the client gets", async () => {
    const heard: Array<{ origin: string | undefined; code: string; message: string }> = [];
    const server = await listenOnLoopback({
      port: 0,
      policy: { allowedOrigins: [], cors: true },
      handle: (_request, response) => response.end("ok"),
      refuse: (_request, response, refusal) => response.writeHead(refusal.status).end(refusal.message),
      onRefusal: (request, refusal) =>
        heard.push({ origin: request.headers.origin, code: refusal.code, message: refusal.message }),
    });
    try {
      expect((await fetch(server.url)).status).toBe(200);
      expect((await fetch(server.url, { headers: { origin: "http://127.0.0.1:9000" } })).status).toBe(403);
      expect(heard).toEqual([
        {
          origin: "http://127.0.0.1:9000",
          code: "origin_not_allowed",
          message: expect.stringContaining("allow it with --allow-origin http://127.0.0.1:9000"),
        },
      ]);
    } finally {
      await server.close();
    }
  });
});
