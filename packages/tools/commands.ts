/**
 * The commands of the tools package's bin, `media-service <command> [options]`. Each is one of this
 * repository's command-line scripts, bundled into the package and run in process: it reads its own
 * options from process.argv as under `npm run`. Adding a command is one entry here.
 */
import { TOOLS_PACKAGE } from "../shared/package-build.ts";

/** The bin's name: what a package.json script of a project that installed the package runs. */
export const BIN = "media-service";

/**
 * How a person runs it with npx: through the package's scoped name, which nobody else can publish.
 * (`npx media-service` finds the bin where the package is installed, but anywhere else it would ask
 * the registry for an unscoped name anyone could take.) In this repository the name is linked to
 * the sources (packages/tools/local/), so the same line works in a clone.
 */
export const NPX = `npx ${TOOLS_PACKAGE}`;

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
