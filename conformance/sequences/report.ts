/**
 * What the reports say of the sequence phase: how many sequences and steps ran (the tour, the random
 * ones, the seed, the shard), and rule × condition coverage, the rules seen in fewer conditions than
 * apply named with the conditions they were not seen in. The same figures on the console, in the
 * JSON report (`summary.sequences`, from which shards' reports merge) and in the JUnit report.
 */
import type { RuleCoverage } from "./coverage.ts";
import type { PhaseOutcome } from "./phase.ts";

export interface SequencesSummary {
  readonly seed: number;
  readonly shard: { readonly index: number; readonly count: number };
  readonly sequences: { readonly tour: number; readonly random: number; readonly run: number };
  readonly steps: number;
  readonly seconds: number;
  /** Creates the phase did not send, by model label, each with why. */
  readonly notSent: Readonly<Record<string, readonly string[]>>;
  /** Rule × condition pairs observed, of those that apply; each rule with the conditions seen and not seen. */
  readonly coverage: {
    readonly observed: number;
    readonly applicable: number;
    readonly rules: readonly RuleCoverage[];
  };
}

export function sequencesSummary(
  outcome: PhaseOutcome,
  seed: number,
  shard: SequencesSummary["shard"],
): SequencesSummary {
  const { phase } = outcome;
  return {
    seed,
    shard,
    sequences: { tour: outcome.tourSequences, random: outcome.randomSequences, run: phase.sequencesRun },
    steps: phase.steps,
    seconds: outcome.seconds,
    notSent: Object.fromEntries([...phase.skipped].map(([model, reasons]) => [model, [...reasons]])),
    coverage: { ...phase.coverage.totals(), rules: phase.coverage.rules() },
  };
}

/** The rules short of their conditions, the most short first. */
export const shortRules = (summary: SequencesSummary): readonly RuleCoverage[] =>
  summary.coverage.rules.filter((rule) => rule.unseen.length > 0);

/** Rules named on the console, at most; the JSON and JUnit reports name them all. */
const SHOWN = 8;

export function sequencesLines(summary: SequencesSummary): string[] {
  const { sequences, coverage, shard } = summary;
  const lines = [
    `sequences: ${sequences.run} run (${sequences.tour} of the tour, ${sequences.random} random, seed ${summary.seed}${shard.count > 1 ? (shard.index === 0 ? `, ${shard.count} shards merged` : `, shard ${shard.index}/${shard.count}`) : ""}), ${summary.steps} steps, in ${summary.seconds.toFixed(1)} s; rule × condition coverage ${coverage.observed} of ${coverage.applicable}`,
  ];
  for (const [model, reasons] of Object.entries(summary.notSent))
    lines.push(`  creates of ${model} not sent where ${reasons.join("; or where ")}`);
  const shortOf = shortRules(summary);
  if (shortOf.length) {
    lines.push(`  ${shortOf.length} rules seen in fewer conditions than apply:`);
    for (const rule of shortOf.slice(0, SHOWN)) lines.push(`    ${rule.rule}: not seen with ${rule.unseen.join(", ")}`);
    if (shortOf.length > SHOWN)
      lines.push(`    and ${shortOf.length - SHOWN} more (conformance.json: summary.sequences)`);
  }
  return lines;
}

/** A JUnit suite of its own: one skipped case per rule short of its conditions, the counts as properties. */
export function sequencesTestSuite(summary: SequencesSummary, xml: (text: string) => string): string {
  const shortOf = shortRules(summary);
  const cases = shortOf.map(
    (rule) =>
      `    <testcase classname="conformance.sequence-coverage" name="${xml(rule.rule)}"><skipped message="${xml(`not seen with ${rule.unseen.join(", ")}`)}"/></testcase>`,
  );
  const properties = [
    ["seed", summary.seed],
    ["sequences", summary.sequences.run],
    ["steps", summary.steps],
    ["conditions observed", summary.coverage.observed],
    ["conditions applicable", summary.coverage.applicable],
  ]
    .map(([name, value]) => `<property name="${xml(String(name))}" value="${xml(String(value))}"/>`)
    .join("");
  return [
    `  <testsuite name="conformance.sequence-coverage" tests="${shortOf.length}" failures="0" skipped="${shortOf.length}">`,
    `    <properties>${properties}</properties>`,
    ...cases,
    "  </testsuite>",
  ].join("\n");
}
