/**
 * The fault injection of the mutation tests is test code: the tools package users install (built by
 * esbuild from packages/tools/cli.ts) carries none of it. Built here from the committed bundle into a
 * temporary folder, its one JavaScript file is searched for every fault's name and the hook that makes them.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildToolsPackage } from "../../packages/tools/build.ts";
import { TEST_RELEASE } from "../support/packages.ts";
import { FAULTS } from "./faults/registry.ts";

describe("the tools package", () => {
  it("ships no fault injection: no fault's name or bug, nor the hook that makes them, is in its bundle", {
    timeout: 60_000,
  }, async () => {
    const work = mkdtempSync(join(tmpdir(), "tools-faults-"));
    try {
      const built = await buildToolsPackage("generated", join(work, "package"), TEST_RELEASE);
      const dist = join(built.dir, "dist");
      const code = readFileSync(join(dist, readdirJs(dist)), "utf8");
      // The sandbox's code is in the bundle: the search would find nothing in an empty file.
      expect(code).toContain("startSandbox");
      const found = [
        ...Object.entries(FAULTS).flatMap(([name, fault]) => [name, fault.bug]),
        "hooksFor",
        "UnknownFaultError",
      ].filter((text) => code.includes(text));
      expect(found).toEqual([]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

function readdirJs(dir: string): string {
  const file = readdirSync(dir).find((name) => name.endsWith(".js"));
  if (!file) throw new Error(`no .js file in ${dir}`);
  return file;
}
