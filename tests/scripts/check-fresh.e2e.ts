/**
 * `npm run check:fresh` (scripts/check-generated-fresh.sh): it runs `npm run build` and passes when
 * the committed generated files (generated/, docs/) are what the build makes, else fails naming each
 * file that differs. It runs here on a temporary git repository holding the script and a stand-in
 * build that writes fixed files, so the real tree is never touched and no real build is paid for.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../../scripts/check-generated-fresh.sh", import.meta.url));
const run = promisify(execFile);

/** What the stand-in build writes, as the real one writes generated/ and docs/pricing.md. */
const BUILT: Record<string, string> = {
  "generated/costs.ts": "export const rate = 20;\n",
  "docs/pricing.md": "# Prices\n\n20 credits per second.\n",
};
const BUILD = `const { mkdirSync, writeFileSync } = require("node:fs");
for (const [file, text] of Object.entries(${JSON.stringify(BUILT)})) { mkdirSync(require("node:path").dirname(file), { recursive: true }); writeFileSync(file, text); }`;

let repo: string;
const git = (...args: string[]) =>
  run("git", ["-c", "user.name=test", "-c", "user.email=test@example.invalid", ...args], { cwd: repo });

/** Commits `files` (path to text) over the stand-in project. */
async function commit(files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(repo, file, ".."), { recursive: true });
    writeFileSync(join(repo, file), text);
  }
  await git("add", "-A");
  await git("commit", "-q", "-m", "files");
}

/** Runs the script in the stand-in project: its exit status and output. */
async function checkFresh(): Promise<{ code: number; stdout: string; stderr: string }> {
  return run("bash", ["scripts/check-generated-fresh.sh"], { cwd: repo }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

beforeEach(async () => {
  repo = mkdtempSync(join(tmpdir(), "check-fresh-"));
  cpSync(SCRIPT, join(repo, "scripts", "check-generated-fresh.sh"));
  await git("init", "-q");
  await commit({
    "package.json": JSON.stringify({ private: true, scripts: { build: "node build.cjs" } }),
    "build.cjs": BUILD,
  });
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe("npm run check:fresh", () => {
  it("passes when the committed files are what the build makes", async () => {
    await commit(BUILT);
    const result = await checkFresh();
    expect(result).toMatchObject({ code: 0, stdout: "generated files are fresh\n" });
  });

  it("fails naming each generated file that differs from the build's or was never committed", async () => {
    await commit({ "generated/costs.ts": "export const rate = 19;\n" });
    const result = await checkFresh();
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain("fresh");
    expect(result.stderr).toContain("Generated files are stale: run 'npm run build' and commit the result.");
    expect(result.stderr).toContain(" M generated/costs.ts");
    expect(result.stderr).toContain("?? docs/");
  });

  it("fails when the build fails", async () => {
    await commit({ ...BUILT, "build.cjs": "process.exit(4);" });
    const result = await checkFresh();
    expect(result.code).not.toBe(0);
    expect(result.stdout).not.toContain("fresh");
  });
});
