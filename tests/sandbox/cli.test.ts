/**
 * `npm run sandbox`'s quick check: a bad config ends it with one line naming the field and the rule,
 * before it listens. Its --help, a busy port and stopping on signals are in cli.e2e.ts (npm run test:e2e).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ownLines, runCli } from "./cli-process.ts";

describe("npm run sandbox", () => {
  it("refuses a bad config before listening, with one line naming the field and the rule", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-config-"));
    const file = join(dir, "bad.json");
    writeFileSync(
      file,
      JSON.stringify({ accounts: { a: { keys: ["k"], plan: "gold", credits: { monthlyLimit: 1, extra: 0 } } } }),
    );
    const ended = await runCli(["--config", file, "--port", "0"]).finally(() =>
      rmSync(dir, { recursive: true, force: true }),
    );
    expect(ended.code).toBe(2);
    expect(ended.stdout).not.toContain("listening");
    expect(ownLines(ended.stderr)).toEqual([
      `sandbox: bad config ${file}: config.accounts.a.plan: must be one of free, paid`,
    ]);
  });
});
