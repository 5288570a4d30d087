/**
 * `npm run workflows` as a person runs it, without a target's runs: its help, a workflow name it
 * does not know (one line, exit 2), a target that does not answer (one line, exit 1, before running
 * any). The runs: tests/workflows/respect.e2e.ts.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { freePort } from "../../http-server/listen.ts";
import { WORKFLOW_RUNS } from "../../scripts/workflow-runs.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const run = (args: string[]) =>
  promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/workflows.ts", ...args], { cwd: ROOT }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

describe("npm run workflows", () => {
  it("prints its help and does nothing else", async () => {
    const { code, stdout } = await run(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: npm run workflows -- /);
    for (const { name } of WORKFLOW_RUNS) expect(stdout).toContain(name);
  });

  it("refuses a workflow it does not know, in one line, exit 2", async () => {
    const { code, stderr } = await run(["create-everything"]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `workflows: no workflow create-everything; the workflows are ${WORKFLOW_RUNS.map((one) => one.name).join(", ")}\n`,
    );
  });

  it("says in one line that nothing answers at the target, exit 1, before running any", async () => {
    const port = await freePort();
    const { code, stdout, stderr } = await run(["--server", `http://127.0.0.1:${port}`]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      `workflows: nothing answers at http://127.0.0.1:${port}: start the sandbox (npm run sandbox) or name the target with --server URL\n`,
    );
  });
});
