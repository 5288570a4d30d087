/**
 * `npm run test:mutation[:static|:baseline|:ci] [-- STRYKER_OPTIONS]`: the mutation runs
 * (StrykerJS), each a Stryker run of its config, then, for the runs that write the committed
 * incremental result, that result rewritten without the checkout's paths
 * (tests/mutation/relative-report.mjs). `--help` prints what each run does and starts nothing;
 * every other argument goes to Stryker (`--mutate FILES`, ...). Exit: Stryker's, or 1 when CI's run
 * lacks its committed result, 2 for an unknown run.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import mutationVitest from "../tests/mutation/vitest.config.ts";
import { changedInputs, folderScores, mutationInputs, type RecordedResult, staleSources } from "./mutation-inputs.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const INCREMENTAL = "tests/mutation/stryker-incremental.json";
/** What the committed result was made from (scripts/mutation-inputs.ts). */
const INPUTS = "tests/mutation/stryker-incremental.inputs.json";
/** The heap of each of Stryker's processes, in MB: a third of a CI machine's 24 GiB. */
const HEAP_MB = 8192;

interface MutationRun {
  /** Stryker's arguments before the person's own. */
  readonly stryker: readonly string[];
  /** The run writes the committed incremental result: rewrite it without the checkout's paths. */
  readonly writesIncremental: boolean;
  readonly help: string;
}

const RUNS: Record<string, MutationRun> = {
  all: {
    stryker: ["run", "--force"],
    writesIncremental: false,
    help: `usage: npm run test:mutation [-- STRYKER_OPTIONS]

The whole mutation run (stryker.config.mjs): runtime/, the generators, the sandbox's rules and the
conformance checks mutated one change at a time, each against the unit tests that reach it; every
surviving mutant named, a score per folder. About three hours on 2 cores: tests/README.md says how
to run it in parts (--mutate FILES, without --force, keeps earlier parts' results).`,
  },
  static: {
    stryker: ["run", "tests/mutation/stryker-static.config.mjs"],
    writesIncremental: false,
    help: `usage: npm run test:mutation:static -- --mutate FILES [STRYKER_OPTIONS]

The static mutants too (tests/mutation/stryker-static.config.mjs): those set once as a module
loads, each run against the whole unit suite; for the few files a change touched.`,
  },
  baseline: {
    stryker: ["run", "tests/mutation/stryker-ci.config.mjs", "--force"],
    writesIncremental: true,
    help: `usage: npm run test:mutation:baseline [-- STRYKER_OPTIONS]

Writes ${INCREMENTAL} anew: CI's part of the mutation run (tests/mutation/stryker-ci.config.mjs) run whole, about an hour on 2 cores; commit the file.`,
  },
  ci: {
    stryker: ["run", "tests/mutation/stryker-ci.config.mjs"],
    writesIncremental: true,
    help: `usage: npm run test:mutation:ci [-- STRYKER_OPTIONS]

CI's part of the mutation run (runtime/, the sandbox's rules and the folders of HOUSE_IN_CI in
stryker.config.mjs), incremental from the committed ${INCREMENTAL}: only the
mutants whose file or covering tests changed run again. When no mutated file, test file or config
changed since that file was made (${INPUTS} records them), no
mutant would run again and Stryker is not started: the committed result stands, its score per
folder printed (--force runs Stryker all the same). Refuses to start without the file (npm run
test:mutation:baseline writes it).`,
  },
};

function run(command: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve) => {
    // The unmutated run's per-test coverage of the whole scope outgrows Node's default heap (its
    // test process ran out of memory at 5 GB with contract/ and release/ in CI's scope); Stryker's
    // processes inherit the variable.
    const env = {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=${HEAP_MB}`.trim(),
    };
    const child = spawn(command, [...args], { cwd: ROOT, stdio: "inherit", env });
    // Ctrl-C reaches Stryker too (same process group); its exit status is this one's.
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
    child.on("error", (error) => {
      process.stderr.write(`test:mutation: cannot run ${command}: ${error.message}\n`);
      resolve(1);
    });
    child.on("close", (code, signal) => resolve(code ?? (signal ? 128 + 2 : 1)));
  });
}

const [name = "", ...args] = process.argv.slice(2);
const chosen = RUNS[name];
if (!chosen) {
  process.stderr.write(`test:mutation: no run "${name}"; the runs are ${Object.keys(RUNS).join(", ")}\n`);
  process.exit(2);
}
if (args.includes("--help") || args.includes("-h")) {
  console.log(chosen.help);
  process.exit(0);
}
if (name === "ci" && !existsSync(join(ROOT, INCREMENTAL))) {
  process.stderr.write(
    `test:mutation:ci: no ${INCREMENTAL}: run npm run test:mutation:baseline once and commit the file it writes\n`,
  );
  process.exit(1);
}
// Stryker's configs are plain JavaScript (Stryker loads them without a TypeScript loader).
const ciConfig = (await import(new URL("../tests/mutation/stryker-ci.config.mjs", import.meta.url).href)) as {
  default: { mutate: string[] };
};
/** The inputs of CI's run as the checkout has them: its mutated files, the unit tests, the configs. */
const inputsNow = (): Record<string, string> =>
  mutationInputs(ROOT, ciConfig.default.mutate, mutationVitest.test?.include ?? []);
// A run of part of the scope (--mutate) makes no record of the whole; one told to run all (--force) runs.
const wholeScope = !args.some((arg) => arg.startsWith("--mutate"));
if (name === "ci" && wholeScope && !args.includes("--force") && existsSync(join(ROOT, INPUTS))) {
  const report = JSON.parse(readFileSync(join(ROOT, INCREMENTAL), "utf8")) as RecordedResult;
  const changed = [
    ...changedInputs(JSON.parse(readFileSync(join(ROOT, INPUTS), "utf8")), inputsNow()),
    ...staleSources(report, ROOT),
  ];
  if (changed.length === 0) {
    console.log(
      `test:mutation:ci: no mutated file, test file or config changed since ${INCREMENTAL} was made: Stryker would reuse every result, which stands (killed / total):`,
    );
    for (const line of folderScores(report)) console.log(`  ${line}`);
    process.exit(0);
  }
  console.log(
    `test:mutation:ci: changed since the committed result: ${changed.slice(0, 10).join(", ")}${changed.length > 10 ? `, and ${changed.length - 10} more` : ""}`,
  );
}
// Read as Stryker starts, not as it ends: a file changed while it runs (Stryker mutates copies made
// at its start) must show as changed to the next run, which then runs its mutants again.
const inputsAtStart = inputsNow();
const stryker = join(ROOT, "node_modules", ".bin", "stryker");
let code = await run(stryker, [...chosen.stryker, ...args]);
if (code === 0 && chosen.writesIncremental) code = await run(process.execPath, ["tests/mutation/relative-report.mjs"]);
if (code === 0 && chosen.writesIncremental && wholeScope)
  writeFileSync(join(ROOT, INPUTS), `${JSON.stringify(inputsAtStart, null, 2)}\n`);
process.exit(code);
