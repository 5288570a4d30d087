/**
 * The commands' one error style, `name: message`, and their exit codes: a missing file a command
 * is given is a usage error (exit 2) in one line; a bundle that fails is `bundle: ROOT:` and each
 * problem at its file and line (exit 1).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT } from "../support/packages.ts";

const dir = mkdtempSync(join(tmpdir(), "error-style-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (script: string, args: string[]) =>
  promisify(execFile)(process.execPath, ["--import", "tsx", script, ...args], { cwd: PROJECT }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

describe("the commands' errors", () => {
  it("bundle: a root file that does not exist is one line and exit 2", async () => {
    const missing = join(dir, "nope.yaml");
    const ended = await run("scripts/bundle.ts", [missing, join(dir, "out")]);
    expect(ended.code).toBe(2);
    expect(ended.stderr).toBe(`bundle: ${missing}: no such file (the description's root file to bundle)\n`);
  });

  it("bundle: a description that does not bundle is its root, then each problem at its file and line; exit 1", async () => {
    const root = join(dir, "root.yaml");
    writeFileSync(
      root,
      'openapi: 3.1.0\ninfo: {title: x, version: "1"}\npaths:\n  /x:\n    get:\n      responses:\n        "200": {$ref: "./missing.yaml"}\n',
    );
    const ended = await run("scripts/bundle.ts", [root, join(dir, "out")]);
    expect(ended.code).toBe(1);
    const [first, ...problems] = ended.stderr.trimEnd().split("\n");
    expect(first).toBe(`bundle: ${root}:`);
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^${root}:7:\\d+ Can't resolve \\$ref`))]);
  });
});
