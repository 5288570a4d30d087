/**
 * `npm test [-- vitest options]`: the build, the lint, the type check and the tests, in the order of
 * scripts/test-steps.ts. The tests' output streams as it comes; the other steps' output is printed
 * when each ends, so lines of steps running together do not mix. The exit status is non-zero when
 * any step failed or was not run.
 */
import { runSteps, skippedLines, spawnStep, testSteps } from "./test-steps.ts";

const steps = testSteps(process.argv.slice(2));
const outcomes = await runSteps(steps, (step) => spawnStep(step));
for (const line of skippedLines(steps, outcomes)) console.log(line);
process.exit([...outcomes.values()].every((outcome) => outcome === "passed") ? 0 : 1);
