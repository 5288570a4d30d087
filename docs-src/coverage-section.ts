/**
 * The rules page of a site built with `--coverage REPORT`: the rule × condition coverage of a
 * conformance run's sequence phase at its end, the rules the run saw in fewer conditions than apply
 * listed with the conditions it did not see them in, as the run's console, JSON and JUnit reports
 * list them. What a report holds came from a run against some target: it is shown as text, never
 * as Markdown or HTML of its own.
 */
import { basename } from "node:path";
import { readReport } from "../conformance/merge-reports.ts";
import { shortRules, type SequencesSummary } from "../conformance/sequences/report.ts";
import { withoutCredentials } from "../conformance/shown-text.ts";
import { UsageError } from "../tools/command.ts";
import { markdownTable } from "./markdown-table.ts";

/** The run a coverage section is made from: its target and its sequence phase's figures. */
export interface CoverageRun {
  /** The report's file name. */
  readonly file: string;
  readonly target: string;
  readonly sequences: SequencesSummary;
}

const strings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

/** The sequence phase's coverage of the conformance.json report `file`; a UsageError names what is missing. */
export function readCoverageRun(file: string): CoverageRun {
  let report: ReturnType<typeof readReport>;
  try {
    report = readReport(file, "--coverage");
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { target, sequences } = report.summary;
  const where = `--coverage ${file}: summary.sequences`;
  if (sequences === undefined)
    throw new UsageError(
      `${where} is absent: the run had no sequence phase (a run against the mock, or one that skipped the group sequences)`,
    );
  const rules: unknown = sequences.coverage?.rules;
  if (!Array.isArray(rules)) throw new UsageError(`${where}.coverage.rules must be a list`);
  for (const [index, rule] of (rules as Array<Partial<Record<"rule" | "seen" | "unseen", unknown>> | null>).entries())
    if (typeof rule?.rule !== "string" || !strings(rule.seen) || !strings(rule.unseen))
      throw new UsageError(
        `${where}.coverage.rules[${index}] must have a rule id and lists seen and unseen of conditions`,
      );
  const { observed, applicable } = sequences.coverage;
  if (!Number.isInteger(observed) || !Number.isInteger(applicable))
    throw new UsageError(`${where}.coverage must have the whole numbers observed and applicable`);
  // A report written by hand may name its target with a password; a page names no local folder.
  return { file: basename(file), target: withoutCredentials(String(target)), sequences };
}

/** Text from the report in a code span: a backtick in it cannot end the span early. */
const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;

/** The section the rules page ends with. */
export function coverageSection({ file, target, sequences }: CoverageRun): string {
  const { coverage, sequences: counts } = sequences;
  const short = shortRules(sequences);
  const lines = [
    "## Rule × condition coverage of a run",
    "",
    `The sequence phase of the conformance run against ${code(target)} (${code(file)}, seed ${sequences.seed}): ${counts.run} sequences, ${sequences.steps} steps, ${coverage.observed} of ${coverage.applicable} rule × condition pairs observed.`,
    "",
  ];
  if (short.length === 0)
    lines.push("It saw every rule in every condition that applies to it given the target's declaration.");
  else
    lines.push(
      `${short.length} ${short.length === 1 ? "rule was" : "rules were"} seen in fewer conditions than apply:`,
      "",
      markdownTable(
        ["rule", "not seen with", "seen with"],
        short.map((rule) => [
          code(rule.rule),
          rule.unseen.map(code).join(", "),
          rule.seen.map(code).join(", ") || "none",
        ]),
      ),
    );
  return `${lines.join("\n")}\n`;
}
