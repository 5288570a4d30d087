/**
 * `npm test [-- vitest options]`: the build, the lint, the type check and the tests: the bundle
 * first; then the generators, which the tests and the type check read; then the lint, the type
 * check and vitest side by side (the lint reads only the bundle, but beside the generators it would
 * delay the tests, the longest step). The tests' output streams as it comes; the other steps'
 * output is printed when each ends, so lines of steps running together do not mix. A step whose
 * input failed is not run; the exit status is non-zero when any step failed.
 */
import { spawn } from "node:child_process";

interface Step {
  name: string;
  command: readonly string[];
  after?: string;
  /** Stream the output as it comes instead of printing it at the end. */
  live?: boolean;
}

const STEPS: readonly Step[] = [
  { name: "bundle", command: ["npm", "run", "-s", "bundle"] },
  { name: "generate", command: ["npm", "run", "-s", "generate"], after: "bundle" },
  { name: "lint", command: ["npm", "run", "-s", "lint"], after: "generate" },
  { name: "typecheck", command: ["npm", "run", "-s", "typecheck"], after: "generate" },
  { name: "vitest", command: ["npx", "vitest", "run", ...process.argv.slice(2)], after: "generate", live: true },
];

/** Runs one step; resolves with whether it passed, once its output is printed. */
function run(step: Step): Promise<boolean> {
  return new Promise((resolve) => {
    const [program, ...args] = step.command;
    const child = spawn(program!, args, { stdio: ["ignore", step.live ? "inherit" : "pipe", step.live ? "inherit" : "pipe"] });
    const output: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => output.push(chunk));
    child.on("error", (error) => {
      console.log(`npm test: ${step.name} could not start: ${error.message}`);
      resolve(false);
    });
    child.on("close", (code, signal) => {
      process.stdout.write(Buffer.concat(output));
      if (code !== 0) console.log(`npm test: ${step.name} failed (${signal ? `stopped by ${signal}` : `exit status ${code}`})`);
      resolve(code === 0);
    });
  });
}

const results = new Map<string, Promise<boolean>>();
for (const step of STEPS) {
  const ready = step.after === undefined ? Promise.resolve(true) : results.get(step.after)!;
  results.set(step.name, ready.then((inputPassed) => inputPassed && run(step)));
}
const passed = await Promise.all(results.values());
process.exit(passed.every(Boolean) ? 0 : 1);
