/**
 * `npm run sandbox` as a person runs it: --help, an unknown option, a bad config or a busy port ends
 * it with one line before it listens, and SIGINT or SIGTERM sent to npm stops the sandbox and frees
 * its port. The config's rules themselves are tests/sandbox/config.test.ts (npm test).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../../http-server/listen.ts";
import { output } from "../support/processes.ts";
import { ownLines, ROOT, runCli } from "./cli-process.ts";

describe("npm run sandbox", () => {
  it("--help names its options; an unknown option is one line and exit status 2", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run sandbox -- \[--port N\] \[--config FILE\] \[--allow-origin ORIGIN\]/);
    const unknown = await runCli(["--prot", "4020"]);
    expect(unknown.code).toBe(2);
    const lines = ownLines(unknown.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe("sandbox: Unknown option '--prot' (--help shows the options)");
  });

  it("refuses a bad config before listening, with one line naming the field and the rule", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-config-"));
    const file = join(dir, "bad.json");
    writeFileSync(
      file,
      JSON.stringify({ accounts: { a: { keys: ["k"], plan: "gold", credits: { monthlyLimit: 1, extra: 0 } } } }),
    );
    const ended = await runCli(["--config", file, "--port", "0"]).finally(() =>
      rmSync(dir, { recursive: true, force: true }),
    );
    expect(ended.code).toBe(2);
    expect(ended.stdout).not.toContain("listening");
    expect(ownLines(ended.stderr)).toEqual([
      `sandbox: bad config ${file}: config.accounts.a.plan: must be one of free, paid`,
    ]);
  });

  it("says in one line that the port is in use", async () => {
    const blocker = createServer().listen(0, "127.0.0.1");
    await once(blocker, "listening");
    const port = (blocker.address() as { port: number }).port;
    try {
      const ended = await runCli(["--port", String(port)]);
      expect(ended.code).toBe(1);
      expect(ownLines(ended.stderr)).toEqual([
        `sandbox: port ${port} on 127.0.0.1 is in use; choose another with --port N or SANDBOX_PORT=N (0 picks a free one)`,
      ]);
    } finally {
      blocker.close();
    }
  });

  it.each(["SIGINT", "SIGTERM"] as const)(
    "stops cleanly on %s sent to npm, freeing the port",
    { timeout: 60_000 },
    async (signal) => {
      const port = await freePort();
      const npm = spawn("npm", ["run", "sandbox", "--", "--port", String(port)], {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const text = output(npm);
      await new Promise<void>((resolve, reject) => {
        npm.stdout?.on("data", () => text.stdout().includes("listening on") && resolve());
        npm.once("exit", () => reject(new Error(`npm exited before listening: ${text.stderr()}`)));
      });
      const credits = await fetch(`http://127.0.0.1:${port}/v1/account/credits`, {
        headers: { authorization: "Bearer sandbox-demo-key" },
      });
      expect(credits.status).toBe(200);
      npm.kill(signal);
      await once(npm, "exit");
      // The sandbox process may outlive npm by a moment: wait for its own last line.
      for (let wait = 0; wait < 50 && !text.stdout().includes("sandbox stopped"); wait += 1)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(text.stdout()).toContain(`sandbox stopped (${signal})`);
      const probe = createServer().listen(port, "127.0.0.1");
      await once(probe, "listening");
      probe.close();
    },
  );
});
