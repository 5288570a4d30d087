import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { lintCommand } from "../../lint/lint-command.ts";
import { slugMapFile } from "../../model/slug-map.ts";
import { bundleDescription, staleBundle } from "../../tools/bundle-description.ts";
import { applyPatch, GOLDEN_FILE, golden } from "./support.ts";
import { withoutSlugMap } from "../support/placeholder-slugs.ts";

// The fixtures name placeholder slugs: a slug map the project builds with does not apply to them.
withoutSlugMap();

const dir = mkdtempSync(join(tmpdir(), "lint-script-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(script: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const done = spawnSync("node_modules/.bin/tsx", [script, ...args], { encoding: "utf8" });
  return { status: done.status, stdout: done.stdout, stderr: done.stderr };
}

/** The lint command in this process (lint/lint-command.ts, which scripts/lint.ts runs): its exit status and printed lines. */
async function lint(...args: string[]): Promise<{ status: number; stdout: string }> {
  const lines: string[] = [];
  const status = await lintCommand(
    args,
    { out: (line) => lines.push(line), err: (line) => lines.push(line) },
    { staleBundle: (bundle, root) => staleBundle(bundle, root, slugMapFile()) },
  );
  return { status, stdout: lines.join("\n") };
}

/** The number, from 1, of the first line of a file that starts with `text`. */
function lineOf(file: string, text: string): number {
  return (
    readFileSync(file, "utf8")
      .split("\n")
      .findIndex((line) => line.startsWith(text)) + 1
  );
}

describe("npm run lint (scripts/lint.ts, lint/lint-command.ts)", () => {
  it("exits 0 on a clean document", async () => {
    const { status, stdout } = await lint(GOLDEN_FILE);
    expect(stdout).toContain("lint: 0 Spectral results, 0 Redocly problems");
    expect(status).toBe(0);
  });

  it("prints each finding at its line of the bundle and exits non-zero on a warning alone", async () => {
    const file = join(dir, "warning.yaml");
    writeFileSync(
      file,
      stringify(applyPatch(golden(), [{ op: "remove", path: "/paths/~1v1~1images~1{id}/get/description" }])),
    );
    const { status, stdout } = await lint(file);
    // Spectral places an object's finding just after its key: "    get:" ends at column 8.
    expect(stdout).toContain(
      `${file}:${lineOf(file, "    get:")}:9 warn operation-description Operation "description" must be present and non-empty string.`,
    );
    expect(stdout).not.toMatch(/ error /);
    expect(status).toBe(1);
  });

  it("exits non-zero when the file is missing, naming it (the script itself, run as npm runs it)", () => {
    const { status, stderr } = run("scripts/lint.ts", join(dir, "absent.yaml"));
    expect(stderr).toBe(`lint: ${join(dir, "absent.yaml")} is missing.\n`);
    expect(status).toBe(2);
  });

  it("reports faults planted in a copy of openapi/ at their source file and line", async () => {
    const copy = join(dir, "planted");
    cpSync("openapi", join(copy, "openapi"), { recursive: true });
    mkdirSync(join(copy, "generated"));
    const create = join(copy, "openapi", "paths", "v1_images_i-b.yaml");
    writeFileSync(
      create,
      readFileSync(create, "utf8").replace("operationId: createImageIB", "operationId: createImageIA"),
    );
    const schema = join(copy, "openapi", "components", "schemas", "ImageJob.yaml");
    writeFileSync(schema, readFileSync(schema, "utf8").replace(/^ {4}description: The generated images\..*\n/m, ""));
    await bundleDescription(join(copy, "openapi", "openapi.yaml"), join(copy, "generated"), slugMapFile());
    const { status, stdout } = await lint(
      join(copy, "generated", "openapi.yaml"),
      join(copy, "openapi", "openapi.yaml"),
    );
    expect(stdout.split("\n").filter((line) => line.startsWith(copy))).toEqual([
      `${schema}:${lineOf(schema, "  images:")}:3 error house-descriptions Property "images" has no description: add a description saying what the field holds.`,
      `${create}:${lineOf(create, "post:")}:1 error redocly:operation-operationId-unique Every operation must have a unique \`operationId\`.`,
      `${create}:${lineOf(create, "  operationId:")}:3 error house-operation-conventions POST /v1/images/i-b: rename the operationId to createImageIB (create<Area><label> for x-model-label I-B).`,
      `${create}:${lineOf(create, "  operationId:")}:3 error operation-operationId-unique Every operation must have unique "operationId".`,
    ]);
    expect(status).toBe(1);
  });

  describe("refuses a bundle that is not the current bundle of its sources, in one line", () => {
    const copy = join(dir, "stale");
    const file = (): string => join(copy, "openapi", "paths", "v1_images_i-a.yaml");
    const args = (): string[] => [join(copy, "generated", "openapi.yaml"), join(copy, "openapi", "openapi.yaml")];
    let original: string;

    it("after a failed build (a broken $ref), naming the first problem's place", async () => {
      cpSync("openapi", join(copy, "openapi"), { recursive: true });
      mkdirSync(join(copy, "generated"));
      await bundleDescription(args()[1]!, join(copy, "generated"), slugMapFile());
      original = readFileSync(file(), "utf8");
      writeFileSync(file(), original.replace("ImageJobAccepted.yaml", "NoSuchResponse.yaml"));
      const { status, stdout } = await lint(...args());
      expect(status).toBe(1);
      expect(stdout.split("\n")).toHaveLength(1);
      expect(stdout).toMatch(
        /^lint: .*openapi\.yaml does not bundle, so .*generated\/openapi\.yaml is from an earlier build: .*v1_images_i-a\.yaml:\d+:\d+ .*NoSuchResponse/,
      );
    });

    it("after a source changed, naming it", async () => {
      writeFileSync(file(), original.replace("Create an image with I-A", "Create one image with I-A"));
      const { status, stdout } = await lint(...args());
      expect(status).toBe(1);
      expect(stdout).toMatch(
        /^lint: .*generated\/openapi\.yaml is not the bundle of .*openapi\.yaml \(.*v1_images_i-a\.yaml changed after it was made\): run npm run build first$/,
      );
    });
  });
});
