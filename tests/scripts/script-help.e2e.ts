/**
 * `npm run <script> -- --help` for every script of package.json, as a person types it: each exits
 * 0 having printed its usage, and nothing else happened: no file of the checkout changed (git's
 * view of it is the same before and after), nothing was built or started.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { PROJECT } from "../support/packages.ts";
import { SCRIPTS } from "./script-help.ts";

const run = promisify(execFile);
const status = async () =>
  (await run("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: PROJECT })).stdout;

describe("npm run <script> -- --help", () => {
  it("prints each script's usage and does nothing else", async () => {
    const before = await status();
    const problems: string[] = [];
    for (const name of Object.keys(SCRIPTS)) {
      const args = name === "test" ? ["test", "--", "--help"] : ["run", "-s", name, "--", "--help"];
      const result = await run("npm", args, { cwd: PROJECT, timeout: 120_000 }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code?: number; stdout?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? "" }),
      );
      if (result.code !== 0) problems.push(`${name}: exit ${result.code}`);
      else if (!/usage/i.test(result.stdout)) problems.push(`${name}: no usage in ${result.stdout.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
    expect(await status(), "files the --help runs changed").toBe(before);
  }, 1_200_000);
});
