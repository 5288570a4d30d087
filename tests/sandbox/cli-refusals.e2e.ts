/**
 * `npm run sandbox` tells the person running it about a page it refuses: one line on stderr naming
 * the page's origin and the flag that lets it call (the docs' console names the same flag), once per
 * origin however often the page asks; it lists the pages it lets call at start; and, run in this
 * repository, it records its address for the docs server while it runs (http-server/local-servers.ts).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { localServer } from "../../http-server/local-servers.ts";
import { output, until } from "../support/processes.ts";
import { ROOT } from "./cli-process.ts";

describe("npm run sandbox and a page it refuses", () => {
  it("logs the page's origin and the flag that allows it, once; records its address while it runs", async () => {
    const records = mkdtempSync(join(tmpdir(), "sandbox-records-"));
    const child = spawn(process.execPath, ["--import", "tsx", "sandbox/cli.ts", "--port", "0"], {
      cwd: ROOT,
      env: { ...process.env, MEDIA_LOCAL_SERVERS_DIR: records },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const text = output(child);
    try {
      const url = await until(
        () => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text.stdout())?.[1],
        "the sandbox to listen",
        60_000,
      );
      // Each start-up line is its own write, and the record follows them: a pipe may hand the lines
      // over one at a time, before the record is on disk (CI saw the first line alone).
      const pagesLine = await until(
        () => /^pages allowed to call it: .*$/m.exec(text.stdout())?.[0],
        "the line of pages allowed",
      );
      expect(pagesLine).toBe(
        "pages allowed to call it: http://127.0.0.1:8080, http://localhost:8080 (others: --allow-origin ORIGIN)",
      );
      expect(await until(() => localServer("sandbox", records) ?? undefined, "the address recorded")).toBe(url);
      for (let i = 0; i < 3; i++) {
        const refused = await fetch(`${url}/v1/account/credits`, { headers: { origin: "http://127.0.0.1:9000" } });
        expect(refused.status).toBe(403);
      }
      await until(() => (text.stderr().includes("refused") ? true : undefined), "the refusal's line");
      const lines = text
        .stderr()
        .split("\n")
        .filter((line) => line.startsWith("sandbox: refused"));
      expect(lines).toEqual([
        'sandbox: refused GET /v1/account/credits from a page at "http://127.0.0.1:9000"; if you trust that page (the docs served elsewhere than the default address, say), restart the sandbox and allow it with --allow-origin http://127.0.0.1:9000 (later requests from it are refused without a line)',
      ]);
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
    expect(existsSync(join(records, "sandbox.json")), "the record removed when it stops").toBe(false);
    rmSync(records, { recursive: true, force: true });
  });
});
