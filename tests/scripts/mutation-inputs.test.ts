/**
 * What CI's mutation run compares before it starts Stryker (scripts/mutation-inputs.ts): the files
 * its globs take (and none its negations drop), each file's digest, what changed between two
 * records, the recorded sources the checkout no longer has, and the per-folder score of a recorded result.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { changedInputs, digests, filesMatching, folderScores, staleSources } from "../../scripts/mutation-inputs.ts";

let root: string;

function write(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "mutation-inputs-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("the files a run compares", () => {
  it("are those a glob takes, nested folders and brace lists included, less those a negation drops", () => {
    write({
      "runtime/client/a.ts": "",
      "runtime/costs/deep/b.ts": "",
      "runtime/notes.md": "",
      "behaviour/rules.ts": "",
      "behaviour/jobs.ts": "",
      "behaviour/server.ts": "",
      "mock/cli.ts": "",
      "mock/front.ts": "",
      "tests/mock/front.test.ts": "",
      "tests/mock/front.e2e.ts": "",
    });
    expect(filesMatching(root, ["runtime/**/*.ts", "behaviour/{rules,jobs}.ts", "mock/**/*.ts", "!**/cli.ts"])).toEqual(
      ["behaviour/jobs.ts", "behaviour/rules.ts", "mock/front.ts", "runtime/client/a.ts", "runtime/costs/deep/b.ts"],
    );
    expect(filesMatching(root, ["tests/**/*.test.ts"])).toEqual(["tests/mock/front.test.ts"]);
  });

  it("never come from node_modules or a run's working copies", () => {
    write({ "node_modules/x/runtime/a.ts": "", ".stryker-tmp/sandbox-1/runtime/a.ts": "", "runtime/a.ts": "" });
    expect(filesMatching(root, ["**/runtime/**/*.ts"])).toEqual(["runtime/a.ts"]);
  });
});

describe("the inputs compared", () => {
  it("differ by each file added, removed or changed, and by nothing else", () => {
    write({ "a.ts": "one", "b.ts": "two" });
    const before = digests(root, ["a.ts", "b.ts"]);
    expect(changedInputs(before, digests(root, ["a.ts", "b.ts"]))).toEqual([]);
    write({ "b.ts": "two!", "c.ts": "three" });
    expect(changedInputs(before, digests(root, ["b.ts", "c.ts"]))).toEqual([
      "a.ts removed",
      "b.ts changed",
      "c.ts added",
    ]);
  });
});

describe("a recorded result's sources", () => {
  it("are stale where a mutated file is not the source the result was made from, or is gone", () => {
    write({ "http-server/a.ts": "const a = 1;\n", "http-server/b.ts": "const b = 2;\n" });
    const report = {
      files: {
        "http-server/a.ts": { source: "const a = 1;\n", mutants: [] },
        "http-server/b.ts": { source: "const b = 1;\n", mutants: [] },
        "http-server/c.ts": { source: "", mutants: [] },
      },
    };
    expect(staleSources(report, root)).toEqual([
      "http-server/b.ts not the source its result was made from",
      "http-server/c.ts removed",
    ]);
    write({ "http-server/b.ts": "const b = 1;\n", "http-server/c.ts": "" });
    expect(staleSources(report, root)).toEqual([]);
  });
});

describe("a recorded result's score", () => {
  it("counts killed and timed-out mutants as killed, survivors and uncovered ones as live, the others not at all", () => {
    const statuses = (...list: string[]) => ({ mutants: list.map((status) => ({ status })) });
    expect(
      folderScores({
        files: {
          "mock/front.ts": statuses("Killed", "Timeout", "Survived", "CompileError", "Ignored"),
          "mock/prism.ts": statuses("NoCoverage", "Killed"),
          "http-server/answer.ts": statuses("Killed"),
        },
      }),
    ).toEqual(["http-server: 1 / 1", "mock: 3 / 5"]);
  });
});
