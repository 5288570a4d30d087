/**
 * `npm run conformance [-- options]`: against the mock (no target) or an implementation. Prints
 * progress while it runs, writes the JSON and JUnit reports also when it is interrupted or out of
 * time, and exits 0 (all passed), 1 (a check failed, or the time limit passed), 2 (a bad
 * declaration, over budget, or the mock or proxy asked of the tools package, which has no Prism) or
 * 128 + the signal's number (interrupted).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { constants } from "node:os";
import { parseArgs } from "node:util";
import { CHECKS } from "./checks/index.ts";
import { commandLine, runtimeFile } from "../tools/packaged.ts";
import { DECLARATION_FIELDS, DeclarationError } from "./config.ts";
import { checkTarget, parseJson, TargetError } from "./http.ts";
import type { StillRunning } from "./jobs.ts";
import { PrismUnavailableError } from "./prism.ts";
import { formatConsole, withResult, writeReports } from "./report.ts";
import { DEFAULT_CASES } from "./generation/generated.ts";
import { runConformance } from "./run.ts";

const OPTIONS = {
  help: { type: "boolean" },
  target: { type: "string" },
  config: { type: "string" },
  timeout: { type: "string" },
  budget: { type: "string" },
  proxy: { type: "boolean" },
  seed: { type: "string" },
  cases: { type: "string" },
  "report-dir": { type: "string" },
} as const;

const HELP = `usage: ${commandLine("conformance")} [options]

Runs the contract checks of the description against the Prism mock (no target) or an implementation.

options (each beside its environment variable; the option wins):
  --target URL        CONFORMANCE_TARGET       base URL of the implementation; without it the mock is started
                      CONFORMANCE_API_KEY      the main key (the declaration's apiKey otherwise)
  --config FILE       CONFORMANCE_CONFIG       the target's JSON declaration (fields below)
                      CONFORMANCE_AREAS, CONFORMANCE_MODELS, CONFORMANCE_SKIP   comma lists, over the declaration's
  --timeout SECONDS   CONFORMANCE_TIMEOUT      time limit of the whole run (declaration: timeoutSeconds)
  --budget CREDITS    CONFORMANCE_BUDGET       refuse to start past this spend (declaration: budgetCredits)
  --proxy             CONFORMANCE_PROXY=on     also run Prism as a validation proxy in front of the target
  --seed N            CONFORMANCE_SEED         seed of the generated requests (printed on every run; random when not given)
  --cases N           CONFORMANCE_CASES        generated negatives and positives per operation (default ${DEFAULT_CASES})
  --report-dir DIR    CONFORMANCE_REPORT_DIR   where conformance.json and conformance.junit.xml go (conformance/reports/)
                      CONFORMANCE_REPORT_JSON, CONFORMANCE_REPORT_JUNIT   the two files' own paths
  --help              this text

declaration fields (${runtimeFile("conformance/README.md")} has the same table; ${runtimeFile("conformance/targets/sandbox.json")} is the sandbox's):
${DECLARATION_FIELDS.map((field) => `  ${field.field.padEnd(20)} ${field.type.replace(/\\/g, "").padEnd(16)} default ${field.default.replace(/`/g, "")}\n      ${field.meaning.replace(/`/g, "")}`).join("\n")}

check groups (skipGroups names them):
${CHECKS.map((check) => `  ${check.group.padEnd(20)} ${check.summary.replace(/`/g, "")}`).join("\n")}
`;

let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>;
try {
  parsed = parseArgs({ options: OPTIONS });
} catch (error) {
  console.error(`conformance: ${(error as Error).message} (${commandLine("conformance")} --help)`);
  process.exit(2);
}
const { values } = parsed;
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

const env = { ...process.env };
const reportDir = values["report-dir"] ?? env.CONFORMANCE_REPORT_DIR ?? "conformance/reports";
const paths = {
  json: env.CONFORMANCE_REPORT_JSON ?? join(reportDir, "conformance.json"),
  junit: env.CONFORMANCE_REPORT_JUNIT ?? join(reportDir, "conformance.junit.xml"),
};

/** A positive number from an option or its variable, or undefined when neither is given. */
function numberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new DeclarationError(`${name}: "${value}" is not a positive number`);
  return number;
}

/** A whole number from `minimum` up to 2^32 - 1 from an option or its variable, or undefined when neither is given. */
function integerOption(name: string, value: string | undefined, minimum: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || number < minimum || number > 2 ** 32 - 1) throw new DeclarationError(`${name}: "${value}" is not a whole number from ${minimum} to ${2 ** 32 - 1}`);
  return number;
}

// Ctrl-C (SIGINT) or a cancelled CI job (SIGTERM) stops the run; its reports are still written.
const interrupt = new AbortController();
let signalled: NodeJS.Signals | undefined;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    // A second signal does not wait for the reports.
    if (signalled) process.exit(128 + constants.signals[signal]);
    signalled = signal;
    interrupt.abort(`interrupted by ${signal}`);
  });
}

// A failure no check caught must not end the process before the reports are written: it stops the run, which fails.
let internalError: string | undefined;
process.on("unhandledRejection", (reason) => {
  internalError ??= reason instanceof Error ? reason.message : String(reason);
  interrupt.abort(`stopped by an error of the suite: ${internalError}`);
});

/** The jobs the last run's report (at the same path) says are still running on this target, if it was this target's and they may still run. */
function earlierJobs(target: string | undefined): StillRunning | undefined {
  if (!target || !existsSync(paths.json)) return undefined;
  const earlier = (parseJson(readFileSync(paths.json, "utf8")) as { summary?: { target?: unknown; stillRunning?: StillRunning } } | undefined)?.summary;
  const left = earlier?.target === target ? earlier.stillRunning : undefined;
  return left && typeof left.until === "number" && left.until > Date.now() ? left : undefined;
}

try {
  const timeout = numberOption("--timeout (CONFORMANCE_TIMEOUT)", values.timeout ?? env.CONFORMANCE_TIMEOUT);
  const budget = numberOption("--budget (CONFORMANCE_BUDGET)", values.budget ?? env.CONFORMANCE_BUDGET);
  const seed = integerOption("--seed (CONFORMANCE_SEED)", values.seed ?? env.CONFORMANCE_SEED, 0);
  const cases = integerOption("--cases (CONFORMANCE_CASES)", values.cases ?? env.CONFORMANCE_CASES, 1);
  const given = values.target ?? env.CONFORMANCE_TARGET;
  const target = given ? await checkTarget(values.target !== undefined ? "--target" : "CONFORMANCE_TARGET", given) : undefined;
  const earlier = earlierJobs(target);
  if (earlier) console.log(`the last run on ${target} left ${earlier.jobs} jobs that may run until ${new Date(earlier.until).toISOString()}: a queue-full 429 below the cap until then is not held against the target`);
  const outcome = await runConformance(
    {
      ...(target ? { target } : {}),
      ...(earlier ? { earlierJobs: earlier } : {}),
      ...(values.config !== undefined ? { configFile: values.config } : {}),
      ...(env.CONFORMANCE_API_KEY ? { apiKey: env.CONFORMANCE_API_KEY } : {}),
      proxy: values.proxy === true || env.CONFORMANCE_PROXY === "on",
      signal: interrupt.signal,
      progress: (line) => console.log(line),
      overrides: {
        ...(timeout !== undefined ? { timeoutSeconds: timeout } : {}),
        ...(budget !== undefined ? { budgetCredits: budget } : {}),
        generated: { ...(seed !== undefined ? { seed } : {}), ...(cases !== undefined ? { cases } : {}) },
      },
    },
    env,
  );
  const { summary, results } =
    internalError === undefined ? outcome : withResult(outcome.summary, outcome.results, { group: "run", route: "*", name: "the run finishes", outcome: "fail", detail: `stopped by an error of the suite: ${internalError}` });
  console.log(formatConsole(summary, results));
  writeReports(paths, summary, results);
  console.log(`reports: ${paths.json}, ${paths.junit}`);
  process.exitCode = signalled ? 128 + constants.signals[signalled] : summary.fail > 0 ? 1 : 0;
} catch (error) {
  const shown = error instanceof DeclarationError || error instanceof PrismUnavailableError || error instanceof TargetError ? error.message : ((error as Error).stack ?? String(error));
  console.error(`conformance run failed: ${shown}`);
  process.exitCode = 2;
}
// Prism children are stopped; nothing else should keep the process, but a hung socket must not either.
process.exit();
