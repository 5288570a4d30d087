import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { applyPatch, GOLDEN_FILE, golden } from "./support.ts";

const dir = mkdtempSync(join(tmpdir(), "lint-script-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(script: string, ...args: string[]): { status: number | null; stdout: string } {
  const done = spawnSync("node_modules/.bin/tsx", [script, ...args], { encoding: "utf8" });
  return { status: done.status, stdout: done.stdout };
}

/** The number, from 1, of the first line of a file that starts with `text`. */
function lineOf(file: string, text: string): number {
  return readFileSync(file, "utf8").split("\n").findIndex((line) => line.startsWith(text)) + 1;
}

describe("scripts/lint.ts (npm run lint)", () => {
  it("exits 0 on a clean document", () => {
    const { status, stdout } = run("scripts/lint.ts", GOLDEN_FILE);
    expect(stdout).toContain("lint: 0 Spectral results, 0 Redocly problems");
    expect(status).toBe(0);
  });

  it("prints each finding at its line of the bundle and exits non-zero on a warning alone", () => {
    const file = join(dir, "warning.yaml");
    writeFileSync(file, stringify(applyPatch(golden(), [{ op: "remove", path: "/paths/~1v1~1images~1{id}/get/description" }])));
    const { status, stdout } = run("scripts/lint.ts", file);
    // Spectral places an object's finding just after its key: "    get:" ends at column 8.
    expect(stdout).toContain(`${file}:${lineOf(file, "    get:")}:9 warn operation-description Operation "description" must be present and non-empty string.`);
    expect(stdout).not.toMatch(/ error /);
    expect(status).toBe(1);
  });

  it("exits non-zero when the file is missing", () => {
    expect(run("scripts/lint.ts", join(dir, "absent.yaml")).status).toBe(1);
  });

  it("reports faults planted in a copy of openapi/ at their source file and line", () => {
    const copy = join(dir, "planted");
    cpSync("openapi", join(copy, "openapi"), { recursive: true });
    mkdirSync(join(copy, "generated"));
    const create = join(copy, "openapi", "paths", "v1_images_i-b.yaml");
    writeFileSync(create, readFileSync(create, "utf8").replace("operationId: createImageIB", "operationId: createImageIA"));
    const schema = join(copy, "openapi", "components", "schemas", "ImageJob.yaml");
    writeFileSync(schema, readFileSync(schema, "utf8").replace(/^ {4}description: The generated images\..*\n/m, ""));
    expect(run("scripts/bundle.ts", join(copy, "openapi", "openapi.yaml"), join(copy, "generated")).status).toBe(0);
    const { status, stdout } = run("scripts/lint.ts", join(copy, "generated", "openapi.yaml"), join(copy, "openapi", "openapi.yaml"));
    expect(stdout.split("\n").filter((line) => line.startsWith(copy))).toEqual([
      `${schema}:${lineOf(schema, "  images:")}:3 error house-descriptions Property "images" has no description: add a description saying what the field holds.`,
      `${create}:${lineOf(create, "post:")}:1 error redocly:operation-operationId-unique Every operation must have a unique \`operationId\`.`,
      `${create}:${lineOf(create, "  operationId:")}:3 error house-operation-conventions POST /v1/images/i-b: rename the operationId to createImageIB (create<Area><label> for x-model-label I-B).`,
      `${create}:${lineOf(create, "  operationId:")}:3 error operation-operationId-unique Every operation must have unique "operationId".`,
    ]);
    expect(status).toBe(1);
  });
});
