/**
 * The steps of `npm test` and how they run: the build (the bundle, then the generators, in one
 * process) beside Biome's check; then the lint, the type check and vitest side by side. A step runs
 * once the step it comes after has passed; a step whose input failed is not run. Each step is run
 * as npm would run it (package.json's script, the project's node_modules/.bin first on PATH) but
 * without npm or npx around it, which cost half a second to a second of CPU each. Kept apart from
 * scripts/test.ts so that tests can run the graph with fake steps.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface Step {
  name: string;
  command: readonly string[];
  /** The step whose output this one reads: it runs only once that one has passed. */
  after?: string;
  /** Stream the output as it comes instead of printing it at the end. */
  live?: boolean;
}

export type Outcome = "passed" | "failed" | "skipped";

/**
 * The order vitest shuffles the unit tests in: `--seed N` (or `--seed=N`) among the options given
 * after `npm test --`, else the TEST_SEED variable, else a new one; the other options go to vitest.
 * A run that failed in one order replays it with the seed it printed.
 */
export function shuffleSeed(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): { seed: number; vitestArgs: string[] } {
  const vitestArgs: string[] = [];
  let given = env.TEST_SEED;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === "--seed") given = args[++index] ?? "";
    else if (arg.startsWith("--seed=")) given = arg.slice("--seed=".length);
    else vitestArgs.push(arg);
  }
  if (given === undefined) return { seed: Math.floor(Math.random() * 2 ** 31), vitestArgs };
  if (!/^\d+$/.test(given)) throw new Error(`npm test: --seed (or TEST_SEED) must be a whole number, got "${given}"`);
  return { seed: Number(given), vitestArgs };
}

/** package.json's script `name`, as a command: the shell runs it, as npm does. */
function script(name: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const text = scripts[name];
  if (text === undefined) throw new Error(`npm test: package.json has no script ${name}`);
  return ["sh", "-c", text];
}

/** The steps of `npm test`; `vitestArgs` are the options given after `npm test --`, `seed` the shuffle's. */
export function testSteps(vitestArgs: readonly string[], seed: number): readonly Step[] {
  return [
    // `npm run build`: the bundle built in memory goes to the generators, not read back.
    { name: "build", command: script("build") },
    { name: "lint", command: script("lint"), after: "build" },
    // Biome: the TypeScript's format and lint (biome.json); `npm run format` writes the format. It
    // skips generated/ (biome.json), so it reads nothing the build writes: it runs beside the build,
    // on the core the build leaves idle.
    { name: "style", command: ["biome", "check", "--colors=off", "."] },
    { name: "typecheck", command: script("typecheck"), after: "build" },
    {
      name: "vitest",
      command: ["vitest", "run", "--project", "unit", "--sequence.shuffle", `--sequence.seed=${seed}`, ...vitestArgs],
      after: "build",
      live: true,
    },
  ];
}

/**
 * Runs `steps` with `runStep` (which resolves with whether the step passed), each as soon as the
 * step it comes after has passed, and resolves with every step's outcome, in the steps' order.
 */
export async function runSteps(
  steps: readonly Step[],
  runStep: (step: Step) => Promise<boolean>,
): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Promise<Outcome>>();
  for (const step of steps) {
    const input = step.after === undefined ? Promise.resolve<Outcome>("passed") : outcomes.get(step.after);
    if (input === undefined)
      throw new Error(`step ${step.name}: runs after "${step.after}", which is not an earlier step`);
    if (outcomes.has(step.name)) throw new Error(`step ${step.name}: named twice`);
    outcomes.set(
      step.name,
      input.then(async (inputOutcome) =>
        inputOutcome !== "passed" ? "skipped" : (await runStep(step)) ? "passed" : "failed",
      ),
    );
  }
  const settled = await Promise.all(outcomes.values());
  return new Map([...outcomes.keys()].map((name, index) => [name, settled[index]!]));
}

/** The lines that close a run: which steps did not run, and why. */
export function skippedLines(steps: readonly Step[], outcomes: ReadonlyMap<string, Outcome>): string[] {
  return steps
    .filter((step) => outcomes.get(step.name) === "skipped")
    .map((step) => `npm test: ${step.name} not run (${step.after} ${outcomes.get(step.after!)})`);
}

/** Runs one step as a child process; resolves with whether it passed, once its output is written to `out`. */
export function spawnStep(step: Step, out: NodeJS.WritableStream = process.stdout): Promise<boolean> {
  return new Promise((resolve) => {
    const [program, ...args] = step.command;
    const child = spawn(program!, args, {
      stdio: ["ignore", step.live ? "inherit" : "pipe", step.live ? "inherit" : "pipe"],
      // The project's binaries first, as npm puts them.
      env: { ...process.env, PATH: `${join(ROOT, "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}` },
      cwd: ROOT,
    });
    const output: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => output.push(chunk));
    let startFailed = false;
    child.on("error", (error) => {
      startFailed = true;
      out.write(`npm test: ${step.name} could not start: ${error.message}\n`);
      resolve(false);
    });
    child.on("close", (code, signal) => {
      if (startFailed) return;
      out.write(Buffer.concat(output));
      if (code !== 0)
        out.write(`npm test: ${step.name} failed (${signal ? `stopped by ${signal}` : `exit status ${code}`})\n`);
      resolve(code === 0);
    });
  });
}
