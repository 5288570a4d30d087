/**
 * `npm run fuzz [-- --runs N] [-- --seed S] [-- --server sandbox|mock]`: the HTTP fuzz harness
 * (fuzz/run.ts) against the sandbox and the mock front, each started for the run on 127.0.0.1.
 * Exits 1 when a property failed, printing the seed and the shrunk request as a curl line; a bad
 * option is one line and exit 2 (tools/command.ts).
 */
import { parseFlags, runCommand, UsageError } from "../tools/command.ts";
import type { Server } from "./answer-check.ts";
import { fuzz, report } from "./run.ts";

const USAGE = `usage: npm run fuzz -- [--runs N] [--seed S] [--server sandbox|mock]
  --runs N     hostile requests per server (default 2000)
  --seed S     fast-check's seed (default: a random one, always printed)
  --server X   only the sandbox or only the mock front (default: both)
  --help       this text

Exit status: 0 nothing found, 1 a property failed (or the run failed), 2 a bad option.`;

const { values } = parseFlags({ name: "fuzz", help: USAGE, options: { runs: { type: "string" }, seed: { type: "string" }, server: { type: "string" } } });

function integer(flag: string, given: string | undefined, fallback: number | undefined, min: number): number | undefined {
  if (given === undefined) return fallback;
  if (!/^-?\d+$/.test(given) || Number(given) < min || !Number.isSafeInteger(Number(given))) throw new UsageError(`${flag}: "${given.slice(0, 40)}" must be an integer of at least ${min}`);
  return Number(given);
}

await runCommand("fuzz", async () => {
  const runs = integer("--runs", values.runs, 2000, 1)!;
  const seed = integer("--seed", values.seed, undefined, -(2 ** 31));
  if (values.server !== undefined && values.server !== "sandbox" && values.server !== "mock") throw new UsageError(`--server: "${values.server.slice(0, 40)}" must be sandbox or mock`);
  const servers: Server[] = values.server ? [values.server as Server] : ["sandbox", "mock"];
  let failed = false;
  for (const server of servers) {
    const run = await fuzz(server, { runs, progress: (line) => console.log(line), ...(seed !== undefined ? { seed } : {}) });
    for (const line of report(run)) console.log(line);
    failed ||= run.failure !== undefined;
  }
  process.exit(failed ? 1 : 0);
});
