/**
 * `npm run conformance`'s quick checks: --help as npm runs the command (the target's address and the
 * start-up probe are probe.test.ts). Its runs, time limit, signals and the mock's Prism child are in cli.e2e.ts (npm run test:e2e).
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { DECLARATION_FIELDS } from "../../conformance/config.ts";

describe("npm run conformance (conformance/cli.ts)", () => {
  it("--help lists every declaration field and check group", { timeout: 60_000 }, () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "conformance/cli.ts", "--help"], { encoding: "utf8" });
    expect(run.status).toBe(0);
    for (const field of DECLARATION_FIELDS) expect(run.stdout + run.stderr).toContain(`  ${field.field.padEnd(20)} `);
    expect(run.stdout + run.stderr).toContain("  uploads-window ");
  });
});
