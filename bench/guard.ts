/**
 * `npm run bench:guard`: every figure of guards.ts measured and held to its goal, one table printed;
 * exit 1 when one is past it. `.ci/run` runs it.
 */
import { availableParallelism } from "node:os";
import { parseFlags, runCommand } from "../tools/command.ts";
import { guards } from "./guards.ts";
import { judge, type Verdict } from "./judge.ts";

const HELP = `usage: npm run bench:guard

Measures each figure the project promises that holds on a shared machine (a ratio measured side by
side, or a size) and holds it to its goal; a figure past its goal is measured twice more and judged
by the median of three. Prints one table.

Exit status: 0 every figure within its goal, 1 one past it (or a measurement failed), 2 a bad option.`;

const format = (value: number) => value.toLocaleString("en", { maximumFractionDigits: 3 });

parseFlags({ name: "bench:guard", help: HELP, options: {} });
await runCommand("bench:guard", async () => {
  const verdicts: Verdict[] = [];
  const started = performance.now();
  for (const guard of guards()) {
    const at = performance.now();
    const verdict = await judge(guard, (detail) => console.error(`bench:guard:   ${detail}`));
    verdicts.push(verdict);
    console.error(
      `bench:guard: ${guard.figure}: ${verdict.values.map(format).join(", ")} in ${((performance.now() - at) / 1000).toFixed(1)} s`,
    );
  }
  console.error(`bench:guard: ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
  console.log(`\n${availableParallelism()} cores, Node ${process.version}\n`);
  console.log("| figure | value | goal | verdict |");
  console.log("|---|---|---|---|");
  for (const { guard, values, value, passed } of verdicts) {
    const goal = "most" in guard.goal ? `at most ${format(guard.goal.most)}` : `at least ${format(guard.goal.least)}`;
    const judged = values.length > 1 ? ` (median of ${values.map(format).join(", ")})` : "";
    console.log(`| ${guard.figure} | ${format(value)}${judged} | ${goal} | ${passed ? "within" : "PAST THE GOAL"} |`);
  }
  const past = verdicts.filter((verdict) => !verdict.passed);
  if (past.length > 0)
    throw new Error(
      `${past.length} figure${past.length > 1 ? "s" : ""} past ${past.length > 1 ? "their goals" : "its goal"}: ${past.map(({ guard, value }) => `${guard.figure.replace(/ \(.*$/, "")}: ${format(value)}`).join("; ")}`,
    );
});
