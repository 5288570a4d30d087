/**
 * The harness's reading of flags (tools/command.ts's readFlags), in this process: what every
 * command on it refuses, and in which one line. The commands run as processes are command.e2e.ts.
 */
import { describe, expect, it } from "vitest";
import { readFlags, UsageError } from "../../tools/command.ts";

const spec = {
  name: "example",
  help: "usage: example",
  options: { port: { type: "string" }, check: { type: "boolean" } },
  positionals: ["OLD", "NEW"],
} as const;

const refusal = (args: string[]): string => {
  try {
    readFlags(spec, args);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`${args.join(" ")} was accepted`);
};

describe("readFlags", () => {
  it("reads flags and arguments, and --help or -h", () => {
    expect(readFlags(spec, ["a.json", "--port", "5", "--check"])).toEqual({
      values: { port: "5", check: true },
      positionals: ["a.json"],
      help: false,
    });
    expect(readFlags(spec, ["--help"]).help).toBe(true);
    expect(readFlags(spec, ["-h"]).help).toBe(true);
  });

  it("refuses an unknown flag, a flag without its value and more arguments than named, each in one line", () => {
    expect(refusal(["--bogus"])).toBe("Unknown option '--bogus' (--help shows the options)");
    expect(refusal(["--port"])).toBe("Option '--port <value>' argument missing (--help shows the options)");
    expect(refusal(["--port", "-5"])).toBe(
      `Option '--port' argument is ambiguous (a value starting with "-" is written --flag=VALUE)`,
    );
    expect(refusal(["a", "b", "c"])).toBe("expected at most OLD and NEW, got 3 arguments (--help shows the usage)");
  });

  it("refuses any argument of a command that takes none", () => {
    expect(() => readFlags({ name: "x", help: "", options: {} }, ["extra"])).toThrow(
      "Unexpected argument 'extra' (--help shows the options)",
    );
  });
});
