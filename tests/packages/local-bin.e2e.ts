/**
 * The README's npx lines work in a clone as in a project that installed the tools package, and
 * never ask the registry for a name: the package's scoped name is linked to the sources here (a
 * file: dev dependency of the project, packages/tools/local/), so `npx @media-service/tools` and
 * `npx media-service` find it locally; run with a registry that answers nothing, they still work.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { TOOLS_PACKAGE } from "../../packages/shared/package-build.ts";
import { BIN, NPX } from "../../packages/tools/commands.ts";
import { PROJECT } from "../support/packages.ts";

const run = promisify(execFile);
/** A registry nobody listens on: any request to it fails at once. */
const NO_REGISTRY = { npm_config_registry: "http://127.0.0.1:9/", npm_config_fetch_retries: "0" };

describe("npx in the clone", () => {
  it("is linked by the project's manifest and lock to the sources, under the package's scoped name", () => {
    const manifest = JSON.parse(readFileSync(join(PROJECT, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    expect(manifest.devDependencies[TOOLS_PACKAGE]).toBe("file:packages/tools/local");
    const local = JSON.parse(readFileSync(join(PROJECT, "packages/tools/local/package.json"), "utf8")) as {
      name: string;
      private: boolean;
      bin: Record<string, string>;
    };
    expect([local.name, local.private, Object.keys(local.bin)]).toEqual([TOOLS_PACKAGE, true, [BIN]]);
    expect(existsSync(join(PROJECT, "node_modules", ".bin", BIN)), "npm ci linked the bin").toBe(true);
  });

  // The scoped name; the bin's own name finds the same link (node_modules/.bin/media-service).
  it.each([[TOOLS_PACKAGE]])(
    "npx %s --help runs the sources' bin, asking no registry",
    async (name) => {
      const { stdout } = await run("npx", [name, "--help"], { cwd: PROJECT, env: { ...process.env, ...NO_REGISTRY } });
      expect(stdout).toMatch(new RegExp(`^usage: ${NPX} <command> \\[options\\]`));
    },
    60_000,
  );
});
