/**
 * The servers of this project find each other through small records (http-server/local-servers.ts):
 * the sandbox's address is read back while its process runs, never when the process is gone or the
 * address is not a port of 127.0.0.1 (the console would send a key there), and a server removes only
 * its own record. The docs server hands the record to the console at local-servers.json.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { serveStatic } from "../../docs-src/static-server.ts";
import { LOCAL_SERVERS_PATH } from "../../docs-src/site-pages.ts";
import { localServer, recordLocalServer } from "../../http-server/local-servers.ts";

const dir = mkdtempSync(join(tmpdir(), "local-servers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A process id no process has: beyond Linux's largest. */
const GONE = 4_194_305;

describe("the local servers' records", () => {
  it("give back the address a running process recorded, and nothing once it removed it", () => {
    const forget = recordLocalServer("sandbox", "http://127.0.0.1:5123", dir);
    expect(localServer("sandbox", dir)).toBe("http://127.0.0.1:5123");
    forget();
    expect(localServer("sandbox", dir)).toBeNull();
  });

  it("leave a newer server's record in place when an older one stops", () => {
    const forgetOld = recordLocalServer("sandbox", "http://127.0.0.1:5123", dir);
    const forgetNew = recordLocalServer("sandbox", "http://127.0.0.1:5124", dir);
    forgetOld();
    expect(localServer("sandbox", dir)).toBe("http://127.0.0.1:5124");
    forgetNew();
  });

  it("count as none when the process is gone, the address is not on 127.0.0.1, or the file is not a record", () => {
    const file = join(dir, "sandbox.json");
    for (const record of [
      { url: "http://127.0.0.1:5123", pid: GONE },
      { url: "http://evil.example:5123", pid: process.pid },
      { url: "http://127.0.0.1:5123/path", pid: process.pid },
      { url: "http://127.0.0.1:5123" },
    ]) {
      writeFileSync(file, JSON.stringify(record));
      expect(localServer("sandbox", dir), JSON.stringify(record)).toBeNull();
    }
    writeFileSync(file, "{ not json");
    expect(localServer("sandbox", dir)).toBeNull();
    rmSync(file);
    expect(localServer("sandbox", dir)).toBeNull();
  });

  it("give back the address of a process that runs under another user (signalling it is not permitted: EPERM)", () => {
    const forget = recordLocalServer("sandbox", "http://127.0.0.1:5125", dir);
    const kill = vi.spyOn(process, "kill").mockImplementation(() => {
      throw Object.assign(new Error("kill EPERM"), { code: "EPERM" });
    });
    try {
      expect(localServer("sandbox", dir)).toBe("http://127.0.0.1:5125");
      expect(kill).toHaveBeenCalledWith(process.pid, 0);
    } finally {
      kill.mockRestore();
      forget();
    }
  });
});

describe("removing a record", () => {
  it("is no error when the record vanished meanwhile (removed by another process while it was read)", () => {
    const forget = recordLocalServer("sandbox", "http://127.0.0.1:5126", dir);
    // The record is read, and then, before it is removed, gone: the process check removes it first.
    const kill = vi.spyOn(process, "kill").mockImplementation(() => {
      rmSync(join(dir, "sandbox.json"));
      return true;
    });
    try {
      expect(() => forget()).not.toThrow();
      expect(kill).toHaveBeenCalled();
    } finally {
      kill.mockRestore();
    }
    expect(localServer("sandbox", dir)).toBeNull();
  });
});

describe("the docs server's local-servers.json", () => {
  it("tells the console where the sandbox listens, or null, and nothing of other origins' pages", async () => {
    const site = mkdtempSync(join(tmpdir(), "local-servers-site-"));
    writeFileSync(join(site, "index.html"), "<p>docs</p>");
    let sandbox: string | null = null;
    const server = await serveStatic(site, 0, { localSandbox: () => sandbox });
    try {
      const ask = () => fetch(`${server.url}${LOCAL_SERVERS_PATH}`);
      expect(await (await ask()).json()).toEqual({ sandbox: null });
      sandbox = "http://127.0.0.1:5123";
      const answer = await ask();
      expect(answer.headers.get("content-type")).toContain("application/json");
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(await answer.json()).toEqual({ sandbox });
      const foreign = await fetch(`${server.url}${LOCAL_SERVERS_PATH}`, {
        headers: { origin: "https://evil.example" },
      });
      expect(foreign.status).toBe(403);
      const plain = await serveStatic(site, 0);
      try {
        expect(await (await fetch(`${plain.url}${LOCAL_SERVERS_PATH}`)).json()).toEqual({ sandbox: null });
      } finally {
        await plain.close();
      }
    } finally {
      await server.close();
      rmSync(site, { recursive: true, force: true });
    }
  });
});
