import { spawn } from "node:child_process";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Contract } from "../../conformance/contract.ts";
import { freePort } from "../../conformance/prism.ts";
import { API_KEY, startFakeService } from "./support/fake-service.ts";

const contract = new Contract();
const work = mkdtempSync(join(tmpdir(), "conformance-cli-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs `tsx <script>` and collects its output and exit code. */
async function tsx(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", script], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout };
}

describe("npm run conformance (conformance/cli.ts) against CONFORMANCE_TARGET", () => {
  const declaration = join(work, "target.json");
  writeFileSync(declaration, JSON.stringify({ areas: ["images"], models: ["I-A"], poll: { intervalMs: 0, maxPolls: 10, stablePolls: 2 } }));

  for (const [fault, expected] of [[undefined, 0], ["accepts-unauthenticated", 1]] as const) {
    it(`exits ${expected} ${fault ? `for the fault ${fault}, printing the route, the rule and a curl command` : "for a correct target"}, and writes JSON and JUnit reports`, { timeout: 60_000 }, async () => {
      const service = await startFakeService(contract, fault);
      const reports = join(work, fault ?? "correct");
      try {
        const { code, stdout } = await tsx("conformance/cli.ts", {
          CONFORMANCE_TARGET: service.baseUrl,
          CONFORMANCE_API_KEY: API_KEY,
          CONFORMANCE_CONFIG: declaration,
          CONFORMANCE_PROXY: "off",
          CONFORMANCE_REPORT_DIR: reports,
        });
        expect(code, stdout).toBe(expected);
        const report = JSON.parse(readFileSync(join(reports, "conformance.json"), "utf8")) as { summary: { fail: number } };
        const junit = readFileSync(join(reports, "conformance.junit.xml"), "utf8");
        expect(report.summary.fail > 0).toBe(expected === 1);
        expect(junit.includes("<failure")).toBe(expected === 1);
        if (fault) {
          expect(stdout).toMatch(/FAIL \[auth\] POST \/v1\/images\/i-a: 401 for no Authorization header/);
          expect(stdout).toMatch(/rule broken: answered 200, not 401/);
          expect(stdout).toMatch(/reproduce: +curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/v1\/images\/i-a'/);
        }
      } finally {
        await service.stop();
      }
    });
  }
});

/** Pids of the Prism processes whose parent is `parent` (read from /proc). */
function prismChildren(parent: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return ppid === parent && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("prism-cli");
      } catch {
        return false; // the process ended while being read
      }
    })
    .map(Number);
}

/** Starts the mock in one process (tsx as a loader, no tsx supervisor) and resolves once it listens. */
async function startMockProcess(port: number): Promise<ReturnType<typeof spawn>> {
  const child = spawn(process.execPath, ["--import", "tsx", "conformance/mock-cli.ts", "--port", String(port)], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`listening on http://127.0.0.1:${port}`)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`mock exited (${code}): ${output}`)));
  });
  return child;
}

describe("npm run mock (conformance/mock-cli.ts)", () => {
  it("leaves no Prism running when its process is killed outright (SIGKILL, no cleanup code runs)", { timeout: 60_000 }, async () => {
    const child = await startMockProcess(await freePort());
    const [prism] = prismChildren(child.pid as number);
    expect(prism, "a Prism child runs").toBeTypeOf("number");
    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;
    // The child notices its parent is gone (stdin ends) and exits; the test's timeout bounds the wait.
    while (existsSync(`/proc/${prism}`) && !readFileSync(`/proc/${prism}/stat`, "utf8").includes(") Z ")) await sleep(50);
    expect(existsSync(`/proc/${prism}/cmdline`) && readFileSync(`/proc/${prism}/cmdline`, "utf8").includes("prism-cli")).toBe(false);
  });


  it("serves the description on 127.0.0.1 at the --port given", { timeout: 60_000 }, async () => {
    const port = await freePort();
    const child = await startMockProcess(port);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/v1/account/credits`, { headers: { authorization: "Bearer k", prefer: "code=403" } });
      expect(response.status).toBe(403);
    } finally {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    }
  });
});
