/**
 * `npm run bench [-- NAME ...]`: runs every measurement of bench/measurements (listed below, one
 * file each), or those whose name contains one of the NAMEs, and prints one table, with the
 * machine's core count. Each measurement is bounded in time. A NAME that matches nothing, or an
 * unknown option, is one line and exit 2 (tools/command.ts).
 */
import { availableParallelism } from "node:os";
import { parseFlags, runCommand, UsageError } from "../tools/command.ts";
import type { Figure, Measurement } from "./measurement.ts";
import { clientOverheadMeasurement } from "./measurements/client-overhead.ts";
import { clientSize } from "./measurements/client-size.ts";
import { conformanceRuns } from "./measurements/conformance-runs.ts";
import { descriptionDiff } from "./measurements/description-diff.ts";
import { hostileLoad } from "./measurements/hostile-load.ts";
import { quoteThroughput } from "./measurements/quote-throughput.ts";
import { sandboxMemory } from "./measurements/sandbox-memory.ts";
import { sandboxVsPrism } from "./measurements/sandbox-vs-prism.ts";
import { workingLoop } from "./measurements/working-loop.ts";

/** Add a measurement here (and its file under measurements/). */
const MEASUREMENTS: readonly Measurement[] = [
  sandboxVsPrism,
  sandboxMemory,
  hostileLoad,
  descriptionDiff,
  workingLoop,
  clientOverheadMeasurement,
  clientSize,
  quoteThroughput,
  conformanceRuns,
];

const names = MEASUREMENTS.map((measurement) => measurement.name).join(", ");
const HELP = `usage: npm run bench -- [NAME ...]

Runs every measurement, or those whose name contains one of the NAMEs, and prints one table.
Measurements: ${names}

Exit status: 0 measured, 1 a measurement failed, 2 a NAME that matches nothing or a bad option.`;

const { positionals: wanted } = parseFlags({ name: "bench", help: HELP, options: {}, positionals: true });

await runCommand("bench", async () => {
  const chosen = MEASUREMENTS.filter(
    (measurement) => wanted.length === 0 || wanted.some((name) => measurement.name.includes(name)),
  );
  if (chosen.length === 0) throw new UsageError(`no measurement matches ${wanted.join(", ")}; there are: ${names}`);
  const rows: Array<Figure & { measurement: string }> = [];
  for (const measurement of chosen) {
    console.error(`bench: ${measurement.name} ...`);
    for (const figure of await measurement.run()) rows.push({ measurement: measurement.name, ...figure });
  }
  const format = (value: number) => value.toLocaleString("en");
  console.log(`\n${availableParallelism()} cores, Node ${process.version}\n`);
  console.log("| measurement | figure | value | how |");
  console.log("|---|---|---|---|");
  for (const row of rows)
    console.log(`| ${row.measurement} | ${row.label} | ${format(row.value)} ${row.unit} | ${row.note ?? ""} |`);
});
