/**
 * `npm run workflows`' own behaviour, without running Respect: its help, a workflow name it does not
 * know (exit 2), a target that does not answer (one line, exit 1), each workflow's respect command
 * line, and Redocly's Node end-of-life box taken out of what it prints (the runs themselves:
 * tests/workflows/respect.e2e.ts).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { freePort } from "../../http-server/listen.ts";
import { respectArgs, WORKFLOW_RUNS, withoutEndOfLifeBox, workflowFile } from "../../scripts/workflow-runs.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const run = (args: string[]) =>
  promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/workflows.ts", ...args], { cwd: ROOT }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

const BOX = `
    ╔═════════════════════════════════════════════════════════════════╗
    ║                                                                 ║
    ║  Deprecation warning: Node.js 20 support is ending              ║
    ║  Node.js 20 reached end-of-life on April 30, 2026.              ║
    ╚═════════════════════════════════════════════════════════════════╝

`;

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

  it("runs each workflow with its inputs, the target as mediaService, and its own options", () => {
    const quote = WORKFLOW_RUNS.find((one) => one.name === "quote-then-create")!;
    expect(respectArgs(quote, "http://127.0.0.1:4020", ["apiKey=k", "model=i-a"])).toEqual([
      "respect",
      workflowFile("quote-then-create"),
      "--input",
      "apiKey=k",
      "--input",
      "model=i-a",
      "--server",
      "mediaService=http://127.0.0.1:4020",
      "--severity",
      '{"SCHEMA_CHECK":"warn"}',
    ]);
    expect(WORKFLOW_RUNS.filter((one) => one.options.length > 0).map((one) => one.name)).toEqual(["quote-then-create"]);
  });

  it("leaves Redocly's Node end-of-life box out, and every other box in", () => {
    expect(withoutEndOfLifeBox(`${BOX}Running workflow\n`)).toBe("\nRunning workflow\n");
    const other = "╔══╗\n║ a table ║\n╚══╝\n";
    expect(withoutEndOfLifeBox(other)).toBe(other);
  });
});
