/**
 * `npm test`'s steps (scripts/test-steps.ts): the build, then the lint, Biome's check, the type
 * check and vitest side by side; a failed step fails the run and its dependants are not run.
 * The graph runs here with fake steps that pass or fail when the test says, so the order is seen
 * without timing anything; `spawnStep` runs small real commands.
 */
import { readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  runSteps,
  shuffleSeed,
  skippedLines,
  spawnStep,
  testSteps,
  type Outcome,
  type Step,
} from "../../scripts/test-steps.ts";

/** Fake steps: records each start, and ends a step (passing or failing) when the test asks. */
function fakeSteps() {
  const started: string[] = [];
  const ends = new Map<string, (passed: boolean) => void>();
  const runStep = (step: Step) =>
    new Promise<boolean>((resolve) => {
      started.push(step.name);
      ends.set(step.name, resolve);
    });
  /** Lets every step that can start, start. */
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  const end = async (name: string, passed: boolean) => {
    const finish = ends.get(name);
    if (!finish) throw new Error(`${name} has not started`);
    finish(passed);
    await settle();
  };
  return { started, runStep, settle, end };
}

const steps = testSteps(["tests/some.test.ts", "--reporter=dot"], 42);

describe("npm test's shuffle seed", () => {
  it("is the one given by --seed N or --seed=N, which is not passed on to vitest", () => {
    expect(shuffleSeed(["--seed", "7", "tests/a.test.ts"], {})).toEqual({ seed: 7, vitestArgs: ["tests/a.test.ts"] });
    expect(shuffleSeed(["--reporter=dot", "--seed=123"], {})).toEqual({ seed: 123, vitestArgs: ["--reporter=dot"] });
  });

  it("is TEST_SEED's when no --seed is given, and --seed wins over it", () => {
    expect(shuffleSeed([], { TEST_SEED: "99" })).toEqual({ seed: 99, vitestArgs: [] });
    expect(shuffleSeed(["--seed", "5"], { TEST_SEED: "99" }).seed).toBe(5);
  });

  it("is a new whole number each run when none is given", () => {
    const seeds = new Set(Array.from({ length: 20 }, () => shuffleSeed([], {}).seed));
    expect(seeds.size).toBeGreaterThan(1);
    for (const seed of seeds) expect(Number.isInteger(seed) && seed >= 0).toBe(true);
  });

  it("refuses a seed that is not a whole number, naming the flag", () => {
    expect(() => shuffleSeed(["--seed", "soon"], {})).toThrow(
      'npm test: --seed (or TEST_SEED) must be a whole number, got "soon"',
    );
    expect(() => shuffleSeed(["--seed"], {})).toThrow('got ""');
  });
});

describe("npm test's steps", () => {
  it("are the build and Biome's check (which skips generated/), then the lint, the type check and vitest after the build", () => {
    expect(steps.map(({ name, after }) => [name, after])).toEqual([
      ["build", undefined],
      ["lint", "build"],
      ["style", undefined],
      ["typecheck", "build"],
      ["vitest", "build"],
    ]);
    expect(steps.find((step) => step.name === "vitest")).toMatchObject({
      command: [
        "vitest",
        "run",
        "--project",
        "unit",
        "--sequence.shuffle",
        "--sequence.seed=42",
        "tests/some.test.ts",
        "--reporter=dot",
      ],
      live: true,
    });
    expect(steps.filter((step) => step.live).map((step) => step.name)).toEqual(["vitest"]);
  });

  it("run package.json's scripts as npm would, without npm around them", () => {
    const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    for (const name of ["build", "lint", "typecheck"])
      expect(steps.find((step) => step.name === name)?.command).toEqual(["sh", "-c", scripts[name]]);
  });

  it("run the build and Biome's check first, then the other three side by side", async () => {
    const fake = fakeSteps();
    const run = runSteps(steps, fake.runStep);
    await fake.settle();
    expect(fake.started).toEqual(["build", "style"]);
    await fake.end("build", true);
    // All five have started while none but the build has ended.
    expect(fake.started).toEqual(["build", "style", "lint", "typecheck", "vitest"]);
    for (const name of ["vitest", "lint", "style", "typecheck"]) await fake.end(name, true);
    expect(Object.fromEntries(await run)).toEqual({
      build: "passed",
      lint: "passed",
      style: "passed",
      typecheck: "passed",
      vitest: "passed",
    });
  });

  it("when the build fails, the steps after it are not run (Biome's check, beside it, still is) and the run fails", async () => {
    const fake = fakeSteps();
    const run = runSteps(steps, fake.runStep);
    await fake.settle();
    await fake.end("build", false);
    await fake.end("style", true);
    const outcomes = await run;
    expect(Object.fromEntries(outcomes)).toEqual({
      build: "failed",
      lint: "skipped",
      style: "passed",
      typecheck: "skipped",
      vitest: "skipped",
    });
    expect(fake.started).toEqual(["build", "style"]);
    expect(skippedLines(steps, outcomes)).toContain("npm test: lint not run (build failed)");
  });

  it("a failed lint does not stop the type check or vitest, and fails the run", async () => {
    const fake = fakeSteps();
    const run = runSteps(steps, fake.runStep);
    await fake.settle();
    await fake.end("build", true);
    await fake.end("lint", false);
    await fake.end("style", true);
    await fake.end("typecheck", true);
    await fake.end("vitest", true);
    const outcomes: Map<string, Outcome> = await run;
    expect(outcomes.get("lint")).toBe("failed");
    expect([outcomes.get("typecheck"), outcomes.get("vitest")]).toEqual(["passed", "passed"]);
    expect(skippedLines(steps, outcomes)).toEqual([]);
  });

  it("refuses a step that runs after one that does not come before it", async () => {
    const never = async () => true;
    await expect(runSteps([{ name: "lint", command: ["x"], after: "build" }], never)).rejects.toThrow(
      'step lint: runs after "build", which is not an earlier step',
    );
  });
});

/** A stream that keeps what is written to it. */
function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

describe("a step run as a child process", () => {
  it("passes on exit status 0, printing its output once it ends", async () => {
    const out = collector();
    const passed = await spawnStep(
      { name: "say", command: [process.execPath, "-e", "console.log('out'); console.error('err')"] },
      out.stream,
    );
    expect(passed).toBe(true);
    expect(out.text().split("\n").sort()).toEqual(["", "err", "out"]);
  });

  it("fails on another exit status, saying which step and the status", async () => {
    const out = collector();
    expect(await spawnStep({ name: "lint", command: [process.execPath, "-e", "process.exit(3)"] }, out.stream)).toBe(
      false,
    );
    expect(out.text()).toBe("npm test: lint failed (exit status 3)\n");
  });

  it("fails, in one line, when its program cannot start", async () => {
    const out = collector();
    expect(await spawnStep({ name: "bundle", command: ["./no-such-program-here"] }, out.stream)).toBe(false);
    expect(out.text()).toMatch(/^npm test: bundle could not start: spawn \.\/no-such-program-here ENOENT\n$/);
  });
});
