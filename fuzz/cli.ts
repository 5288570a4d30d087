/**
 * `npm run fuzz [-- --runs N] [-- --seed S] [-- --server sandbox|mock|suite]`: the HTTP fuzz harness
 * (fuzz/run.ts) against the sandbox and the mock front, each started for the run on 127.0.0.1, and
 * the conformance suite against hostile targets (fuzz/hostile-target.ts, `suite`: a whole run of the
 * suite for every 50 of --runs, 40 by default).
 * Exits 1 when a property failed, printing the seed and the shrunk request as a curl line.
 */
import { parseArgs } from "node:util";
import type { Server } from "./answer-check.ts";
import { fuzzSuite, reportSuite, suiteRuns } from "./hostile-target.ts";
import { fuzz, report } from "./run.ts";

const USAGE = `npm run fuzz [-- --runs N] [-- --seed S] [-- --server sandbox|mock|suite]
  --runs N     hostile requests per server (default 2000)
  --seed S     fast-check's seed (default: a random one, always printed)
  --server X   only the sandbox, the mock front, or the suite against hostile targets (default: all three)`;

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
if (values.server !== undefined && values.server !== "sandbox" && values.server !== "mock" && values.server !== "suite") {
  console.error(`fuzz: --server "${values.server}" must be sandbox, mock or suite\n${USAGE}`);
  process.exit(2);
}
const servers: Array<Server | "suite"> = values.server ? [values.server as Server | "suite"] : ["sandbox", "mock", "suite"];

let failed = false;
for (const server of servers) {
  const run = server === "suite" ? await fuzzSuite({ runs: suiteRuns(runs), progress: (line) => console.log(line), ...(seed !== undefined ? { seed } : {}) }) : await fuzz(server, { runs, progress: (line) => console.log(line), ...(seed !== undefined ? { seed } : {}) });
  for (const line of "server" in run ? report(run) : reportSuite(run)) console.log(line);
  failed ||= run.failure !== undefined;
}
process.exit(failed ? 1 : 0);
