/** The page reload of `npm run dev`'s loop (its rebuilds, on a copy of the project, are in dev-loop.e2e.ts: npm run test:e2e). */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RELOAD_STREAM, serveStatic } from "../../docs-src/static-server.ts";
import { HTTP_DEFAULTS } from "../../http-server/limits.ts";

let site: string;
beforeEach(() => {
  site = mkdtempSync(join(tmpdir(), "site-"));
  writeFileSync(join(site, "index.html"), "<html><body>page</body></html>");
  writeFileSync(join(site, "app.js"), "console.log('</body>')");
});
afterEach(() => rmSync(site, { recursive: true, force: true }));

/** The reload stream's text as it arrives, one read at a time, until it ends (`done`) or `until` holds. */
async function readStream(
  url: string,
  until: (text: string) => boolean = () => false,
  headers: Record<string, string> = {},
): Promise<{ text: string; done: boolean }> {
  const reader = (await fetch(`${url}__reload`, { headers })).body!.getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { text, done };
    text += new TextDecoder().decode(value);
    if (until(text)) {
      await reader.cancel();
      return { text, done };
    }
  }
}

describe("live reload", () => {
  it("tells an open page to reload, and injects the listener into HTML pages only", async () => {
    const server = await serveStatic(site, 0, { liveReload: true });
    try {
      expect(await (await fetch(server.url)).text()).toContain('new EventSource("/__reload")');
      expect(await (await fetch(`${server.url}app.js`)).text()).toBe("console.log('</body>')");
      const reader = (await fetch(`${server.url}__reload`)).body!.getReader();
      // The connection: the reconnect delay and the count of reloads so far as the event id.
      expect(new TextDecoder().decode((await reader.read()).value)).toBe(": connected\nretry: 1000\nid: 0\n\n");
      server.reload();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe("id: 1\ndata: reload\n\n");
      await reader.cancel();
    } finally {
      await server.close();
    }
  });

  it("keeps the server's timeouts: a page's stream gets a comment within the idle timeout, and ends after its maximum for the page to connect again", async () => {
    // Node closes a socket silent for the server's timeout (http-server/limits.ts), the idle one the shortest of its parts.
    expect(RELOAD_STREAM.heartbeatMs).toBeLessThan(HTTP_DEFAULTS.idleTimeoutSeconds * 1000);
    const server = await serveStatic(site, 0, { liveReload: true, reloadStream: { heartbeatMs: 20, maxMs: 300 } });
    try {
      // Ended by the server (on main it stayed open for good, with no socket timeout).
      const { text, done } = await readStream(server.url);
      expect(done).toBe(true);
      expect(text.startsWith(": connected\nretry: 1000\nid: 0\n\n:\n\n")).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("a page connecting again after a reload it missed is told at once; one that missed none is not", async () => {
    const server = await serveStatic(site, 0, { liveReload: true });
    try {
      server.reload();
      server.reload();
      const missed = await readStream(server.url, (text) => text.endsWith("\n\n"), { "Last-Event-ID": "1" });
      expect(missed.text).toBe(": connected\nretry: 1000\nid: 2\ndata: reload\n\n");
      const current = await readStream(server.url, (text) => text.endsWith("\n\n"), { "Last-Event-ID": "2" });
      expect(current.text).toBe(": connected\nretry: 1000\nid: 2\n\n");
    } finally {
      await server.close();
    }
  });
});
