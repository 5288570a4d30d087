/**
 * `npm run fuzz [-- --runs N] [-- --seed S] [-- --server sandbox|mock]`: the HTTP fuzz harness
 * (fuzz/run.ts) against the sandbox and the mock front, each started for the run on 127.0.0.1.
 * Exits 1 when a property failed, printing the seed and the shrunk request as a curl line.
 */
import { parseArgs } from "node:util";
import type { Server } from "./answer-check.ts";
import { fuzz, report } from "./run.ts";

const USAGE = `npm run fuzz [-- --runs N] [-- --seed S] [-- --server sandbox|mock]
  --runs N     hostile requests per server (default 2000)
  --seed S     fast-check's seed (default: a random one, always printed)
  --server X   only the sandbox or only the mock front (default: both)`;

const { values } = parseArgs({ options: { runs: { type: "string" }, seed: { type: "string" }, server: { type: "string" }, help: { type: "boolean" } } });
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

function integer(flag: string, given: string | undefined, fallback: number | undefined, min: number): number | undefined {
  if (given === undefined) return fallback;
  if (!/^-?\d+$/.test(given) || Number(given) < min || !Number.isSafeInteger(Number(given))) {
    console.error(`fuzz: ${flag} "${given}" must be an integer of at least ${min}\n${USAGE}`);
    process.exit(2);
  }
  return Number(given);
}

const runs = integer("--runs", values.runs, 2000, 1)!;
const seed = integer("--seed", values.seed, undefined, -(2 ** 31));
if (values.server !== undefined && values.server !== "sandbox" && values.server !== "mock") {
  console.error(`fuzz: --server "${values.server}" must be sandbox or mock\n${USAGE}`);
  process.exit(2);
}
const servers: Server[] = values.server ? [values.server as Server] : ["sandbox", "mock"];

let failed = false;
for (const server of servers) {
  const run = await fuzz(server, { runs, progress: (line) => console.log(line), ...(seed !== undefined ? { seed } : {}) });
  for (const line of report(run)) console.log(line);
  failed ||= run.failure !== undefined;
}
process.exit(failed ? 1 : 0);
