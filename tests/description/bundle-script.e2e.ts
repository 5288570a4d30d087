/**
 * `npm run bundle` as a process on a broken copy of the description: it names the file and the
 * broken $ref, exits 1 and writes nothing. The bundle's work in-process is bundle.test.ts (npm test).
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { copyDescription } from "../support/description-copy.ts";

const run = promisify(execFile);
const project = new URL("../../", import.meta.url).pathname;

/** Runs the bundle script on a copy of the description; resolves with its exit code and output. */
async function bundleScript(root: string, out: string) {
  try {
    const { stdout, stderr } = await run("node_modules/.bin/tsx", ["scripts/bundle.ts", root, out], { cwd: project });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

describe("the bundle script", () => {
  const { work, root, out } = copyDescription();
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("names the file and the broken $ref, exits 1 and writes nothing (npm run bundle)", async () => {
    const file = join(work, "openapi", "paths", "v1_images_i-a.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("ImageJobAccepted.yaml", "NoSuchResponse.yaml"));
    const result = await bundleScript(root, out);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("v1_images_i-a.yaml");
    expect(result.stderr).toContain("NoSuchResponse.yaml");
    expect(result.stderr).toMatch(/Can't resolve \$ref/);
    expect(existsSync(join(out, "openapi.json"))).toBe(false);
  });
});
