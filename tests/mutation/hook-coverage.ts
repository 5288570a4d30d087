/**
 * A setup file of Stryker's runs (tests/mutation/vitest.config.ts): in the dry run, the code a test
 * file's hooks reach counts as covered by each test of that file.
 *
 * Stryker's vitest setup credits a test only with the code run between its beforeEach and afterEach;
 * what a beforeAll runs (the check runs, the sandboxes and the builds that many files start once and
 * then assert on in each test) it counts as static, as if a module ran it as it loaded. A mutant
 * reached only there is then ignored ("ignoreStatic"), and one reached by some test too runs against
 * that test alone: the tests that assert on the hook's work are never run, and it survives.
 * Crediting each test of the file instead runs the mutant against them all, the hook with it.
 * Code reached as a module loads (before any hook) stays static.
 *
 * One worker runs every file (isolate: false), so the namespace's coverage holds every file's so
 * far, and Stryker's afterAll hands the whole of it to each file's report: the runner process kept a
 * copy of all earlier files' coverage per file, and the dry run outgrew its 8 GB heap. Each file's
 * report gets its own tests' coverage; Stryker merges the reports by test id.
 */
import { afterAll, beforeAll, beforeEach, inject } from "vitest";

/** Stryker's coverage (its instrumenter's `mutantCoverage`): hits by mutant id, static or per test id. */
interface Coverage {
  readonly static: Record<string, number>;
  readonly perTest: Record<string, Record<string, number>>;
}

/** The part of Stryker's global namespace this file reads. */
interface StrykerNamespace {
  mutantCoverage?: Coverage;
  currentTestId?: string;
  /** Ours: every file's coverage, where the instrumented modules write, while a file's report holds its own. */
  wholeCoverage?: Coverage;
}

declare module "vitest" {
  /** What Stryker's vitest runner provides to its setup file (@stryker-mutator/vitest-runner). */
  export interface ProvidedContext {
    mode: "dry-run" | "mutant";
    globalNamespace: string;
  }
}

if (inject("mode") === "dry-run") {
  const namespace = (): StrykerNamespace =>
    (globalThis as unknown as Record<string, StrykerNamespace | undefined>)[inject("globalNamespace")] ?? {};
  // Before this file's modules load: a module that first loads now keeps the object it finds.
  const held = namespace().wholeCoverage;
  if (held) namespace().mutantCoverage = held;
  /** The static hits as this file's hooks began: what its modules' loading reached. */
  let loaded: Record<string, number> = {};
  /** The ids of this file's tests, as Stryker's own beforeEach (run before this one) set them. */
  const tests = new Set<string>();
  beforeAll(() => {
    loaded = { ...namespace().mutantCoverage?.static };
    tests.clear();
  });
  beforeEach(() => {
    const test = namespace().currentTestId;
    if (test) tests.add(test);
  });
  // Run before Stryker's afterAll, which hands the namespace's coverage object to vitest's report.
  afterAll(() => {
    const coverage = namespace().mutantCoverage;
    if (!coverage) return;
    for (const [mutant, hits] of Object.entries(coverage.static)) {
      if (hits === loaded[mutant]) continue;
      for (const test of tests) {
        const covered = (coverage.perTest[test] ??= {});
        covered[mutant] = (covered[mutant] ?? 0) + hits - (loaded[mutant] ?? 0);
      }
      // Reached by no module's loading: not static at all.
      if (!(mutant in loaded)) delete coverage.static[mutant];
    }
    const own = [...tests].flatMap((test) => {
      const covered = coverage.perTest[test];
      return covered ? [[test, covered] as const] : [];
    });
    namespace().wholeCoverage = coverage;
    namespace().mutantCoverage = { static: coverage.static, perTest: Object.fromEntries(own) };
  });
}
