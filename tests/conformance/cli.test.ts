/**
 * `npm run conformance`'s quick checks: the target check in this process, and --help as npm runs the
 * command. Its runs, time limit, signals and the mock's Prism child are in cli.e2e.ts (npm run test:e2e).
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { DECLARATION_FIELDS } from "../../conformance/config.ts";
import { checkTarget } from "../../conformance/http.ts";
import { freePort } from "../../http-server/listen.ts";

describe("npm run conformance (conformance/cli.ts) against CONFORMANCE_TARGET", () => {
  it("names the variable or flag a bad target came from, and knows an http(s) URL", async () => {
    const port = await freePort();
    await expect(checkTarget("CONFORMANCE_TARGET", `http://127.0.0.1:${port}`)).rejects.toThrow(`CONFORMANCE_TARGET: no server answers at http://127.0.0.1:${port} (connection refused`);
    await expect(checkTarget("--target", "//x:99999")).rejects.toThrow(/^--target: "\/\/x:99999" is not a URL/);
    await expect(checkTarget("--target", "ftp://127.0.0.1")).rejects.toThrow(/^--target: "ftp:\/\/127.0.0.1" is not an http\(s\) URL with a host$/);
    await expect(checkTarget("--target", "http://127.0.0.1:99999")).rejects.toThrow(/^--target: "http:\/\/127.0.0.1:99999" is not a URL/);
  });

  it("--help lists every declaration field and check group", { timeout: 60_000 }, () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "conformance/cli.ts", "--help"], { encoding: "utf8" });
    expect(run.status).toBe(0);
    for (const field of DECLARATION_FIELDS) expect(run.stdout + run.stderr).toContain(`  ${field.field.padEnd(20)} `);
    expect(run.stdout + run.stderr).toContain("  uploads-window ");
  });
});
