/**
 * Every command starts and ends the same way (tools/command.ts), run as processes: a bad flag, a
 * file a flag names that is missing, and a bad port value are one line and exit 2; a port in use
 * is one line naming the port and the flag or variable that chooses it, exit 1; --help exits 0.
 * Expected lines are written out as the commands' READMEs and --help state them.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { output } from "../support/processes.ts";
import { ROOT } from "../sandbox/cli-process.ts";

async function run(script: string, args: string[]): Promise<{ code: number | null; lines: string[]; stdout: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, SANDBOX_PORT: undefined, MOCK_PORT: undefined, DOCS_PORT: undefined },
  });
  const text = output(child);
  const [code] = (await once(child, "exit")) as [number | null];
  return {
    code,
    lines: text
      .stderr()
      .split("\n")
      .filter((line) => line.trim() !== ""),
    stdout: text.stdout(),
  };
}

let taken: Server;
let port: number;
// A project for `dev --root`: its port is checked before its description is read, so a file is enough.
let project: string;
beforeAll(async () => {
  taken = createServer().listen(0, "127.0.0.1");
  await once(taken, "listening");
  port = (taken.address() as { port: number }).port;
  project = mkdtempSync(join(tmpdir(), "command-dev-"));
  mkdirSync(join(project, "openapi"));
  writeFileSync(join(project, "openapi", "openapi.yaml"), "");
});
afterAll(() => {
  taken?.close();
  rmSync(project, { recursive: true, force: true });
});

const COMMANDS = [
  { name: "sandbox", script: "sandbox/cli.ts", portHow: "--port N or SANDBOX_PORT=N" },
  { name: "mock", script: "mock/cli.ts", portHow: "--port N (npm run mock -- --port N) or MOCK_PORT=N" },
  { name: "docs:serve", script: "docs-src/serve.ts", portHow: "--port N or DOCS_PORT=N" },
  { name: "dev", script: "scripts/dev.ts", portHow: "--port N or DOCS_PORT=N" },
] as const;

describe.each(COMMANDS)("$name", { timeout: 60_000 }, ({ name, script, portHow }) => {
  it("a bad flag is one line and exit 2", async () => {
    const ended = await run(script, ["--bogus"]);
    expect(ended.code).toBe(2);
    expect(ended.lines).toEqual([`${name}: Unknown option '--bogus' (--help shows the options)`]);
  });

  it("a port that is no number is one line naming the flag, exit 2", async () => {
    const ended = await run(script, ["--port", "70000"]);
    expect(ended.code).toBe(2);
    expect(ended.lines).toEqual([`${name}: --port: "70000" is not a port number (an integer from 0 to 65535)`]);
  });

  it("--help prints the usage and exits 0", async () => {
    const ended = await run(script, ["--help"]);
    expect(ended.code).toBe(0);
    expect(ended.stdout).toMatch(/^usage: /);
    expect(ended.stdout).toContain("Exit status: 0 stopped by a signal, 1 a failure (a port in use), 2 a bad option");
  });

  it("a port in use is one line naming the port and how to choose another, exit 1", async () => {
    // docs:serve needs a site to serve before it listens: the repository's own docs-src has none, so it gets one.
    // dev gets a project of its own, so that nothing of this repository is rebuilt if the port were free.
    const args =
      {
        "docs:serve": ["--dir", "tests/fixtures/docs-site"],
        dev: ["--root", project],
      }[name as string] ?? [];
    args.push("--port", String(port));
    const ended = await run(script, args);
    expect(ended.code).toBe(1);
    expect(ended.lines).toEqual([
      `${name}: port ${port} on 127.0.0.1 is in use; choose another with ${portHow} (0 picks a free one)`,
    ]);
  });
});

describe("a missing file named by a flag", { timeout: 60_000 }, () => {
  it("sandbox --config: one line and exit 2", async () => {
    const ended = await run("sandbox/cli.ts", ["--config", "no-such-config.json", "--port", "0"]);
    expect(ended.code).toBe(2);
    expect(ended.lines).toEqual([
      "sandbox: bad config no-such-config.json: cannot be read (ENOENT: no such file or directory, open 'no-such-config.json')",
    ]);
  });

  it("docs --coverage: one line and exit 2, naming the report", async () => {
    const missing = await run("docs-src/build.ts", [join(project, "site"), "--coverage", "no-such-report.json"]);
    expect(missing.code).toBe(2);
    expect(missing.lines).toEqual([
      "docs: --coverage no-such-report.json: ENOENT: no such file or directory, open 'no-such-report.json'",
    ]);
    const other = await run("docs-src/build.ts", [join(project, "site"), "--coverage", "package.json"]);
    expect(other.code).toBe(2);
    expect(other.lines).toEqual([
      "docs: --coverage package.json: is not a conformance.json report (it needs summary and results)",
    ]);
  });

  it("dev --root: one line and exit 2", async () => {
    const ended = await run("scripts/dev.ts", ["--root", "no-such-project", "--port", "0"]);
    expect(ended.code).toBe(2);
    expect(ended.lines).toEqual(["dev: --root no-such-project: no openapi/openapi.yaml under it"]);
  });

  it("package BUNDLE_DIR: one line and exit 2", async () => {
    const ended = await run("release/pack-cli.ts", ["no-such-bundle"]);
    expect(ended.code).toBe(2);
    expect(ended.lines).toEqual(["package: no-such-bundle/openapi.json: no bundle; run npm run build first"]);
  });

  it("docs:serve --dir: one line and exit 2", async () => {
    const ended = await run("docs-src/serve.ts", ["--dir", "no-such-site", "--port", "0"]);
    expect(ended.code).toBe(2);
    expect(ended.lines).toEqual([
      `docs:serve: ${ROOT}no-such-site has no built site (no index.html); run npm run docs first, or name the site with --dir DIR`,
    ]);
  });
});

describe("mock --prism-port", { timeout: 60_000 }, () => {
  it("a Prism port in use is one line naming --prism-port, exit 1", async () => {
    const ended = await run("mock/cli.ts", ["--port", "0", "--prism-port", String(port)]);
    expect(ended.code).toBe(1);
    expect(ended.lines).toEqual([
      `mock: port ${port} on 127.0.0.1 is in use; choose another with --prism-port N (0 picks a free one)`,
    ]);
  });
});

describe("the other commands on the harness: a bad flag or value is one line and exit 2", { timeout: 60_000 }, () => {
  it.each([
    ["fuzz/cli.ts", ["--runz", "3"], "fuzz: Unknown option '--runz' (--help shows the options)"],
    ["fuzz/cli.ts", ["--server", "prism"], 'fuzz: --server: "prism" must be sandbox, mock, client or suite'],
    ["bench/run.ts", ["--bogus"], "bench: Unknown option '--bogus' (--help shows the options)"],
    [
      "bench/run.ts",
      ["no-such-measurement"],
      "bench: no measurement matches no-such-measurement; there are: sandbox vs Prism mock, sandbox memory, sandbox hostile load, npm run diff, working loop, client per-call overhead, client bundle size, quote throughput, conformance-runs",
    ],
    ["conformance/cli.ts", ["--bogus"], "conformance: Unknown option '--bogus' (--help shows the options)"],
    ["release/pack-cli.ts", ["--bogus"], "package: Unknown option '--bogus' (--help shows the options)"],
    [
      "release/pack-cli.ts",
      ["a", "b", "c"],
      "package: expected at most BUNDLE_DIR and OUT_DIR, got 3 arguments (--help shows the usage)",
    ],
    ["scripts/lint.ts", ["--bogus"], "lint: Unknown option '--bogus' (--help shows the options)"],
    ["scripts/bundle.ts", ["--bogus"], "bundle: Unknown option '--bogus' (--help shows the options)"],
    ["scripts/build.ts", ["extra"], "build: Unexpected argument 'extra' (--help shows the options)"],
    ["generators/cli.ts", ["--bogus"], "generate: Unknown option '--bogus' (--help shows the options)"],
    ["docs-src/build.ts", ["--bogus"], "docs: Unknown option '--bogus' (--help shows the options)"],
    [
      "docs-src/serve.ts",
      ["--port", "-5"],
      `docs:serve: Option '--port' argument is ambiguous (a value starting with "-" is written --flag=VALUE)`,
    ],
    ["docs-src/serve.ts", ["--port=-5"], 'docs:serve: --port: "-5" is not a port number (an integer from 0 to 65535)'],
  ] as const)("%s %s", async (script, args, line) => {
    const ended = await run(script, [...args]);
    expect(ended.code).toBe(2);
    expect(ended.lines).toEqual([line]);
  });
});

describe("--help on the commands without a port: the usage, exit 0", { timeout: 60_000 }, () => {
  it.each([
    ["release/pack-cli.ts", "usage: npm run package -- [BUNDLE_DIR [OUT_DIR]]"],
    ["scripts/lint.ts", "usage: npm run lint -- [BUNDLE [ROOT]]"],
    ["scripts/bundle.ts", "usage: npm run bundle -- [ROOT [OUT_DIR]]"],
    ["scripts/build.ts", "usage: npm run build"],
    ["generators/cli.ts", "usage: npm run generate"],
    ["docs-src/build.ts", "usage: npm run docs -- [OUT_DIR] [--coverage REPORT]"],
  ])("%s", async (script, usage) => {
    const ended = await run(script, ["--help"]);
    expect(ended.code).toBe(0);
    expect(ended.stdout.split("\n")[0]).toBe(usage);
    expect(ended.stdout).toMatch(/Exit status: 0 .*, 2 a bad option/s);
  });
});
