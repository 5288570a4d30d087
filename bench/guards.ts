/**
 * The figures CI holds to their goals (`npm run bench:guard`, guard.ts; judged by judge.ts). Only
 * figures that hold on a shared two-core machine are guarded: each is a ratio of two things measured
 * side by side (alternating rounds, the median of their ratios), or a size. `npm run bench` measures
 * the same figures at length, and more (bench/README.md).
 */
import type { Guard } from "./judge.ts";
import { CLIENT_CALLS, clientOverhead } from "./measurements/client-overhead.ts";
import { CLIENT_WITHOUT_TABLES, gzippedBytes } from "./measurements/client-size.ts";
import { mockRunOverBareReads, sandboxRunInJobLengths } from "./measurements/conformance-runs.ts";
import { diffPairs, diffRatio } from "./measurements/description-diff.ts";
import { prismCpuOverSandbox } from "./measurements/sandbox-vs-prism.ts";

// 61 rounds, not 31: in 16 runs, idle and with both cores loaded, the medians of their first 31
// rounds ranged 0.73x to 1.15x, of all 61 0.91x to 1.03x (2026-12-05). Ten uncounted rounds, 15,000
// calls a side, before them: V8 is still recompiling both paths over that many.
const CLIENT_ROUNDS = 61;
const CLIENT_WARM_UPS = 10;
const CLIENT_CALLS_PER_ROUND = 1_500;
const PRISM_ROUNDS = 5;
const PRISM_ROUND_MS = 1_000;
const DIFF_RUNS = 15;

/** The guarded figures, each with the goal bench/README.md states for it. */
export const guards = (): readonly Guard[] => [
  ...CLIENT_CALLS.map(
    (call): Guard => ({
      figure: `client per-call time against bare openapi-fetch, ${call} (x; median of ${CLIENT_ROUNDS} alternating rounds of ${CLIENT_CALLS_PER_ROUND} calls, after ${CLIENT_WARM_UPS} uncounted)`,
      goal: { most: 1.1 },
      measure: async () => (await clientOverhead(call, CLIENT_ROUNDS, CLIENT_CALLS_PER_ROUND, CLIENT_WARM_UPS)).ratio,
      varies: true,
    }),
  ),
  {
    figure: "client without the price tables, openapi-fetch included, minified + gzip -9 (bytes)",
    // The goal is 6,000 B (bench/README.md), not met since the answer cap, the timeouts and the
    // pause (7,023 B on 2026-12-02): held here where it stands, so that it grows no further unseen.
    goal: { most: 7_100 },
    measure: () => gzippedBytes(CLIENT_WITHOUT_TABLES),
    varies: false,
  },
  {
    figure: `Prism mock's CPU per request over the sandbox's (x; median of ${PRISM_ROUNDS} alternating rounds of ${PRISM_ROUND_MS / 1000} s)`,
    goal: { least: 10 },
    measure: (note) => prismCpuOverSandbox(PRISM_ROUNDS, PRISM_ROUND_MS, note),
    varies: true,
  },
  ...Object.entries(diffPairs()).map(
    ([pair, sides]): Guard => ({
      figure: `npm run diff's time over api-smart-diff's, ${pair} (x; median of ${DIFF_RUNS} alternating runs)`,
      goal: { most: 0.33 },
      measure: async () => diffRatio(sides, DIFF_RUNS),
      varies: true,
    }),
  ),
  {
    figure:
      "npm run conformance against the sandbox, in the sandbox's job lengths (its time, less what the machine's load stretched its work, over one job's)",
    // Issue 50's bound, 60 s in all, at the sandbox's default 3-s jobs: 30 s before the sequence
    // phase, whose 12 sequences (each drained: its jobs polled to their end) end the run 12 to 18 s
    // later; 41 to 50 s measured on 2026-12-02, 54 to 62 s idle on 2026-12-03 (bench/README.md).
    goal: { most: 20 },
    measure: async (note) => {
      const { jobLengths, seconds, stretched } = await sandboxRunInJobLengths();
      note?.(
        `the run took ${seconds.toFixed(1)} s, its work stretched ${stretched.toFixed(2)} times by the machine's load`,
      );
      return jobLengths;
    },
    varies: true,
  },
  {
    figure:
      "npm run conformance's checks against a running Prism mock, over the mock answering 1,000 plain reads (x; the reads before and after)",
    // The 10 s the whole run may take on an idle machine, of which Prism's start takes about 2.5 s: see bench/README.md.
    goal: { most: 5 },
    measure: async (note) => {
      const { ratio, seconds, reads } = await mockRunOverBareReads();
      note?.(
        `the checks took ${seconds.toFixed(1)} s, the reads ${reads.map((read) => read.toFixed(1)).join(" s and ")} s`,
      );
      return ratio;
    },
    varies: true,
  },
];
