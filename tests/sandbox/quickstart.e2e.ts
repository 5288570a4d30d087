/**
 * The README's quick start, run as written: the typed-client script and the curl script create an
 * image, wait for it, and see the quote charged. Both files appear verbatim in README.md.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { models } from "../../generated/models.ts";
import { freePort } from "../../http-server/listen.ts";
import { systemClock } from "../../sandbox/clock.ts";
import { checkedSandboxes, model } from "./support.ts";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const read = (file: string) => readFileSync(`${ROOT}/${file}`, "utf8");
/**
 * The quick start's request (both scripts send the same one): two I-A images at the default size,
 * 1K (specification: "size ... default `1K`"), at 12 credits per image ("Price per image by size:
 * ... 1K = 12"): 2 × 12.
 */
const price = 24;

/** The scripts' requests come from child processes: the sandbox itself checks each answer against the description. */
const sandbox = checkedSandboxes();

async function withSandbox(test: (url: string) => Promise<void>): Promise<void> {
  const { url } = await sandbox(
    {
      accounts: { demo: { keys: ["sandbox-demo-key"], plan: "paid", credits: { monthlyLimit: 1_000, extra: 0 } } },
      clock: { speed: 20 },
    },
    { clock: systemClock },
  );
  await test(url);
}

describe("the README's sandbox quick start", () => {
  it("shows both scripts verbatim", () => {
    const readme = read("README.md");
    expect(readme).toContain(read("sandbox/quickstart.ts"));
    expect(readme).toContain(read("sandbox/quickstart.sh"));
  });

  it("typed client: creates an image, waits, and sees the quote charged", { timeout: 60_000 }, async () => {
    await withSandbox(async (url) => {
      const { stdout } = await run(process.execPath, ["--import", "tsx", "sandbox/quickstart.ts"], {
        cwd: ROOT,
        env: { ...process.env, SANDBOX_URL: url },
      });
      expect(stdout).toContain(model.jobStatus.success);
      expect(stdout).toContain(`charged ${price} credits; the offline quote says ${price}`);
    });
  });

  it("typed client with no sandbox: one line saying so, and exit 1", { timeout: 60_000 }, async () => {
    const port = await freePort();
    const ended = await run(process.execPath, ["--import", "tsx", "sandbox/quickstart.ts"], {
      cwd: ROOT,
      env: { ...process.env, SANDBOX_URL: `http://127.0.0.1:${port}` },
    }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(ended.code).toBe(1);
    expect(ended.stderr.trimEnd().split("\n")).toEqual([
      `quickstart: GET /v1/account/credits: no usable response (TypeError: fetch failed (Error: connect ECONNREFUSED 127.0.0.1:${port})) (is the sandbox running at http://127.0.0.1:${port}? npm run sandbox)`,
    ]);
  });

  it("curl: the same", { timeout: 60_000 }, async () => {
    await withSandbox(async (url) => {
      const { stdout } = await run("bash", ["sandbox/quickstart.sh"], {
        cwd: ROOT,
        env: { ...process.env, SANDBOX_URL: url, MODEL_SLUG: models["I-A"].slug },
      });
      const lines = stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines[2]?.status).toBe(model.jobStatus.success);
      expect(Number(lines.at(-1)!.monthly_used) - Number(lines[0]!.monthly_used)).toBe(price);
    });
  });
});
