/**
 * The response check guards every sandbox test file, whichever ran before it in its worker: two
 * fixture files run one after the other in one worker that shares its modules (as `npm test` runs
 * them), with the check made to flag every response; both must fail, each on its own response.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "guards-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface FileResult {
  name: string;
  status: string;
  assertionResults: { status: string; failureMessages: string[] }[];
}

describe("per-file guards", () => {
  it("fail the second sandbox test file a worker runs, too, on an invalid response", { timeout: 60_000 }, async () => {
    const report = join(dir, "report.json");
    const log = join(dir, "workers.log");
    const run = promisify(execFile)(
      join(ROOT, "node_modules", ".bin", "vitest"),
      [
        "run",
        "--config",
        "tests/fixtures/per-file-guards/vitest.config.ts",
        "--reporter=json",
        `--outputFile=${report}`,
      ],
      { cwd: ROOT, env: { ...process.env, SANDBOX_TESTS_FLAG_EVERY_RESPONSE: "1", GUARD_FIXTURE_LOG: log } },
    );
    await expect(run).rejects.toMatchObject({ code: 1 });

    // Both files ran in one worker, one after the other.
    const workers = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split(" "));
    expect(workers.map(([file]) => file).sort()).toEqual(["credits", "models"]);
    expect(new Set(workers.map(([, worker]) => worker)).size).toBe(1);

    const files = (JSON.parse(readFileSync(report, "utf8")) as { testResults: FileResult[] }).testResults;
    expect(files.map((file) => file.name.split("/").at(-1)).sort()).toEqual([
      "credits.fixture.ts",
      "models.fixture.ts",
    ]);
    for (const file of files) {
      expect(file.status, file.name).toBe("failed");
      const [only] = file.assertionResults;
      expect(file.assertionResults).toHaveLength(1);
      expect(only!.status).toBe("failed");
      expect(only!.failureMessages.join("\n")).toContain("responses that do not match the description");
      expect(only!.failureMessages.join("\n")).toContain("flagged by SANDBOX_TESTS_FLAG_EVERY_RESPONSE");
    }
  });
});
