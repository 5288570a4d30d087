/**
 * The rule catalogue (spec/rules.yaml) and the statements of the specification it must cover.
 *
 * What counts as a statement (a "unit"), so that no sentence can be skipped silently:
 * - every body row of every table (a table row is one unit, whatever its cells say);
 * - every sentence of every paragraph and of every numbered or bulleted list item, sentences being
 *   split after a full stop followed by a space and a capital letter, a backtick, `(` or `*`;
 * - not headings (`#`, `##`, `###`), table header rows and separator rows: they name, they state nothing.
 * An entry's words must occur verbatim exactly once among the lines of the section it names; they
 * cover every unit they overlap there (words may run across a sentence's end, to name one sentence
 * of several alike, such as the two "No `Retry-After`." of Errors). A unit no entry covers fails. The informative entries are the few
 * sentences no implementation can honour or break, each with its reason.
 * A rule states one thing: its words lie within one unit (a sentence may hold two statements, each
 * its own rule), save for the tail of the sentence before, quoted only to name one of such twins.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runtimeFile } from "../model/runtime-files.ts";

/** Only tests read the specification itself. */
export const SPEC_FILE = fileURLToPath(new URL("./media-service-spec.md", import.meta.url));
/**
 * The catalogue as the tools read it at run time (the conformance report's rule count): the JSON
 * that `npm run generate` makes of spec/rules.yaml (catalogue-source.ts reads the YAML), so that
 * no YAML parser goes into the tools' bundle.
 */
export const CATALOGUE_FILE = runtimeFile("generated/rules.json");

/** One statement of the specification: a table row or a sentence, with its line and section. */
export interface SpecUnit {
  readonly line: number;
  readonly section: string;
  readonly text: string;
  /** The whole line (trimmed), and where `text` starts in it. */
  readonly source: string;
  readonly start: number;
}

export interface Rule {
  readonly id: string;
  readonly section: string;
  /** The specification's own words: they occur verbatim in one unit of `section`. */
  readonly words: string;
  /** JSON pointers into the bundled description (generated/openapi.json) that encode the rule. */
  readonly openapi?: readonly string[];
  /** Why the description cannot encode it. */
  readonly "openapi-none"?: string;
  /** The sandbox files that implement it (paths from the repository root). */
  readonly sandbox?: readonly string[];
  /** Why no check of the conformance suite observes it: only for rules no check names. */
  readonly unchecked?: string;
  /**
   * With `unchecked`: false when no client holding the declared keys can see it, in an answer of the
   * service or in a result file an answer links to (what media depicts, the web application, the dashboard).
   */
  readonly observable?: boolean;
  /** With `unchecked`: the declaration field that would make it observable. */
  readonly declare?: string;
}

export interface Informative {
  readonly section: string;
  readonly words: string;
  readonly reason: string;
}

export interface Catalogue {
  readonly rules: readonly Rule[];
  readonly informative: readonly Informative[];
}

const SENTENCE_END = /(?<=\.)\s+(?=[A-Z0-9`(*])/;

/** The units of a specification's text, each with its 1-based line and section. */
export function specUnits(text: string): SpecUnit[] {
  const units: SpecUnit[] = [];
  const heads: string[] = [];
  let variant = "";
  let inTable = false;
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    const heading = /^(#+)\s+(.*)$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      heads.length = Math.max(0, level - 2);
      if (level >= 2) heads[level - 2] = heading[2]!;
      variant = "";
      inTable = false;
      return;
    }
    if (line === "") {
      inTable = false;
      return;
    }
    const section = sectionOf(heads, variant);
    if (line.startsWith("|")) {
      // The first row of a table is its header, the second its separator.
      if (!inTable || /^\|[-| :]+\|$/.test(line)) {
        inTable = true;
        return;
      }
      units.push({ line: index + 1, section, text: line, source: line, start: 0 });
      return;
    }
    const bold = /^\*\*([^*]+)\*\*/.exec(line);
    if (bold) variant = bold[1]!;
    const marker = /^(\d+\.|-)\s+/.exec(line)?.[0].length ?? 0;
    let from = marker;
    for (const sentence of line.slice(marker).split(SENTENCE_END)) {
      const start = line.indexOf(sentence, from);
      units.push({ line: index + 1, section: sectionOf(heads, variant), text: sentence, source: line, start });
      from = start + sentence.length;
    }
  });
  return units;
}

function sectionOf(heads: readonly string[], variant: string): string {
  const path = heads.filter(Boolean);
  if (path.length === 0) path.push("Conventions");
  if (variant) path.push(variant);
  return path.join(" / ");
}

export function readSpecUnits(file = SPEC_FILE): SpecUnit[] {
  return specUnits(readFileSync(file, "utf8"));
}

export class CatalogueError extends Error {}

/** The catalogue of the generated JSON. */
export function readCatalogue(file = CATALOGUE_FILE): Catalogue {
  return checkedCatalogue(JSON.parse(readFileSync(file, "utf8")), file);
}

/** `data` as a catalogue; throws naming the file and the entry on a wrong shape. */
export function checkedCatalogue(value: unknown, file: string): Catalogue {
  const data = value as { rules?: unknown; informative?: unknown } | null;
  if (!Array.isArray(data?.rules) || !Array.isArray(data?.informative))
    throw new CatalogueError(`${file}: must have the lists rules and informative`);
  for (const [index, rule] of (data.rules as Rule[]).entries()) {
    for (const field of ["id", "section", "words"] as const) {
      if (typeof rule?.[field] !== "string")
        throw new CatalogueError(`${file}: rules[${index}] (${String(rule?.id)}) needs the text ${field}`);
    }
  }
  for (const [index, entry] of (data.informative as Informative[]).entries()) {
    for (const field of ["section", "words", "reason"] as const) {
      if (typeof entry?.[field] !== "string")
        throw new CatalogueError(`${file}: informative[${index}] needs the text ${field}`);
    }
  }
  return data as Catalogue;
}

/** Where `words` occur among the lines of `section`: each occurrence as a line and an offset. */
function occurrences(units: readonly SpecUnit[], section: string, words: string): Array<{ line: number; at: number }> {
  const lines = new Map<number, string>();
  for (const unit of units) if (unit.section === section) lines.set(unit.line, unit.source);
  const found: Array<{ line: number; at: number }> = [];
  for (const [line, source] of lines) {
    for (let at = source.indexOf(words); at >= 0; at = source.indexOf(words, at + 1)) found.push({ line, at });
  }
  return found;
}

/** The units a catalogue entry covers: none when its words are not found once in its section. */
export function coveredUnits(units: readonly SpecUnit[], entry: { section: string; words: string }): SpecUnit[] {
  const found = occurrences(units, entry.section, entry.words);
  if (found.length !== 1 || entry.words === "") return [];
  const { line, at } = found[0]!;
  return units.filter(
    (unit) =>
      unit.section === entry.section &&
      unit.line === line &&
      unit.start < at + entry.words.length &&
      at < unit.start + unit.text.length,
  );
}

/** Problems of the catalogue against the specification: uncovered statements, words not found once, ids twice. */
export function coverageProblems(units: readonly SpecUnit[], catalogue: Catalogue): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const rule of catalogue.rules) {
    if (ids.has(rule.id)) problems.push(`rule ${rule.id} is catalogued twice`);
    ids.add(rule.id);
  }
  const covered = new Set<SpecUnit>();
  const entries = [
    ...catalogue.rules.map((rule) => ({ label: `rule ${rule.id}`, ...rule })),
    ...catalogue.informative.map((entry) => ({ label: `informative "${entry.words}"`, ...entry })),
  ];
  for (const entry of entries) {
    const found = occurrences(units, entry.section, entry.words);
    if (found.length === 0)
      problems.push(
        `${entry.label}: its words no longer occur in the specification's section "${entry.section}": ${entry.words}`,
      );
    else if (found.length > 1)
      problems.push(
        `${entry.label}: its words occur ${found.length} times in "${entry.section}" (lines ${found.map((place) => place.line).join(", ")}); quote enough to name one`,
      );
    for (const unit of coveredUnits(units, entry)) covered.add(unit);
  }
  for (const unit of units) {
    if (!covered.has(unit))
      problems.push(
        `line ${unit.line} (${unit.section}) states something no entry of spec/rules.yaml covers: ${unit.text}`,
      );
  }
  return problems;
}

/**
 * Rules whose words join several statements (units), each as a problem naming them: words may run
 * into a second unit only from the tail of the one before, to name a sentence that occurs more than
 * once in its section (the Errors section's two "No `Retry-After`.").
 */
export function joinedStatements(units: readonly SpecUnit[], catalogue: Catalogue): string[] {
  return catalogue.rules.flatMap((rule) => {
    const covered = coveredUnits(units, rule);
    if (covered.length < 2) return [];
    const [first, named] = covered as [SpecUnit, SpecUnit];
    const twins = units.filter((unit) => unit.section === named.section && unit.text === named.text).length;
    const fromTail = !first.source.slice(first.start).startsWith(rule.words);
    if (covered.length === 2 && twins > 1 && fromTail && rule.words.endsWith(named.text)) return [];
    return [
      `rule ${rule.id} joins ${covered.length} statements (${covered.map((unit) => JSON.stringify(unit.text)).join(", ")}): one rule per statement`,
    ];
  });
}
