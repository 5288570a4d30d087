/**
 * The conformance suite against drawn hostile targets (fuzz/hostile-target.ts), with a small budget
 * here; `npm run fuzz -- --server suite` runs 40 and CI more. The leak finder is checked on texts
 * written out by hand.
 */
import { describe, expect, it } from "vitest";
import { fuzzSuite, leaks } from "../../fuzz/hostile-target.ts";

describe("the hostile-target fuzz of the suite", () => {
  it("finds a key, a control character and a CI command line in what a run prints, and nothing in plain text", () => {
    expect(leaks("x", "conformance of http://127.0.0.1: 3 passed")).toEqual([]);
    expect(leaks("x", "detail: you sent Bearer sk-fuzz-main-0123456789")).toEqual(["x holds a secret (sk-fuz...)"]);
    expect(leaks("x", "red \u001b[31m")).toEqual(["x holds the control character U+001b"]);
    expect(leaks("x", "ok\n  ::error file=a.ts::pwned")).toEqual([
      'x has a line a CI runner reads as a command: "  ::error file=a.ts::pwned"',
    ]);
  });

  it("holds against 4 runs of seed 2026: every run ends by itself, and nothing printed or written leaks or escapes", {
    timeout: 60_000,
  }, async () => {
    const run = await fuzzSuite({ runs: 4, seed: 2026 });
    expect(run.failure).toBeUndefined();
    expect(run.runs).toBe(4);
    expect(run.pastProbe).toBeGreaterThan(0);
  });
});
