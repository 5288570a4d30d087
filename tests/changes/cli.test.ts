/**
 * `npm run diff`: sides from files and git refs, exit statuses, the acknowledgements file, the
 * JSON report, and a clear error (exit 2) for each kind of bad input.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { latestRelease, PROJECT_ROOT } from "../../changes/baseline.ts";
import { loadBundle } from "../../model/document.ts";
import { runDiffIn } from "../support/diff-run.ts";
import type { LooseJson } from "../support/loose.ts";

const QUEUED = 'response-enum-value-added@schema JobStatus="queued"';
let dir: string;

const run = (args: string[], cwd = dir) => runDiffIn(cwd, args);

const write = (name: string, value: unknown): string => {
  writeFileSync(join(dir, name), typeof value === "string" ? value : JSON.stringify(value));
  return name;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "changes-cli-"));
  const base = loadBundle();
  write("before.json", base);
  const compatible = structuredClone(base) as LooseJson;
  compatible.components.schemas.AccountCredits.properties.bonus_credits = {
    type: "integer",
    description: "Bonus credits.",
  };
  write("compatible.json", compatible);
  const breaking = structuredClone(compatible);
  breaking.components.schemas.JobStatus.enum.push("queued");
  write("breaking.json", breaking);
  write("ack.json", {
    acknowledged: [
      { id: QUEUED, reason: "Jobs may now wait in a queue; the client treats unknown statuses as pending." },
    ],
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run diff", () => {
  it("exits 0 and prints release notes when nothing breaks", () => {
    const { status, stdout, stderr } = run(["before.json", "compatible.json"]);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect(stdout).toContain("**0 breaking**, 1 compatible");
    expect(stdout).toContain(
      "## Compatible changes\n\n### Account\n\n#### `GET /v1/account/credits` — Read the account's credit balance\n\n- `schema AccountCredits.bonus_credits`: new optional field.\n",
    );
  });

  it("exits 1 on a breaking change and prints its id to acknowledge", () => {
    const { status, stdout, stderr } = run(["before.json", "breaking.json"]);
    expect(status).toBe(1);
    // The release notes are for readers; the ids to acknowledge are in the JSON and in the error.
    expect(stdout).not.toContain(QUEUED);
    expect(stderr).toBe(
      `diff: 1 unacknowledged breaking change; acknowledge it by id in a file passed with --ack FILE (changes/acknowledged.json acknowledges only the default comparison, the latest release with the bundle) with a reason, or undo it:\n  ${QUEUED}\n`,
    );
  });

  it("exits 0 when the acknowledgements file names the breaking change, and shows the reason", () => {
    const { status, stdout } = run(["before.json", "breaking.json", "--ack", "ack.json"]);
    expect(status).toBe(0);
    expect(stdout).toContain("**1 breaking** (1 accepted)");
    expect(stdout).toContain("*Accepted:* Jobs may now wait in a queue");
  });

  it("writes release notes for readers: breaking first with what to do, no local paths, and no advice to bump info.version (a release needs none)", () => {
    const { stdout } = run([join(dir, "before.json"), join(dir, "breaking.json")]);
    expect(stdout).not.toContain(dir);
    expect(stdout).toContain("Compared before.json (version 2026-06-20) with breaking.json (version 2026-06-20)");
    expect(stdout).not.toContain("Warning");
    expect(stdout).not.toContain("info.version");
    expect(stdout.indexOf("## Breaking changes")).toBeLessThan(stdout.indexOf("## Compatible changes"));
    expect(stdout).toContain("`schema JobStatus` (used by ");
    expect(stdout).toContain(
      ': may now be "queued". **What to do:** handle "queued" wherever your code reads this value (a switch over its values, a type listing them).',
    );
  });

  it("writes plain data to JSON: no Markdown inside its strings", () => {
    const report = JSON.parse(run(["before.json", "breaking.json", "--format", "json"]).stdout) as {
      changes: Array<{ message: string }>;
      changelog: Array<{ line: string }>;
    };
    const texts = [...report.changes.map((change) => change.message), ...report.changelog.map((entry) => entry.line)];
    expect(texts.length).toBeGreaterThan(1);
    for (const text of texts) expect(text).not.toMatch(/`|\*\*/);
  });

  it("writes JSON for CI to --out", () => {
    const { status, stdout } = run([
      "before.json",
      "breaking.json",
      "--format",
      "json",
      "--out",
      "report.json",
      "--ack",
      "ack.json",
    ]);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^diff: before\.json → breaking\.json: 1 breaking \(1 acknowledged\), 1 compatible/);
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
    expect(report.summary).toEqual({ breaking: 1, acknowledged: 1, unacknowledged: 0, compatible: 1 });
    expect(report.before).toEqual({ source: "before.json", version: "2026-06-20" });
    const queued = report.changes.find((change: { id: string }) => change.id === QUEUED);
    expect(queued.severity).toBe("breaking");
    expect(queued.acknowledged).toMatch(/queue/);
    expect(queued.routes).toContain("GET /v1/images/{id}");
  });

  it("reads git refs: REF (its committed bundle) and REF:path", () => {
    const { status, stdout } = run(["HEAD", "HEAD:generated/openapi.json"], PROJECT_ROOT);
    expect(status).toBe(0);
    expect(stdout).toContain(
      "Compared HEAD:generated/openapi.json (version 2026-06-20) with HEAD:generated/openapi.json (version 2026-06-20)",
    );
    expect(stdout).toContain("No changes.");
  });

  it("with no sides compares the latest release (the release's baseline) with the bundle, as --check does", () => {
    const plain = run([], PROJECT_ROOT);
    expect(plain.stdout).toContain(`Compared ${latestRelease().label} (version `);
    expect(plain.stdout).toContain(") with generated/openapi.json (version ");
    const check = run(["--check"], PROJECT_ROOT);
    expect(check).toEqual(plain);
  });

  it("exits with the status it reports when run as a command", async () => {
    // The entry point run in this process (a child process of tsx took 5 s alone and over 30 s on a
    // loaded machine): the exit status is the process.exitCode it leaves.
    const entry = async (args: string[], runs: number) => {
      const [argv, exitCode] = [process.argv, process.exitCode];
      const stderr: string[] = [];
      const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
      const err = vi.spyOn(process.stderr, "write").mockImplementation((text) => stderr.push(String(text)) > 0);
      process.argv = [argv[0]!, "changes/cli.ts", ...args];
      try {
        // A query of its own each time, so the module runs again.
        await import(/* @vite-ignore */ `${new URL("../../changes/cli.ts", import.meta.url).href}?run=${runs}`);
        return { status: process.exitCode, stderr: stderr.join("") };
      } finally {
        [process.argv, process.exitCode] = [argv, exitCode];
        out.mockRestore();
        err.mockRestore();
      }
    };
    const [before, breaking] = [join(dir, "before.json"), join(dir, "breaking.json")];
    expect(await entry([before, breaking], 1)).toMatchObject({ status: 1 });
    const bad = await entry([before, breaking, "--format", "yaml"], 2);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--format must be one of markdown, json, got "yaml"');
  });
});

describe("bad input exits 2 with an error naming what is wrong", () => {
  it.each([
    [
      "a side that is neither a file nor a ref",
      ["nothing-here.json", "before.json"],
      /OLD nothing-here\.json: no such file, and not a git ref/,
    ],
    [
      "a REF:path git cannot show",
      ["HEAD:no/such.json", "before.json"],
      /OLD HEAD:no\/such\.json: no such file, and git cannot show it/,
    ],
    ["three sides", ["before.json", "before.json", "before.json"], /expected at most OLD and NEW, got 3 arguments/],
    ["an unknown option", ["before.json", "--colour"], /Unknown option '--colour'/],
    ["--check with sides", ["--check", "before.json"], /--check .* takes no OLD or NEW/],
    [
      "a missing acknowledgements file",
      ["before.json", "breaking.json", "--ack", "none.json"],
      /--ack none\.json: no such file/,
    ],
  ])("%s", (_, args, message) => {
    const { status, stderr } = run(args);
    expect(status).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toMatch(/^diff: [^\n]+\n$/);
  });

  it("--help (or -h) prints the usage and exits 0", () => {
    for (const flag of ["--help", "-h"]) {
      const { status, stdout, stderr } = run([flag]);
      expect([status, stderr]).toEqual([0, ""]);
      expect(stdout).toMatch(/^usage: npm run diff -- \[OLD \[NEW\]\]/);
    }
  });

  it("a description that is not JSON, or not OpenAPI 3.1", () => {
    write("broken.json", "{ not json");
    expect(run(["broken.json", "before.json"]).stderr).toMatch(/OLD broken\.json: not readable as JSON/);
    const old = structuredClone(loadBundle()) as LooseJson;
    old.openapi = "3.0.3";
    write("old.json", old);
    const { status, stderr } = run(["old.json", "before.json"]);
    expect(status).toBe(2);
    expect(stderr).toContain('OLD old.json: openapi must be a 3.1.x version string, got "3.0.3"');
    delete old.info.version;
    old.openapi = "3.1.0";
    write("old.json", old);
    expect(run(["before.json", "old.json"]).stderr).toContain("NEW old.json: info.version must be a non-empty string");
  });

  it("(not bad input) a description the service model cannot read: compared, and that is a breaking change", () => {
    const doc = structuredClone(loadBundle()) as LooseJson;
    delete doc.info["x-limits"];
    write("no-limits.json", doc);
    // Any valid OpenAPI 3.1 description is compared: what the model cannot read is itself a breaking change.
    const { status, stdout, stderr } = run(["before.json", "no-limits.json", "--format", "json"]);
    expect(status).toBe(1);
    const unreadable = (
      JSON.parse(stdout) as { changes: Array<{ id: string; severity: string; message: string }> }
    ).changes.find((change) => change.id.startsWith("service-model-unreadable@"));
    expect(unreadable?.severity).toBe("breaking");
    expect(unreadable?.message).toMatch(
      /^description: the service model can no longer read the description: .*x-limits/,
    );
    expect(stderr).toContain("service-model-unreadable@description=");
  });

  it("a git ref whose commit has no bundle", () => {
    const repo = mkdtempSync(join(tmpdir(), "changes-repo-"));
    try {
      const git = (...args: string[]): string =>
        execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
          cwd: repo,
          encoding: "utf8",
        });
      git("init", "-q");
      writeFileSync(join(repo, "README.md"), "no bundle here\n");
      git("add", "README.md");
      git("commit", "-q", "-m", "no bundle");
      const { status, stderr } = run(["HEAD", join(dir, "before.json")], repo);
      expect(status).toBe(2);
      expect(stderr).toContain("OLD HEAD: the commit has no generated/openapi.json");
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it.each([
    ["not JSON", "{", /ack-bad\.json:1:2: not valid JSON: expected a "quoted" key, got the end of file/],
    ["no acknowledged array", { acknowledges: [] }, /ack-bad\.json: must be an object with an "acknowledged" array/],
    [
      "an entry without an id",
      { acknowledged: [{ reason: "r" }] },
      /ack-bad\.json: acknowledged\[0\]\.id must be a non-empty string/,
    ],
    [
      "an entry without a reason",
      { acknowledged: [{ id: QUEUED, reason: " " }] },
      /acknowledged\[0\]\.reason must be a non-empty string saying why/,
    ],
    [
      "an unknown key",
      { acknowledged: [{ id: QUEUED, reason: "r", ticket: 4 }] },
      /acknowledged\[0\] has unknown key "ticket" \(allowed: id, reason\)/,
    ],
    [
      "an id twice",
      {
        acknowledged: [
          { id: QUEUED, reason: "r" },
          { id: QUEUED, reason: "r" },
        ],
      },
      /acknowledged\[1\]\.id repeats acknowledged\[0\]\.id/,
    ],
    [
      "an id of no change",
      { acknowledged: [{ id: "route-removed@GET /v1/nowhere", reason: "r" }] },
      /acknowledged\[0\]\.id "route-removed@GET \/v1\/nowhere" names no change between before\.json and breaking\.json/,
    ],
    [
      "an id of a compatible change",
      { acknowledged: [{ id: "response-property-added@schema AccountCredits.bonus_credits", reason: "r" }] },
      /names a compatible change; only breaking changes are acknowledged/,
    ],
  ])("an acknowledgements file with %s", (_, content, message) => {
    write("ack-bad.json", content);
    const { status, stderr } = run(["before.json", "breaking.json", "--ack", "ack-bad.json"]);
    expect(status).toBe(2);
    expect(stderr).toMatch(message);
  });
});
