/**
 * `--help` on every npm script prints its usage and does nothing else: each script is one command
 * (npm appends the arguments to the last of a chain, so the others would run), an entry of the
 * project's that reads its flags, or a tool whose own --help runs nothing. `script-help.e2e.ts` runs
 * every one with --help.
 */
import { describe, expect, it } from "vitest";
import { helpProblem, SCRIPTS } from "./script-help.ts";

describe("every npm script", () => {
  it("is one command that answers --help with its usage", () => {
    expect(Object.keys(SCRIPTS).length).toBeGreaterThan(25);
    expect(Object.entries(SCRIPTS).flatMap(([name, command]) => helpProblem(name, command) ?? [])).toEqual([]);
  });

  it("would be caught chaining commands or running an entry that reads no flags", () => {
    expect(helpProblem("x", "tsx changes/cli.ts --check && tsx release/cli.ts --check")).toMatch(/chains commands/);
    expect(helpProblem("x", "node tests/mutation/relative-report.mjs")).toMatch(/neither an entry/);
    expect(helpProblem("x", "tsx tests/mutation/hook-coverage.ts")).toMatch(/reads no --help/);
  });
});
