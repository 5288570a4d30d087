import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { DECLARATION_FIELDS } from "../../conformance/config.ts";
import { Contract } from "../../contract/contract.ts";
import { freePort } from "../../http-server/listen.ts";
import { descendants, readyWhen, running, until as waitFor } from "../support/processes.ts";
import { API_KEY, CREATE_PATH, startFakeService, type Fault } from "./support/fake-service.ts";

const contract = new Contract();
const work = mkdtempSync(join(tmpdir(), "conformance-cli-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Starts `node --import tsx <script>` (one process, as npm runs it) and collects its output. */
function start(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, output: () => output, exited };
}

/** Children this file started: any still running after a test (one that failed midway) is killed. */
const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  children.clear();
});

/** Waits for `condition`, failing the test with `what` after the shared deadline. */
async function until(condition: () => boolean, what: string): Promise<void> {
  await waitFor(() => (condition() ? true : undefined), what);
}

/** The declaration for the fake service: only I-A, no concurrency cap, fast polling. */
function declaration(name: string, extra: Record<string, unknown> = {}): string {
  const file = join(work, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      areas: ["images"],
      models: ["I-A"],
      skipGroups: ["concurrency"],
      poll: { intervalMs: 0, timeoutSeconds: 10, stablePolls: 2 },
      ...extra,
    }),
  );
  return file;
}

const report = (dir: string) =>
  JSON.parse(readFileSync(join(dir, "conformance.json"), "utf8")) as {
    summary: { fail: number; stopped?: string };
    results: Array<{ name: string; outcome: string }>;
  };

describe("npm run conformance (conformance/cli.ts) --help", () => {
  it("lists every declaration field and check group", async () => {
    const run = start("conformance/cli.ts", ["--help"]);
    expect(await run.exited).toBe(0);
    for (const field of DECLARATION_FIELDS) expect(run.output()).toContain(`  ${field.field.padEnd(20)} `);
    expect(run.output()).toContain("  uploads-window ");
  });
});

describe("npm run conformance (conformance/cli.ts) against CONFORMANCE_TARGET", () => {
  for (const [fault, expected] of [
    [undefined, 0],
    ["accepts-unauthenticated", 1],
  ] as const) {
    it(`exits ${expected} ${fault ? `for the fault ${fault}, printing the route, the rule and a curl command` : "for a correct target"}, with progress lines, and writes JSON and JUnit reports`, {
      timeout: 60_000,
    }, async () => {
      const service = await startFakeService(contract, fault);
      const reports = join(work, fault ?? "correct");
      try {
        const run = start("conformance/cli.ts", ["--config", declaration("plain"), "--report-dir", reports], {
          CONFORMANCE_TARGET: service.baseUrl,
          CONFORMANCE_API_KEY: API_KEY,
        });
        const code = await run.exited;
        const stdout = run.output();
        expect(code, stdout).toBe(expected);
        expect(stdout).toMatch(/^\[ *\d+\.\ds\] lifecycle: done/m);
        // I-A's example (12 credits) and what the sequence phase may spend with the main key (no otherAccount declared).
        expect(stdout).toMatch(/^ {2}main key: 2 priced requests, at most [\d,]+ credits$/m);
        expect(report(reports).summary.fail > 0).toBe(expected === 1);
        expect(readFileSync(join(reports, "conformance.junit.xml"), "utf8").includes("<failure")).toBe(expected === 1);
        if (fault) {
          expect(stdout).toContain(`FAIL [auth] POST ${CREATE_PATH}: 401 for no Authorization header`);
          expect(stdout).toMatch(/rule broken: answered 200, not 401/);
          expect(stdout).toMatch(
            new RegExp(`reproduce: +curl -sS -i -X POST 'http://127\\.0\\.0\\.1:\\d+${CREATE_PATH}'`),
          );
        }
      } finally {
        await service.stop();
      }
    });
  }

  // Jobs that never reach a terminal status keep the run going until it is stopped.
  const slow: Fault = "wrong-enum-value";

  it("stops at its time limit (--timeout), reports it as a failure and still writes both reports", {
    timeout: 60_000,
  }, async () => {
    const service = await startFakeService(contract, slow);
    const reports = join(work, "timeout");
    try {
      const run = start(
        "conformance/cli.ts",
        [
          "--config",
          declaration("slow", { poll: { intervalMs: 200, timeoutSeconds: 60, stablePolls: 1 } }),
          "--timeout",
          "2",
          "--report-dir",
          reports,
        ],
        { CONFORMANCE_TARGET: service.baseUrl, CONFORMANCE_API_KEY: API_KEY },
      );
      expect(await run.exited, run.output()).toBe(1);
      const written = report(reports);
      expect(written.summary.stopped).toMatch(/time limit of 2 s/);
      expect(
        written.results.some(
          (result) => result.name === "the run finishes within its time limit" && result.outcome === "fail",
        ),
      ).toBe(true);
      expect(written.results.some((result) => result.name === "check finished" && result.outcome === "skip")).toBe(
        true,
      );
      expect(existsSync(join(reports, "conformance.junit.xml"))).toBe(true);
    } finally {
      await service.stop();
    }
  });

  it("stops on SIGINT, writes both reports saying so, and exits 130", { timeout: 60_000 }, async () => {
    const service = await startFakeService(contract, slow);
    const reports = join(work, "interrupted");
    try {
      const run = start(
        "conformance/cli.ts",
        [
          "--config",
          declaration("slow", { poll: { intervalMs: 200, timeoutSeconds: 60, stablePolls: 1 } }),
          "--report-dir",
          reports,
        ],
        { CONFORMANCE_TARGET: service.baseUrl, CONFORMANCE_API_KEY: API_KEY },
      );
      await until(() => run.output().includes("auth: done"), "the auth checks to finish");
      run.child.kill("SIGINT");
      expect(await run.exited, run.output()).toBe(130);
      expect(report(reports).summary.stopped).toBe("interrupted by SIGINT");
      expect(existsSync(join(reports, "conformance.junit.xml"))).toBe(true);
    } finally {
      await service.stop();
    }
  });

  it("refuses to start when the run could spend more than --budget, naming the figure", {
    timeout: 60_000,
  }, async () => {
    const service = await startFakeService(contract);
    try {
      const run = start("conformance/cli.ts", ["--config", declaration("plain"), "--budget", "5"], {
        CONFORMANCE_TARGET: service.baseUrl,
        CONFORMANCE_API_KEY: API_KEY,
      });
      expect(await run.exited).toBe(2);
      expect(run.output()).toMatch(
        /conformance run failed: the run could spend up to [\d,]+ credits, past budgetCredits 5/,
      );
    } finally {
      await service.stop();
    }
  });

  it("a bad target, an unreachable one or a missing declaration file is one line naming the flag, before any estimate", {
    timeout: 60_000,
  }, async () => {
    const port = await freePort();
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [["--target", "notaurl"], {}, /^conformance run failed: --target: "notaurl" is not a URL/],
      [
        ["--target", `http://127.0.0.1:${port}`],
        {},
        new RegExp(
          `^conformance run failed: --target: no server answers at http://127.0.0.1:${port} \\(connection refused`,
        ),
      ],
      [
        ["--config", join(work, "missing.json")],
        {},
        /^conformance run failed: --config \S+missing.json: no such file$/,
      ],
      // The target's credentials are never printed.
      [
        ["--target", `http://admin:s3cret-pass@127.0.0.1:${port}`],
        {},
        new RegExp(
          `^conformance run failed: --target: no server answers at http://\\[redacted\\]@127.0.0.1:${port} \\(connection refused`,
        ),
      ],
      [
        ["--target", "http://admin:s3cret-pass@127.0.0.1:99999"],
        {},
        /^conformance run failed: --target: "http:\/\/\[redacted\]@127.0.0.1:99999" is not a URL/,
      ],
    ];
    const runs = cases.map(([args, env]) =>
      start("conformance/cli.ts", args, { CONFORMANCE_API_KEY: API_KEY, ...env }),
    );
    for (const [index, run] of runs.entries()) {
      expect(await run.exited).toBe(2);
      const lines = run
        .output()
        .split("\n")
        .filter((line) => line.trim() !== "" && !line.startsWith("npm warn"));
      expect(lines, run.output()).toHaveLength(1);
      expect(lines[0]).toMatch(cases[index]![2]);
    }
  });

  // Prism, when the run started one, also stops with the run: it exits with its parent (npm run mock's tests below).
  it("through npm: a SIGTERM to npm stops the run, and the reports are still written", {
    timeout: 60_000,
  }, async () => {
    const service = await startFakeService(contract, slow);
    const reports = join(work, "npm-interrupted");
    try {
      const config = declaration("slow", { poll: { intervalMs: 200, timeoutSeconds: 60, stablePolls: 1 } });
      const npm = spawn("npm", ["run", "-s", "conformance", "--", "--config", config, "--report-dir", reports], {
        env: { ...process.env, CONFORMANCE_TARGET: service.baseUrl, CONFORMANCE_API_KEY: API_KEY },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      npm.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      children.add(npm);
      await until(() => output.includes("auth: done"), "the auth checks to finish");
      const below = descendants(npm.pid as number);
      npm.kill("SIGTERM");
      await once(npm, "exit");
      for (const child of below) await until(() => !running(child.pid), `${child.command} to end`);
      expect(report(reports).summary.stopped).toBe("interrupted by SIGTERM");
    } finally {
      await service.stop();
    }
  });
});

describe("npm run mock (mock/cli.ts)", () => {
  it("leaves no Prism running when its process is killed outright (SIGKILL, no cleanup code runs)", {
    timeout: 60_000,
  }, async () => {
    const port = await freePort();
    const mock = start("mock/cli.ts", ["--port", String(port)]);
    await readyWhen(
      mock.child,
      () => mock.output().includes(`listening on http://127.0.0.1:${port}`),
      "the mock to listen",
    );
    const [prism] = descendants(mock.child.pid as number).filter((child) => child.command.includes("prism-cli"));
    expect(prism, "a Prism child runs").toBeDefined();
    mock.child.kill("SIGKILL");
    await mock.exited;
    // The child notices its parent is gone (stdin ends) and exits; the test's timeout bounds the wait.
    await until(() => !running(prism!.pid), "Prism to end");
  });

  it("through npm: serves the description on the --port given, and a SIGTERM to npm stops the mock and Prism", {
    timeout: 60_000,
  }, async () => {
    const port = await freePort();
    const npm = spawn("npm", ["run", "-s", "mock", "--", "--port", String(port)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    npm.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    children.add(npm);
    await readyWhen(npm, () => output.includes(`listening on http://127.0.0.1:${port}`), "the mock to listen");
    // One line naming the URL: Prism's own log (its private port, its routes) only with --verbose.
    expect(output.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("npm warn"))).toEqual([
      `mock of generated/openapi.yaml listening on http://127.0.0.1:${port} (npm run mock -- --list shows the Prefer choices, --verbose Prism's log)`,
    ]);
    const response = await fetch(`http://127.0.0.1:${port}/v1/account/credits`, {
      headers: { authorization: "Bearer k", prefer: "code=403" },
    });
    expect(response.status).toBe(403);
    const below = descendants(npm.pid as number);
    expect(below.some((child) => child.command.includes("prism-cli"))).toBe(true);
    npm.kill("SIGTERM");
    await once(npm, "exit");
    for (const child of below) await until(() => !running(child.pid), `${child.command} to end`);
  });

  it("says in one line which port is in use and how to choose another", { timeout: 60_000 }, async () => {
    const taken = createServer().listen(0, "127.0.0.1");
    await once(taken, "listening");
    const port = (taken.address() as { port: number }).port;
    try {
      const mock = start("mock/cli.ts", ["--port", String(port)]);
      expect(await mock.exited).toBe(1);
      expect(mock.output().trim().split("\n").at(-1)).toBe(
        `mock: port ${port} on 127.0.0.1 is in use; choose another with --port N (npm run mock -- --port N) or MOCK_PORT=N (0 picks a free one)`,
      );
    } finally {
      taken.close();
    }
  });

  it("--list prints every operation's Prefer choices", { timeout: 60_000 }, async () => {
    const mock = start("mock/cli.ts", ["--list"]);
    expect(await mock.exited).toBe(0);
    expect(mock.output()).toContain(`POST ${CREATE_PATH}\n`);
    expect(mock.output()).toContain("  Prefer: code=429, example=queue-full\n");
    expect(mock.output()).toContain("  Prefer: code=400, example=moderation-input-csam\n");
  });
});
