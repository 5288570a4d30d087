/** The run's report: failures on the console with their curl command, and JSON and JUnit XML files. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SpendTotal } from "./cost.ts";
import type { StillRunning } from "./jobs.ts";
import { CHECKS } from "./checks/index.ts";
import type { CheckResult, Outcome } from "./results.ts";
import { ruleCoverage, type RuleCoverage } from "./rules.ts";
import { rulesLine, rulesTestSuite, uncheckedLines } from "./rules-report.ts";
import { sequencesLines, sequencesTestSuite, shortRules, type SequencesSummary } from "./sequences/report.ts";

/** What the run spent: by the quotes of what it saw charged, and as the balance measured it. */
export interface Spent {
  byQuote: SpendTotal;
  /** How much total_available fell between the run's first and last reading, where it could be read. */
  measured: number | null;
}

export interface Summary {
  target: string;
  pass: number;
  fail: number;
  skip: number;
  byGroup: Record<string, Record<Outcome, number>>;
  seconds: number;
  /** Requests sent with each key (`main`, `free plan`, ...). */
  requests: Record<string, number>;
  /** Why the run stopped before its checks finished (interrupted, out of time). */
  stopped?: string;
  spent?: Spent;
  /** The main account's jobs this run (or an earlier one) left running, and until when they may run: the next run's cap may be partly taken until then. */
  stillRunning?: StillRunning;
  /** When this run (or an earlier one) used the freePool key's day's pool, in milliseconds since the epoch: the next run's pool check waits a day. */
  freePoolUsedAt?: number;
  /** The specification's rules the run checked (spec/rules.yaml), and those it did not, each with why. */
  rules?: RuleCoverage;
  /** The sequence phase's sequences and steps, and its rule × condition coverage, where it ran. */
  sequences?: SequencesSummary;
}

export function summarize(
  target: string,
  results: CheckResult[],
  extra: Pick<Summary, "seconds" | "requests" | "stopped" | "spent" | "stillRunning" | "freePoolUsedAt" | "sequences">,
): Summary {
  const byGroup: Summary["byGroup"] = {};
  for (const result of results) {
    const counts = (byGroup[result.group] ??= { pass: 0, fail: 0, skip: 0 });
    counts[result.outcome]++;
  }
  const count = (outcome: Outcome): number => results.filter((result) => result.outcome === outcome).length;
  return {
    target,
    pass: count("pass"),
    fail: count("fail"),
    skip: count("skip"),
    byGroup,
    rules: ruleCoverage(results, CHECKS),
    ...extra,
  };
}

/** The summary and results with one result more (a failure seen after the checks, such as an error of the suite itself). */
export function withResult(
  summary: Summary,
  results: CheckResult[],
  result: CheckResult,
): { summary: Summary; results: CheckResult[] } {
  const counts = { ...(summary.byGroup[result.group] ?? { pass: 0, fail: 0, skip: 0 }) };
  counts[result.outcome]++;
  return {
    summary: {
      ...summary,
      [result.outcome]: summary[result.outcome] + 1,
      byGroup: { ...summary.byGroup, [result.group]: counts },
    },
    results: [...results, result],
  };
}

const SKIP_ROUTES_SHOWN = 4;

/** `: ROUTE, ROUTE and N more`, or nothing when no route is named. */
function routeList(routes: readonly string[]): string {
  if (routes.length === 0) return "";
  const shown = routes.slice(0, SKIP_ROUTES_SHOWN).join(", ");
  return `: ${shown}${routes.length > SKIP_ROUTES_SHOWN ? ` and ${routes.length - SKIP_ROUTES_SHOWN} more` : ""}`;
}

export function formatConsole(summary: Summary, results: CheckResult[]): string {
  const lines: string[] = [];
  for (const failure of results.filter((result) => result.outcome === "fail")) {
    lines.push(`FAIL [${failure.group}] ${failure.route}: ${failure.name}`, `  rule broken: ${failure.detail ?? ""}`);
    if (failure.curl) lines.push(`  reproduce:   ${failure.curl}`);
  }
  // Skips are many and repetitive (one per route): one line per group and reason keeps them readable,
  // naming the routes it concerns (the first few, where many share a reason).
  const skips = new Map<string, { count: number; routes: Set<string> }>();
  for (const skip of results.filter((result) => result.outcome === "skip")) {
    const key = `[${skip.group}] ${skip.detail ?? ""}`;
    const entry = skips.get(key) ?? { count: 0, routes: new Set<string>() };
    entry.count += 1;
    if (skip.route) entry.routes.add(skip.route);
    skips.set(key, entry);
  }
  for (const [key, { count, routes }] of skips)
    lines.push(`SKIP ${key} (${count} check${count === 1 ? "" : "s"}${routeList([...routes])})`);
  lines.push(
    "",
    `conformance of ${summary.target}: ${summary.pass} passed, ${summary.fail} failed, ${summary.skip} skipped, in ${summary.seconds.toFixed(1)} s`,
  );
  lines.push(
    `  requests sent: ${Object.entries(summary.requests)
      .map(([key, count]) => `${count} with the ${key} key`)
      .join(", ")}`,
  );
  if (summary.stopped) lines.push(`  stopped early: ${summary.stopped}`);
  if (summary.spent) {
    const { byQuote, measured } = summary.spent;
    const unpriced = byQuote.unpriced.length
      ? `, plus ${byQuote.unpriced.length} request${byQuote.unpriced.length === 1 ? "" : "s"} whose price the description does not show`
      : "";
    lines.push(
      `  credits spent: the quotes of ${byQuote.requests} charged requests come to ${byQuote.atMost ? "at most " : ""}${byQuote.credits}${unpriced}${measured === null ? "" : `; the balance fell by ${measured} (prices held for unfinished jobs included)`}`,
    );
  }
  if (summary.stillRunning) {
    const { jobs, routes, until } = summary.stillRunning;
    const seconds = Math.max(0, Math.ceil((until - Date.now()) / 1000));
    lines.push(
      `  still running: ${jobs} job${jobs === 1 ? "" : "s"} of the main account never seen ending (${routes.join(", ")}) may run until ${new Date(until).toISOString()} (${seconds} s from now), holding slots of its concurrency cap: wait that long before the next run`,
    );
  }
  for (const [group, counts] of Object.entries(summary.byGroup)) {
    lines.push(`  ${group.padEnd(20)} ${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped`);
  }
  if (summary.rules) lines.push(rulesLine(summary.rules), ...uncheckedLines(summary.rules));
  if (summary.sequences) lines.push(...sequencesLines(summary.sequences));
  return lines.join("\n");
}

/** Escapes text for XML 1.0, dropping the characters it cannot hold (C0 controls, U+FFFE/U+FFFF, lone surrogates). */
const xml = (text: string): string =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      "",
    );

export function junitXml(summary: Summary, results: CheckResult[]): string {
  const suites = Object.keys(summary.byGroup).map((group) => {
    const cases = results.filter((result) => result.group === group);
    const counts = summary.byGroup[group] as Record<Outcome, number>;
    const body = cases.map((result) => {
      const name = xml(`${result.route}: ${result.name}`);
      // The rules it observes, as a property (JUnit's place for facts about a case).
      const rules = result.rules?.length
        ? `<properties><property name="rules" value="${xml(result.rules.join(" "))}"/></properties>`
        : "";
      const open = `    <testcase classname="conformance.${xml(group)}" name="${name}">${rules}`;
      if (result.outcome === "pass")
        return rules ? `${open}</testcase>` : `    <testcase classname="conformance.${xml(group)}" name="${name}"/>`;
      if (result.outcome === "skip") return `${open}<skipped message="${xml(result.detail ?? "")}"/></testcase>`;
      const text = [result.detail, result.curl && `reproduce: ${result.curl}`].filter(Boolean).join("\n");
      return `${open}<failure message="${xml(result.detail ?? "")}">${xml(text)}</failure></testcase>`;
    });
    return [
      `  <testsuite name="${xml(group)}" tests="${cases.length}" failures="${counts.fail}" skipped="${counts.skip}">`,
      ...body,
      "  </testsuite>",
    ].join("\n");
  });
  // The rules not checked, and those the sequences saw in fewer conditions than apply, are skipped test cases of suites of their own.
  const notChecked =
    (summary.rules?.unchecked.length ?? 0) + (summary.sequences ? shortRules(summary.sequences).length : 0);
  if (summary.rules) suites.push(rulesTestSuite(summary.rules, xml));
  if (summary.sequences) suites.push(sequencesTestSuite(summary.sequences, xml));
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="conformance" tests="${results.length + notChecked}" failures="${summary.fail}" skipped="${summary.skip + notChecked}">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}

/** Writes the reports, and beside them a failing sequence's curl script; the paths written. */
export function writeReports(
  paths: { json: string; junit: string },
  summary: Summary,
  results: CheckResult[],
): string[] {
  for (const file of [paths.json, paths.junit]) mkdirSync(dirname(file), { recursive: true });
  writeFileSync(paths.json, `${JSON.stringify({ summary, results }, null, 2)}\n`);
  writeFileSync(paths.junit, junitXml(summary, results));
  const failing = results.find((result) => result.group === "sequences" && result.outcome === "fail" && result.curl);
  if (!failing) return [paths.json, paths.junit];
  const script = join(dirname(paths.json), SEQUENCE_SCRIPT);
  writeFileSync(script, failing.curl!, { mode: 0o755 });
  return [paths.json, paths.junit, script];
}

/** The file a failing sequence's curl script is written to, beside the reports. */
export const SEQUENCE_SCRIPT = "sequence-failure.sh";
