/**
 * `npm run workflows`' parts, without running it: each workflow's respect command line, and
 * Redocly's Node end-of-life box taken out of what it prints (the command as a person runs it:
 * workflows.e2e.ts; the runs themselves: tests/workflows/respect.e2e.ts).
 */
import { describe, expect, it } from "vitest";
import { respectArgs, WORKFLOW_RUNS, withoutEndOfLifeBox, workflowFile } from "../../scripts/workflow-runs.ts";

const BOX = `
    ╔═════════════════════════════════════════════════════════════════╗
    ║                                                                 ║
    ║  Deprecation warning: Node.js 20 support is ending              ║
    ║  Node.js 20 reached end-of-life on April 30, 2026.              ║
    ╚═════════════════════════════════════════════════════════════════╝

`;

describe("npm run workflows", () => {
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
