/**
 * The bin of the tools package: `media-service <command> [options]`, or `--help`. The command's
 * name is taken out of process.argv, so that its script sees only its own options.
 */
import { BIN, COMMANDS, NPX } from "./commands.ts";
import { relaySignalsHeldByNpmShell } from "./shell-signals.ts";

const HELP = `usage: ${NPX} <command> [options]   (in package.json scripts: ${BIN} <command>)

commands:
${COMMANDS.map((command) => `  ${command.name.padEnd(14)} ${command.summary}`).join("\n")}

${NPX} <command> --help shows a command's options.`;

const [name] = process.argv.splice(2, 1);
const command = COMMANDS.find((candidate) => candidate.name === name);
if (command) {
  // Under npx, npm's shell keeps a SIGINT sent to npm from the command (shell-signals.ts).
  relaySignalsHeldByNpmShell();
  await command.load();
} else if (name === "--help" || name === "-h") {
  console.log(HELP);
} else {
  console.error(
    name === undefined
      ? `${BIN}: no command given\n\n${HELP}`
      : `${BIN}: unknown command "${name}"; the commands are ${COMMANDS.map((known) => known.name).join(", ")} (${NPX} --help)`,
  );
  process.exitCode = 2;
}
