/**
 * `npm run dev` end to end, on a copy of the description in a temporary git repository: every way
 * a file is saved (an atomic rename as `sed -i` and safe-saving editors do, `git checkout` of a
 * file, a new file) triggers a rebuild naming the description file and a reload event on the docs
 * server, heard as a browser hears it; the port is checked and a port in use is one line; SIGINT to
 * the npm process stops it.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { output, until } from "../support/processes.ts";

const project = new URL("../../", import.meta.url).pathname;
const PATH_FILE = "paths/v1_images_i-a.yaml";

function dev(root: string, ...args: string[]): ChildProcess {
  return spawn("npm", ["run", "-s", "dev", "--", "--root", root, ...args], {
    cwd: project,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

const exited = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.on("exit", (code) => resolve(code)));

const meaningful = (text: string): string[] =>
  text.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("npm warn"));

/** The reload events of the docs server, read from its event stream as a page's EventSource reads them. */
async function reloads(url: string): Promise<{ count: () => number; close: () => Promise<void> }> {
  const response = await fetch(`${url}__reload`);
  const reader = response.body!.getReader();
  let text = "";
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += new TextDecoder().decode(value);
    }
  })();
  return { count: () => text.split("data: reload\n\n").length - 1, close: () => reader.cancel() };
}

describe("npm run dev on a copy of the description", () => {
  let root: string;
  let child: ChildProcess;
  let stdout: () => string;
  let url: string;
  let events: Awaited<ReturnType<typeof reloads>>;
  const sources = (): string => join(root, "openapi");
  const git = (...args: string[]): string => execFileSync("git", args, { cwd: root, encoding: "utf8" });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "dev-command-"));
    cpSync(join(project, "openapi"), sources(), { recursive: true });
    mkdirSync(join(root, "generated"));
    mkdirSync(join(root, "docs"));
    git("init", "-q");
    git("add", "openapi");
    git("-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-qm", "description");
    child = dev(root, "--port", "0");
    ({ stdout } = output(child));
    url = await until(
      () => /docs at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout())?.[1],
      "the dev loop's first pass",
      60_000,
    );
    expect(stdout()).toMatch(/^ok after start: /m);
    events = await reloads(url);
  });

  afterAll(async () => {
    await events?.close();
    if (child && child.exitCode === null) {
      child.kill("SIGKILL");
      await exited(child);
    }
    rmSync(root, { recursive: true, force: true });
  });

  /** Saves by `save`, then waits for the pass line it triggers and for one more reload event. */
  async function rebuiltAfter(save: () => void): Promise<string> {
    const [linesBefore, reloadsBefore] = [meaningful(stdout()).length, events.count()];
    save();
    const line = await until(
      () =>
        meaningful(stdout())
          .slice(linesBefore)
          .find((text) => / after /.test(text)),
      "a rebuild",
      30_000,
    );
    await until(() => (events.count() > reloadsBefore ? true : undefined), "a reload event", 30_000);
    return line;
  }

  it("rebuilds and reloads after an atomic-rename save, naming the description file only", async () => {
    const file = join(sources(), PATH_FILE);
    const text = readFileSync(file, "utf8");
    const line = await rebuiltAfter(() => {
      // What `sed -i` does: a temporary file beside the target, renamed over it.
      const temporary = join(sources(), "paths", "sedqRDLB1");
      writeFileSync(temporary, text.replace("Create an image with I-A", "Create one image with I-A"));
      renameSync(temporary, file);
    });
    expect(line).toMatch(new RegExp(`^ok after ${PATH_FILE.replace(".", "\\.")}: `));
    expect(line).not.toContain("sed");
  });

  it("keeps watching the renamed file: a git checkout of it rebuilds and reloads", async () => {
    const line = await rebuiltAfter(() => git("checkout", "--", `openapi/${PATH_FILE}`));
    expect(line).toMatch(new RegExp(`^ok after ${PATH_FILE.replace(".", "\\.")}: `));
    expect(readFileSync(join(root, "generated", "openapi.json"), "utf8")).toContain("Create an image with I-A");
  });

  it("rebuilds and reloads when a new file is added", async () => {
    const line = await rebuiltAfter(() =>
      writeFileSync(join(sources(), "components", "schemas", "Planted.yaml"), "type: string\n"),
    );
    expect(line).toMatch(/^ok after components\/schemas\/Planted\.yaml: /);
  });

  it("stops when the npm process it runs under gets SIGINT", async () => {
    child.kill("SIGINT");
    await exited(child);
    const answers = await fetch(url).then(
      () => true,
      () => false,
    );
    expect(answers).toBe(false);
  });
});

describe("npm run dev's port", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "dev-port-"));
    cpSync(join(project, "openapi"), join(root, "openapi"), { recursive: true });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("refuses a port that is not a number, in one line", async () => {
    const child = dev(root, "--port", "80x");
    const { stderr } = output(child);
    expect(await exited(child)).toBe(2);
    expect(meaningful(stderr())).toEqual(['dev: --port: "80x" is not a port number (an integer from 0 to 65535)']);
  });

  it("names the port in use and how to choose another, in one line, before any pass", async () => {
    const taken: Server = await new Promise((resolve) => {
      const server = createServer();
      server.listen(0, "127.0.0.1", () => resolve(server));
    });
    const port = (taken.address() as { port: number }).port;
    try {
      const child = dev(root, "--port", String(port));
      const { stdout, stderr } = output(child);
      expect(await exited(child)).toBe(1);
      expect(meaningful(stderr())).toEqual([
        `dev: port ${port} on 127.0.0.1 is in use; choose another with --port N or DOCS_PORT=N (0 picks a free one)`,
      ]);
      expect(stdout()).not.toMatch(/after start/);
    } finally {
      taken.close();
    }
  });
});
