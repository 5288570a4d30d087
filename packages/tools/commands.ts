/**
 * The commands of the tools package's bin, `media-service <command> [options]`. Each is one of this
 * repository's command-line scripts, bundled into the package and run in process: it reads its own
 * options from process.argv as under `npm run`. Adding a command is one entry here.
 */
export const BIN = "media-service";

export interface Command {
  name: string;
  /** One line of `media-service --help`. */
  summary: string;
  /** Loads the script, which runs on load. */
  load: () => Promise<unknown>;
}

export const COMMANDS: readonly Command[] = [
  {
    name: "sandbox",
    summary: "the stateful sandbox of the service on 127.0.0.1: jobs on a clock, billing, every limit",
    load: () => import("../../sandbox/cli.ts"),
  },
  {
    name: "conformance",
    summary: "the conformance suite against an implementation (--target URL): JSON and JUnit reports",
    load: () => import("../../conformance/cli.ts"),
  },
];
