/** The page reload of `npm run dev`'s loop (its rebuilds, on a copy of the project, are in dev-loop.e2e.ts: npm run test:e2e). */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serveStatic } from "../../docs-src/static-server.ts";

describe("live reload", () => {
  it("tells an open page to reload, and injects the listener into HTML pages only", async () => {
    const site = mkdtempSync(join(tmpdir(), "site-"));
    writeFileSync(join(site, "index.html"), "<html><body>page</body></html>");
    writeFileSync(join(site, "app.js"), "console.log('</body>')");
    const server = await serveStatic(site, 0, { liveReload: true });
    try {
      expect(await (await fetch(server.url)).text()).toContain('new EventSource("/__reload")');
      expect(await (await fetch(`${server.url}app.js`)).text()).toBe("console.log('</body>')");
      const events = await fetch(`${server.url}__reload`);
      const reader = events.body!.getReader();
      await reader.read(); // the connection comment
      server.reload();
      const { value } = await reader.read();
      expect(new TextDecoder().decode(value)).toBe("data: reload\n\n");
      await reader.cancel();
    } finally {
      await server.close();
      rmSync(site, { recursive: true, force: true });
    }
  });
});
