/**
 * `npm run fuzz [-- --runs N] [-- --seed S] [-- --server sandbox|mock|client]`: the HTTP fuzz harness
 * (fuzz/run.ts) against the sandbox and the mock front, each started for the run on 127.0.0.1, and
 * the typed client against a hostile upstream (fuzz/client-fuzz.ts). Exits 1 when a property
 * failed, printing the seed and the shrunk request as a curl line (the shrunk scenario for the client).
 */
import { parseArgs } from "node:util";
import type { Server } from "./answer-check.ts";
import { clientReport, fuzzClient } from "./client-fuzz.ts";
import { fuzz, report } from "./run.ts";

const USAGE = `npm run fuzz [-- --runs N] [-- --seed S] [-- --server sandbox|mock|client]
  --runs N     hostile requests per server, hostile-upstream scenarios for the client (default 2000)
  --seed S     fast-check's seed (default: a random one, always printed)
  --server X   only the sandbox, the mock front or the typed client against a hostile upstream (default: all)`;

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
if (values.server !== undefined && !["sandbox", "mock", "client"].includes(values.server)) {
  console.error(`fuzz: --server "${values.server}" must be sandbox, mock or client\n${USAGE}`);
  process.exit(2);
}
const servers = values.server ? [values.server as Server | "client"] : (["sandbox", "mock", "client"] as const);

let failed = false;
for (const server of servers) {
  const options = { runs, progress: (line: string) => console.log(line), ...(seed !== undefined ? { seed } : {}) };
  const run = server === "client" ? await fuzzClient(options) : await fuzz(server, options);
  for (const line of run.server === "client" ? clientReport(run) : report(run)) console.log(line);
  failed ||= run.failure !== undefined;
}
process.exit(failed ? 1 : 0);
