/**
 * CI's steps (.ci/steps.sh, sourced by .ci/run): lanes side by side fail the run when one of them
 * fails, whichever ends first, and a lane stops at its first failing step.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** `lanes` run on three functions as .ci/run runs its own: set -euo pipefail, each lane a list of steps. */
const lanes = (script: string) =>
  promisify(execFile)("bash", ["-c", `set -euo pipefail; source .ci/steps.sh; ${script}; echo "lanes passed"`], {
    cwd: ROOT,
  }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => error,
  );

describe("CI's lanes", () => {
  it("fail when a lane fails while another, started before it, still runs, and a third ends between", async () => {
    // The order CI's run had when a failed lane passed: the first lane longest, the failing one
    // done first, another done while the first still runs.
    const { code, stdout } = await lanes(
      "long() { step sleep 1; }; bad() { step echo before; step false; step echo after; }; mid() { step sleep 0.3; }; step lanes long bad mid",
    );
    expect(code).not.toBe(0);
    expect(stdout).toContain("bad| before");
    expect(stdout).not.toContain("bad| after");
    expect(stdout).toContain("long| ci: 'sleep 1'");
    expect(stdout).not.toContain("lanes passed");
  });

  it("pass when every lane passes, each line prefixed with its lane", async () => {
    const { code, stdout } = await lanes("one() { step echo a; }; two() { step echo b; }; step lanes one two");
    expect(code).toBe(0);
    expect(stdout).toContain("one| a");
    expect(stdout).toContain("two| b");
    expect(stdout).toMatch(/^ci: 'lanes one two' took/m);
    expect(stdout).toContain("lanes passed");
  });
});
