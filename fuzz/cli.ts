/**
 * `npm run fuzz [-- --runs N] [-- --seed S] [-- --server sandbox|mock|client|suite]`: seeded hostile
 * HTTP both ways. Hostile requests to the sandbox and the mock front (fuzz/run.ts), each started for
 * the run on 127.0.0.1; the typed client against a hostile upstream (fuzz/client-fuzz.ts); the
 * conformance suite against hostile targets (fuzz/hostile-target.ts: a whole run of the suite for
 * every 50 of --runs). Exits 1 when a property failed, printing the seed and the shrunk case; a bad
 * option is one line and exit 2 (tools/command.ts).
 */
import { parseFlags, runCommand, UsageError } from "../tools/command.ts";
import type { FuzzedServer } from "./answer-requirements.ts";
import { clientReport, fuzzClient } from "./client-fuzz.ts";
import { fuzzSuite, reportSuite, suiteRuns } from "./hostile-target.ts";
import { fuzz, report } from "./run.ts";

const KINDS = ["sandbox", "mock", "client", "suite"] as const;
type Kind = (typeof KINDS)[number];

const USAGE = `usage: npm run fuzz -- [--runs N] [--seed S] [--server sandbox|mock|client|suite]
  --runs N     hostile requests per server, hostile-upstream scenarios for the client, and one
               whole suite run against a hostile target per 50 (default 2000)
  --seed S     fast-check's seed (default: a random one, always printed)
  --server X   only the sandbox, the mock front, the typed client or the conformance suite (default: all)
  --help       this text

Exit status: 0 nothing found, 1 a property failed (or the run failed), 2 a bad option.`;

const { values } = parseFlags({
  name: "fuzz",
  help: USAGE,
  options: { runs: { type: "string" }, seed: { type: "string" }, server: { type: "string" } },
});

function integer(
  flag: string,
  given: string | undefined,
  fallback: number | undefined,
  min: number,
): number | undefined {
  if (given === undefined) return fallback;
  if (!/^-?\d+$/.test(given) || Number(given) < min || !Number.isSafeInteger(Number(given)))
    throw new UsageError(`${flag}: "${given.slice(0, 40)}" must be an integer of at least ${min}`);
  return Number(given);
}

async function runOne(kind: Kind, runs: number, seed: number | undefined): Promise<boolean> {
  const options = { progress: (line: string) => console.log(line), ...(seed !== undefined ? { seed } : {}) };
  if (kind === "client") {
    const run = await fuzzClient({ runs, ...options });
    for (const line of clientReport(run)) console.log(line);
    return run.failure === undefined;
  }
  if (kind === "suite") {
    const run = await fuzzSuite({ runs: suiteRuns(runs), ...options });
    for (const line of reportSuite(run)) console.log(line);
    return run.failure === undefined;
  }
  const run = await fuzz(kind satisfies FuzzedServer, { runs, ...options });
  for (const line of report(run)) console.log(line);
  return run.failure === undefined;
}

await runCommand("fuzz", async () => {
  const runs = integer("--runs", values.runs, 2000, 1)!;
  const seed = integer("--seed", values.seed, undefined, -(2 ** 31));
  if (values.server !== undefined && !(KINDS as readonly string[]).includes(values.server))
    throw new UsageError(
      `--server: "${values.server.slice(0, 40)}" must be ${KINDS.slice(0, -1).join(", ")} or ${KINDS.at(-1)}`,
    );
  let passed = true;
  for (const kind of values.server ? [values.server as Kind] : KINDS)
    passed = (await runOne(kind, runs, seed)) && passed;
  process.exit(passed ? 0 : 1);
});
