/**
 * `npm run workflows [-- --server URL --api-key KEY --input NAME=VALUE NAME...]`: runs the Arazzo
 * workflows of workflows/ with `redocly respect` against the sandbox (its default address and demo
 * key unless told otherwise) or any implementation, each with the inputs and options it needs
 * (scripts/workflow-runs.ts). Exit 0 when every workflow passed, 1 when one failed or the target
 * does not answer, 2 for a bad option.
 */
import { SANDBOX_DEFAULT_URL, sandboxDemoKey } from "../docs-src/sandbox-facts.ts";
import { parseFlags, runCommand, UsageError } from "../tools/command.ts";
import { respectArgs, runRespect, WORKFLOW_RUNS, type WorkflowRun } from "./workflow-runs.ts";

const names = WORKFLOW_RUNS.map((run) => run.name);
/** The run's inputs read from the build, but those whose NAME the command line gives. */
function builtInputs(run: WorkflowRun, given: readonly string[]): string[] {
  const named = new Set(given.map((input) => input.slice(0, input.indexOf("="))));
  return (run.builtInputs?.() ?? []).filter((input) => !named.has(input.slice(0, input.indexOf("="))));
}

const HELP = `usage: npm run workflows -- [NAME...] [--server URL] [--api-key KEY] [--input NAME=VALUE]...

Runs the service's Arazzo workflows (workflows/*.arazzo.yaml: ${names.join(", ")}) with
redocly respect against a running sandbox or implementation, one after another, and prints each
step's checks. NAME picks workflows (default: all).

  --server URL         the target's root address (default ${SANDBOX_DEFAULT_URL}, npm run sandbox)
  --api-key KEY        MEDIA_API_KEY  its API key (default the sandbox's demo key, ${sandboxDemoKey()})
  --input NAME=VALUE   another input of the workflows (repeatable), e.g. model=real-slug
  --help               this text

Exit status: 0 every workflow passed, 1 one failed or the target does not answer, 2 a bad option.
workflows/README.md has each workflow's inputs and what it assumes of the target.`;

const { values, positionals } = parseFlags({
  name: "workflows",
  help: HELP,
  options: { server: { type: "string" }, "api-key": { type: "string" }, input: { type: "string", multiple: true } },
  positionals: true,
});

await runCommand("workflows", async () => {
  const picked: string[] = [...positionals];
  const unknown = picked.filter((name) => !names.includes(name));
  if (unknown.length > 0)
    throw new UsageError(`no workflow ${unknown.join(", ")}; the workflows are ${names.join(", ")}`);
  const server = (values.server ?? SANDBOX_DEFAULT_URL).replace(/\/+$/, "");
  if (!/^https?:\/\/[^/\s]+$/.test(server))
    throw new UsageError(`--server: "${server.slice(0, 80)}" is not a root address (http(s)://host[:port])`);
  for (const input of values.input ?? [])
    if (!/^[A-Za-z_][\w-]*=/.test(input)) throw new UsageError(`--input: "${input.slice(0, 80)}" is not NAME=VALUE`);
  const apiKey = values["api-key"] ?? process.env.MEDIA_API_KEY ?? sandboxDemoKey();
  try {
    await fetch(server, { signal: AbortSignal.timeout(10_000) });
  } catch {
    throw new Error(
      `nothing answers at ${server}: start the sandbox (npm run sandbox) or name the target with --server URL`,
    );
  }
  const runs = WORKFLOW_RUNS.filter((run) => picked.length === 0 || picked.includes(run.name));
  const failed: string[] = [];
  for (const run of runs) {
    console.log(`workflows: ${run.name} against ${server}${run.note ? ` (${run.note})` : ""}`);
    const code = await runRespect(
      respectArgs(run, server, [`apiKey=${apiKey}`, ...builtInputs(run, values.input ?? []), ...(values.input ?? [])]),
      (text) => process.stdout.write(text),
      (text) => process.stderr.write(text),
    );
    if (code !== 0) failed.push(run.name);
  }
  if (failed.length > 0) throw new Error(`${failed.length} of ${runs.length} workflows failed: ${failed.join(", ")}`);
  console.log(`workflows: ${runs.length} of ${runs.length} passed against ${server}`);
});
