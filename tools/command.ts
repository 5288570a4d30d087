/**
 * How every command starts: its flags parsed one way (node:util parseArgs, strict: an unknown flag
 * or a missing value is refused), `--help` printing its usage, and its ending as the README says:
 * a usage error (a bad flag, a bad value, a file named by a flag that is missing or wrong) is one
 * line and exit 2; a failure at run time is one line and exit 1; a port in use is a run-time
 * failure, one line naming the port and the flag or variable that chooses it.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { portProblem } from "./process-lifecycle.ts";

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** Input the person gave that cannot be used: their command line, a variable, a file a flag names. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;

export interface CommandSpec<O extends Options> {
  /** The name the command's lines start with (`sandbox`, `mock`, `docs:serve`). */
  readonly name: string;
  /** The text `--help` prints. */
  readonly help: string;
  readonly options: O;
  /** The arguments it takes besides flags: their names (at most that many), or true for any number. */
  readonly positionals?: true | readonly string[];
}

/** One line on stderr, with the command's name, and the exit status. */
function end(name: string, message: string, status: number): never {
  process.stderr.write(`${name}: ${message.split("\n")[0]}\n`);
  process.exit(status);
}

/**
 * The command's flags (and, where the command takes them, its positional arguments), `help` when
 * `--help` or `-h` was given; an unknown flag or a missing value is a UsageError of one line. For
 * the commands whose tests run them in the test's process, with output of their own (diff, release).
 */
export function readFlags<O extends Options>(spec: CommandSpec<O>, args: readonly string[]) {
  const config = {
    args: [...args],
    options: { ...spec.options, help: { type: "boolean", short: "h" } },
    strict: true,
    allowPositionals: spec.positionals !== undefined,
  } as const;
  let parsed: ReturnType<typeof parseArgs<typeof config>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    // parseArgs's messages go on with advice over several lines: its first sentence, and ours.
    const first = (error as Error).message.split(/\.(\s|$)/)[0] ?? "";
    const hint = /ambiguous/.test(first)
      ? 'a value starting with "-" is written --flag=VALUE'
      : "--help shows the options";
    throw new UsageError(`${first} (${hint})`);
  }
  const names = spec.positionals;
  if (Array.isArray(names) && parsed.positionals.length > names.length)
    throw new UsageError(
      `expected at most ${names.join(" and ")}, got ${parsed.positionals.length} arguments (--help shows the usage)`,
    );
  return {
    values: parsed.values as ReturnType<typeof parseArgs<{ options: O; strict: true }>>["values"],
    positionals: parsed.positionals,
    help: (parsed.values as { help?: boolean }).help === true,
  };
}

/**
 * The command's flags, as readFlags reads them; `--help` prints the usage and exits 0, a usage
 * error is one line and exit 2.
 */
export function parseFlags<O extends Options>(spec: CommandSpec<O>, args: readonly string[] = process.argv.slice(2)) {
  let flags: ReturnType<typeof readFlags<O>>;
  try {
    flags = readFlags(spec, args);
  } catch (error) {
    end(spec.name, (error as Error).message, EXIT.usage);
  }
  if (flags.help) {
    console.log(spec.help);
    process.exit(EXIT.ok);
  }
  return { values: flags.values, positionals: flags.positionals };
}

/** A setting from its flag, else its environment variable, else the default, with where it came from (for messages). */
export function setting(
  flagValue: string | undefined,
  flag: string,
  variable: string,
  fallback: string,
): { value: string; from: string } {
  if (flagValue !== undefined) return { value: flagValue, from: flag };
  const fromEnv = process.env[variable];
  if (fromEnv !== undefined) return { value: fromEnv, from: variable };
  return { value: fallback, from: `the default of ${flag}` };
}

/** A port number from a flag or a variable: an integer from 0 (a free port) to 65535, else a UsageError naming where it came from. */
export function portSetting(flagValue: string | undefined, flag: string, variable: string, fallback: number): number {
  const { value, from } = setting(flagValue, flag, variable, String(fallback));
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new UsageError(`${from}: "${value.slice(0, 40)}" is not a port number (an integer from 0 to 65535)`);
  return port;
}

/** Where each port a command listens on is chosen, to name it when the port is in use. */
export type PortChoices = (port: number) => string;

/**
 * Runs the command's body and ends it as the house does: a UsageError is exit 2, a port in use
 * (EADDRINUSE, EACCES) names the port and how to choose another, any other error is its message;
 * each one line.
 */
export async function runCommand(
  name: string,
  body: () => Promise<void>,
  ports: PortChoices = () => "another port",
): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (error instanceof UsageError) end(name, error.message, EXIT.usage);
    const { port } = (error ?? {}) as { port?: unknown };
    const problem = typeof port === "number" ? portProblem(error, port, `${ports(port)} (0 picks a free one)`) : null;
    end(name, problem ?? (error instanceof Error ? error.message : String(error)), EXIT.failure);
  }
}
