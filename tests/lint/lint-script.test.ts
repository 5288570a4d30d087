import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { applyPatch, GOLDEN_FILE, golden } from "./support.ts";

const dir = mkdtempSync(join(tmpdir(), "lint-script-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lintScript(file: string): { status: number | null; stdout: string } {
  const run = spawnSync("node_modules/.bin/tsx", ["scripts/lint.ts", file], { encoding: "utf8" });
  return { status: run.status, stdout: run.stdout };
}

describe("scripts/lint.ts (npm run lint)", () => {
  it("exits 0 on a clean document", () => {
    const { status, stdout } = lintScript(GOLDEN_FILE);
    expect(stdout).toContain("lint: 0 Spectral results, 0 Redocly problems");
    expect(status).toBe(0);
  });

  it("prints each finding and exits non-zero on a warning alone", () => {
    const file = join(dir, "warning.yaml");
    writeFileSync(file, stringify(applyPatch(golden(), [{ op: "remove", path: "/paths/~1v1~1images~1{id}/get/description" }])));
    const { status, stdout } = lintScript(file);
    expect(stdout).toMatch(/warn spectral operation-description Operation "description" must be present and non-empty string\. \[paths\.\/v1\/images\/\{id\}\.get\]/);
    expect(stdout).not.toMatch(/ error /);
    expect(status).toBe(1);
  });

  it("exits non-zero when the file is missing", () => {
    expect(lintScript(join(dir, "absent.yaml")).status).toBe(1);
  });
});
