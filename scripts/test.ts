/**
 * `npm test [-- vitest options]`: the build, the lint, the type check and the tests, in the order of
 * scripts/test-steps.ts. The tests' output streams as it comes; the other steps' output is printed
 * when each ends, so lines of steps running together do not mix. vitest runs the unit project's
 * files and tests in a shuffled order, whose seed is printed first and last (`--seed N` or
 * TEST_SEED=N replays it), so a test that leans on another's leftovers fails. The exit status is non-zero when
 * any step failed or was not run.
 */
import { runSteps, shuffleSeed, skippedLines, spawnStep, testSteps } from "./test-steps.ts";

let shuffle: ReturnType<typeof shuffleSeed>;
try {
  shuffle = shuffleSeed(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const seedLine = `npm test: tests shuffled with seed ${shuffle.seed} (the same order again: npm test -- --seed ${shuffle.seed})`;
console.log(seedLine);
const steps = testSteps(shuffle.vitestArgs, shuffle.seed);
const outcomes = await runSteps(steps, (step) => spawnStep(step));
for (const line of skippedLines(steps, outcomes)) console.log(line);
// Again at the end, where a failed run's reader looks.
console.log(seedLine);
process.exit([...outcomes.values()].every((outcome) => outcome === "passed") ? 0 : 1);
