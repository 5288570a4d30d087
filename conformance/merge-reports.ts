/**
 * The reports of a run split over several machines (`--shard K/N`), merged into one: the results of
 * every shard (a result every shard gave, such as a check outside the sequences, once), the counts
 * and the rules checked made again from them, and the sequences' figures added up, their rule ×
 * condition coverage the union of the shards'.
 */
import { readFileSync } from "node:fs";
import { parseJsonText } from "../tools/json-text.ts";
import { DeclarationError } from "./config.ts";
import { summarize, type Summary } from "./report.ts";
import type { CheckResult } from "./results.ts";
import type { SequencesSummary } from "./sequences/report.ts";

export interface Report {
  readonly summary: Summary;
  readonly results: CheckResult[];
}

/** A conformance.json report `file`, named by `flag` (`--merge`, the docs' `--coverage`) in its errors. */
export function readReport(file: string, flag = "--merge"): Report {
  let parsed: unknown;
  try {
    parsed = parseJsonText(readFileSync(file, "utf8"), file);
  } catch (error) {
    throw new DeclarationError(`${flag} ${file}: ${(error as Error).message}`);
  }
  const report = parsed as Partial<Report>;
  if (typeof report?.summary !== "object" || report.summary === null || !Array.isArray(report.results))
    throw new DeclarationError(`${flag} ${file}: is not a conformance.json report (it needs summary and results)`);
  return report as Report;
}

/** The shards' sequences figures as one: counts added, coverage the union of what each observed. */
function mergeSequences(all: readonly SequencesSummary[]): SequencesSummary | undefined {
  if (all.length === 0) return undefined;
  const seen = new Map<string, Set<string>>();
  const applicable = new Map<string, Set<string>>();
  for (const shard of all)
    for (const rule of shard.coverage.rules) {
      const known = applicable.get(rule.rule) ?? new Set();
      const observed = seen.get(rule.rule) ?? new Set();
      for (const condition of [...rule.seen, ...rule.unseen]) known.add(condition);
      for (const condition of rule.seen) observed.add(condition);
      applicable.set(rule.rule, known);
      seen.set(rule.rule, observed);
    }
  const rules = [...applicable]
    .map(([rule, conditions]) => ({
      rule,
      seen: [...(seen.get(rule) ?? [])].sort() as SequencesSummary["coverage"]["rules"][number]["seen"],
      unseen: [...conditions]
        .filter((condition) => !seen.get(rule)?.has(condition))
        .sort() as SequencesSummary["coverage"]["rules"][number]["unseen"],
    }))
    .sort((a, b) => b.unseen.length - a.unseen.length || a.rule.localeCompare(b.rule));
  const sum = (pick: (shard: SequencesSummary) => number): number =>
    all.reduce((total, shard) => total + pick(shard), 0);
  const notSent: Record<string, string[]> = {};
  for (const shard of all)
    for (const [model, reasons] of Object.entries(shard.notSent))
      notSent[model] = [...new Set([...(notSent[model] ?? []), ...reasons])];
  return {
    seed: all[0]!.seed,
    shard: { index: 0, count: all[0]!.shard.count },
    sequences: {
      tour: sum((shard) => shard.sequences.tour),
      random: sum((shard) => shard.sequences.random),
      run: sum((shard) => shard.sequences.run),
    },
    steps: sum((shard) => shard.steps),
    seconds: Math.max(...all.map((shard) => shard.seconds)),
    notSent,
    coverage: {
      observed: rules.reduce((total, rule) => total + rule.seen.length, 0),
      applicable: rules.reduce((total, rule) => total + rule.seen.length + rule.unseen.length, 0),
      rules,
    },
  };
}

export function mergeReports(reports: readonly Report[]): Report {
  if (reports.length === 0) throw new DeclarationError("--merge: name the reports to merge (a.json,b.json)");
  // A result once, however many shards gave it; a skip not where a shard passed or failed it (the shard that ran it).
  const all = reports.flatMap((report) => report.results);
  const ran = new Set(
    all.filter((result) => result.outcome !== "skip").map((result) => `${result.group} ${result.route} ${result.name}`),
  );
  const results: CheckResult[] = [];
  const given = new Set<string>();
  for (const result of all) {
    const key = JSON.stringify([result.group, result.route, result.name, result.outcome, result.detail]);
    if (given.has(key) || (result.outcome === "skip" && ran.has(`${result.group} ${result.route} ${result.name}`)))
      continue;
    given.add(key);
    results.push(result);
  }
  const summaries = reports.map((report) => report.summary);
  const requests: Record<string, number> = {};
  for (const summary of summaries)
    for (const [key, count] of Object.entries(summary.requests)) requests[key] = (requests[key] ?? 0) + count;
  const sequences = mergeSequences(summaries.flatMap((summary) => (summary.sequences ? [summary.sequences] : [])));
  const summary = summarize(summaries[0]!.target, results, {
    seconds: Math.max(...summaries.map((candidate) => candidate.seconds)),
    requests,
    ...(sequences ? { sequences } : {}),
  });
  return { summary, results };
}
