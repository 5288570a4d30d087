/**
 * Long-running commands stop with their children when npm alone gets SIGINT or SIGTERM, and a port
 * in use is one line naming the port and how to choose another (tools/process-lifecycle.ts, through
 * docs:serve).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allEnded, descendants, until } from "../support/processes.ts";

const project = new URL("../../", import.meta.url).pathname;
let site: string;

function npmServe(port: number): { child: ChildProcess; output: () => string } {
  const child = spawn("npm", ["run", "-s", "docs:serve", "--", "--port", String(port), "--dir", site], {
    cwd: project,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (text += chunk.toString()));
  return { child, output: () => text };
}

const answers = (url: string): Promise<boolean> =>
  fetch(url).then(
    () => true,
    () => false,
  );

function listen(port = 0): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

describe("docs:serve through npm", () => {
  beforeAll(() => {
    site = mkdtempSync(join(tmpdir(), "site-"));
    writeFileSync(join(site, "index.html"), "<!doctype html><title>site</title>");
  });
  afterAll(() => rmSync(site, { recursive: true, force: true }));

  it.each(["SIGINT", "SIGTERM"] as const)(
    "stops serving, leaving no process behind, when the npm process alone gets %s",
    async (signal) => {
      const { child, output } = npmServe(0);
      const url = await until(() => /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output())?.[1], "the server's address");
      expect(await answers(url)).toBe(true);
      const below = descendants(child.pid!);
      expect(below.length).toBeGreaterThan(0);
      child.kill(signal);
      await until(async () => ((await answers(url)) ? undefined : true), "the port to close");
      await allEnded(below);
    },
  );

  it("names the port in use and how to change it, in one line", async () => {
    const taken = await listen();
    const port = (taken.address() as { port: number }).port;
    try {
      const { child, output } = npmServe(port);
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      expect(code).toBe(1);
      const lines = output()
        .split("\n")
        .filter((line) => line.trim() !== "" && !line.startsWith("npm warn"));
      expect(lines).toEqual([
        `docs:serve: port ${port} on 127.0.0.1 is in use; choose another with --port N or DOCS_PORT=N (0 picks a free one)`,
      ]);
    } finally {
      taken.close();
    }
  });
});
