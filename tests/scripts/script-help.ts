/**
 * What each npm script runs, read from package.json, and how it answers `--help`: an entry of the
 * project's that reads its flags (tools/command.ts, or its own `--help`), a shell script that
 * answers it first, or a tool whose own `--help` prints its usage and runs nothing.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PROJECT } from "../support/packages.ts";

export const SCRIPTS = (
  JSON.parse(readFileSync(join(PROJECT, "package.json"), "utf8")) as { scripts: Record<string, string> }
).scripts;

/** Tools whose `--help` prints their usage and does nothing else (tried by hand: vitest 4, Biome 2). */
const TOOLS = [/^vitest run --project [\w-]+$/, /^biome check --write \.$/];

const HELP_READING = /parseFlags\(|readFlags\(|"--help"|--help \|/;

/** The script's entry file, for a script that runs one of the project's. */
export function entryOf(command: string): string | undefined {
  return /^(?:exec node --import tsx|tsx|bash) (\S+\.(?:ts|sh))(?: [\w:-]+)?$/.exec(command)?.[1];
}

/** Why a script's `--help` would not just print its usage, or null when it would. */
export function helpProblem(name: string, command: string): string | null {
  if (/&&|\|\||;/.test(command))
    return `${name}: "${command}" chains commands: npm adds --help to the last one only, and the others run`;
  if (TOOLS.some((tool) => tool.test(command))) return null;
  const entry = entryOf(command);
  if (!entry) return `${name}: "${command}" is neither an entry of the project nor a tool known to answer --help`;
  const file = join(PROJECT, entry);
  if (!existsSync(file)) return `${name}: ${entry} does not exist`;
  const source = readFileSync(file, "utf8");
  // The entry, or a module it imports from its own folder (a command's run function), reads --help.
  const imported = [...source.matchAll(/from "(\.\.?\/[^"]+\.ts)"/g)]
    .map((match) => join(dirname(file), match[1]!))
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path, "utf8"));
  return [source, ...imported].some((text) => HELP_READING.test(text)) ? null : `${name}: ${entry} reads no --help`;
}
