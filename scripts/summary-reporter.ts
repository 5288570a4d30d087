import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints one plain closing line, "Tests: N passed, N failed, N skipped", which CI reads to tell a
 * run that tested something from one that ran no test. Test files that failed to load count as
 * failed, so a broken import can never look like a green run.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) failed += 1;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed += 1;
        else if (state === "failed") failed += 1;
        else skipped += 1;
      }
    }
    console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
