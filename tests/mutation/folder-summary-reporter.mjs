// @ts-check
/**
 * A Stryker reporter: each surviving mutant as soon as it is found (a long run's survivors can be
 * worked on before it ends), in reports/mutation/survivors.txt, and at the end a short summary per
 * folder: killed / total (timeouts count as killed, as in Stryker's score; mutants the type check
 * rejected or a `// Stryker disable` comment marks are not counted), the score, and each survivor.
 * Plain JavaScript: Stryker loads its plugins with Node, without a TypeScript loader.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";

const OUT = "reports/mutation";
const KILLED = new Set(["Killed", "Timeout"]);
const LIVE = new Set(["Survived", "NoCoverage"]);

/** Lines and columns are 1-based in both events (Stryker converts its 0-based ones for reporters). @param {{ fileName: string, location: { start: { line: number, column: number } }, mutatorName: string, replacement?: string, status: string }} mutant @param {string} file */
const describe = (mutant, file) =>
  `${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName}${mutant.status === "NoCoverage" ? " (no test reaches it)" : ""}: ${(mutant.replacement ?? "").replace(/\s+/g, " ").slice(0, 100)}`;

class FolderSummaryReporter {
  static inject = /** @type {const} */ ([]);

  constructor() {
    mkdirSync(OUT, { recursive: true });
    writeFileSync(`${OUT}/survivors.txt`, "");
  }

  /** @param {any} result */
  onMutantTested(result) {
    if (LIVE.has(result.status))
      appendFileSync(`${OUT}/survivors.txt`, `${describe(result, relative(process.cwd(), result.fileName))}\n`);
  }

  /** @param {any} report */
  onMutationTestReportReady(report) {
    /** @type {Map<string, { killed: number, total: number, survivors: string[] }>} */
    const folders = new Map();
    for (const [file, { mutants }] of Object.entries(report.files)) {
      const folder = dirname(file);
      const entry = folders.get(folder) ?? { killed: 0, total: 0, survivors: [] };
      folders.set(folder, entry);
      for (const mutant of /** @type {any[]} */ (mutants)) {
        if (KILLED.has(mutant.status)) entry.killed += 1;
        else if (!LIVE.has(mutant.status)) continue;
        else entry.survivors.push(describe(mutant, file));
        entry.total += 1;
      }
    }
    const lines = ["Mutation score per folder (killed / total):"];
    for (const [folder, { killed, total, survivors }] of [...folders].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(
        `${folder}: ${killed} / ${total} (${total ? ((100 * killed) / total).toFixed(1) : "100.0"}%)${survivors.length ? `, ${survivors.length} surviving:` : ""}`,
      );
      for (const survivor of survivors) lines.push(`  ${survivor}`);
    }
    writeFileSync(`${OUT}/summary.txt`, `${lines.join("\n")}\n`);
    console.log(lines.join("\n"));
  }
}

export const strykerPlugins = [{ kind: "Reporter", name: "folder-summary", injectableClass: FolderSummaryReporter }];
