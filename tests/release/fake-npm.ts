/**
 * A stand-in for npm, first on PATH while a test runs: a shell script that records each call's
 * arguments and answers as the test set it (stdout, stderr, exit status, per npm command, or per
 * command and its first argument), so what the release does with npm's answers is tested without a
 * registry or a network. npm's real behaviour against a registry is release-npm.e2e.ts's.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

export interface NpmAnswer {
  readonly stdout?: string;
  readonly stderr?: string;
  readonly code?: number;
}

export interface FakeNpm {
  /** How npm answers `npm <command> [<first>] ...`; without `first`, whatever the arguments. */
  answer(command: string, answer: NpmAnswer, first?: string): void;
  /** Each call's arguments, in order. */
  calls(): string[][];
  /** Puts PATH back and removes the script. */
  restore(): void;
}

const SCRIPT = `#!/bin/sh
dir=$(dirname "$0")
for arg in "$@"; do printf '%s\\0' "$arg"; done >> "$dir/calls"
printf '\\n' >> "$dir/calls"
key="$1"
specific=$(printf '%s' "$1 $2" | tr '/@ ' '___')
[ -f "$dir/$specific.code" ] && key="$specific"
[ -f "$dir/$key.stdout" ] && cat "$dir/$key.stdout"
[ -f "$dir/$key.stderr" ] && cat "$dir/$key.stderr" >&2
exit "$(cat "$dir/$key.code" 2>/dev/null || echo 0)"
`;

export function fakeNpm(): FakeNpm {
  const dir = mkdtempSync(join(tmpdir(), "fake-npm-"));
  writeFileSync(join(dir, "npm"), SCRIPT);
  chmodSync(join(dir, "npm"), 0o755);
  const path = process.env.PATH;
  process.env.PATH = `${dir}${delimiter}${path ?? ""}`;
  return {
    answer(command, { stdout = "", stderr = "", code = 0 }, first) {
      const key = first === undefined ? command : `${command} ${first}`.replace(/[/@ ]/g, "_");
      writeFileSync(join(dir, `${key}.stdout`), stdout);
      writeFileSync(join(dir, `${key}.stderr`), stderr);
      writeFileSync(join(dir, `${key}.code`), String(code));
    },
    calls() {
      const file = join(dir, "calls");
      if (!existsSync(file)) return [];
      return readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => line.split("\0").slice(0, -1));
    },
    restore() {
      process.env.PATH = path;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
