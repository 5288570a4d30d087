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
import { CHECKS } from "./checks/index.ts";
import { POOL_RENEWAL_MS } from "./checks/plan-prices.ts";
import { parseFlags } from "../tools/command.ts";
import { commandLine, runtimeFile } from "../tools/packaged.ts";
import { DeclarationError, fieldsHelp, generatedSettings, optionsHelp, parseArgsOptions } from "./config.ts";
import { parseJson, targetUrl, TargetError } from "./http.ts";
import type { StillRunning } from "./jobs.ts";
import { PrismUnavailableError } from "../mock/prism.ts";
import { mergeReports, readReport } from "./merge-reports.ts";
import { formatConsole, withResult, writeReports } from "./report.ts";
import { runConformance } from "./run.ts";
import { escapeForTerminal, redactor, urlCredentials, withoutCredentials } from "./shown-text.ts";

const HELP = `usage: ${commandLine("conformance")} [options]

Runs the contract checks of the description against the Prism mock (no target) or an implementation.

options (each beside its environment variable; a flag wins over its variable, a variable over the declaration):
${optionsHelp()}

declaration fields (${runtimeFile("conformance/README.md")} has the same table; ${runtimeFile("conformance/targets/sandbox.json")} is the sandbox's):
${fieldsHelp()}

check groups (skipGroups names them):
${CHECKS.map((check) => `  ${check.group.padEnd(22)} ${check.summary.replace(/`/g, "")}`).join("\n")}
`;

const { values } = parseFlags({ name: "conformance", help: HELP, options: parseArgsOptions() }) as {
  values: Record<string, string | boolean | undefined>;
};

const env = { ...process.env };
const reportDir = (values["report-dir"] as string | undefined) ?? env.CONFORMANCE_REPORT_DIR ?? "conformance/reports";
const paths = {
  json: env.CONFORMANCE_REPORT_JSON ?? join(reportDir, "conformance.json"),
  junit: env.CONFORMANCE_REPORT_JUNIT ?? join(reportDir, "conformance.junit.xml"),
};

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

const given = (values.target as string | undefined) ?? env.CONFORMANCE_TARGET;
// The keys and credentials known before the declaration is read; the run redacts the declaration's too.
const redact = redactor([env.CONFORMANCE_API_KEY, ...urlCredentials(given)]);
const shown = (text: string): string => escapeForTerminal(redact(text));

/** The last run's report (at the same path), if it was this target's. */
function earlierRun(target: string | undefined): { stillRunning?: StillRunning; freePoolUsedAt?: unknown } | undefined {
  if (!target || !existsSync(paths.json)) return undefined;
  const earlier = (
    parseJson(readFileSync(paths.json, "utf8")) as
      | { summary?: { target?: unknown; stillRunning?: StillRunning; freePoolUsedAt?: unknown } }
      | undefined
  )?.summary;
  return earlier?.target === withoutCredentials(target) ? earlier : undefined;
}

/** The jobs the last run on this target says are still running, if they may still run. */
function earlierJobs(target: string | undefined): StillRunning | undefined {
  const left = earlierRun(target)?.stillRunning;
  return left && typeof left.until === "number" && left.until > Date.now() ? left : undefined;
}

/** When the last run on this target used the freePool key's pool, if within the last day (the pool may not be renewed yet). */
function earlierFreePoolUse(target: string | undefined): number | undefined {
  const used = earlierRun(target)?.freePoolUsedAt;
  return typeof used === "number" && Date.now() - used < POOL_RENEWAL_MS ? used : undefined;
}

// `--merge a.json,b.json`: the reports of a run's shards as one; no run.
if (typeof values.merge === "string") {
  try {
    const { summary, results } = mergeReports(values.merge.split(",").map((file) => readReport(file.trim())));
    console.log(formatConsole(summary, results));
    console.log(`reports: ${writeReports(paths, summary, results).join(", ")}`);
    process.exit(summary.fail > 0 ? 1 : 0);
  } catch (error) {
    if (!(error instanceof DeclarationError)) throw error;
    console.error(`conformance run failed: ${shown(error.message)}`);
    process.exit(2);
  }
}

try {
  const generated = generatedSettings(env, values);
  const targetName = values.target !== undefined ? "--target" : "CONFORMANCE_TARGET";
  const target = given ? targetUrl(targetName, given, shown) : undefined;
  const earlier = earlierJobs(target);
  const poolUsed = earlierFreePoolUse(target);
  if (earlier)
    console.log(
      `the last run on ${withoutCredentials(target as string)} left ${earlier.jobs} jobs that may run until ${new Date(earlier.until).toISOString()}: a queue-full 429 below the cap until then is not held against the target`,
    );
  const outcome = await runConformance(
    {
      ...(target ? { target, targetName } : {}),
      ...(earlier ? { earlierJobs: earlier } : {}),
      ...(poolUsed !== undefined ? { earlierFreePoolUse: poolUsed } : {}),
      ...(values.config !== undefined ? { configFile: values.config as string } : {}),
      flags: values,
      proxy: values.proxy === true || env.CONFORMANCE_PROXY === "on",
      signal: interrupt.signal,
      progress: (line) => console.log(line),
      overrides: { generated },
    },
    env,
  );
  const { summary, results } =
    internalError === undefined
      ? outcome
      : withResult(outcome.summary, outcome.results, {
          group: "run",
          route: "*",
          name: "the run finishes",
          outcome: "fail",
          detail: shown(`stopped by an error of the suite: ${internalError}`),
        });
  console.log(formatConsole(summary, results));
  console.log(`reports: ${writeReports(paths, summary, results).join(", ")}`);
  process.exitCode = signalled ? 128 + constants.signals[signalled] : summary.fail > 0 ? 1 : 0;
} catch (error) {
  const message =
    error instanceof DeclarationError || error instanceof PrismUnavailableError || error instanceof TargetError
      ? error.message
      : ((error as Error).stack ?? String(error));
  console.error(`conformance run failed: ${shown(message)}`);
  process.exitCode = 2;
}
// Prism children are stopped; nothing else should keep the process, but a hung socket must not either.
process.exit();
