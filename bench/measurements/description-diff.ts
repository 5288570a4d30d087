/**
 * How long a comparison of two full descriptions takes (changes/), in process (loading excluded): the latest release with the bundle, and the bundle with a copy in which every numeric
 * bound moves and every enum of a shared component gains a value (request enums are left alone:
 * a new value would need a price), so that most schemas differ. Beside each, api-smart-diff
 * (`apiCompare`) on the same pair in the same process, so the two times are comparable; the goal is
 * at most a third of its time.
 */
import { apiCompare } from "api-smart-diff";
import type { OpenApiDocument } from "../../model/document.ts";
import { compareDescriptions, type Side } from "../../changes/compare.ts";
import { loadSide } from "../../changes/load-side.ts";
import { BUNDLE_FILE, latestRelease, releaseSide } from "../../changes/baseline.ts";
import { BOUNDS } from "../../changes/rules.ts";
import { isObject } from "../../changes/schema-shape.ts";
import { median, type Figure, type Measurement } from "../measurement.ts";

const RUNS = 20;

function schemasChanged(doc: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(doc);
  const visit = (node: unknown, enums: boolean): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, enums);
      return;
    }
    if (!isObject(node)) return;
    if (enums && Array.isArray(node.enum)) node.enum.push("bench-value");
    for (const { keyword } of BOUNDS)
      if (typeof node[keyword] === "number") node[keyword] = (node[keyword] as number) + 1;
    for (const value of Object.values(node)) visit(value, enums);
  };
  visit(copy.paths, false);
  visit(copy.components, true);
  return copy;
}

/** The median time of `diff` on the pair, and the number of changes it found. */
function timed(diff: () => number): { ms: number; changes: number } {
  const times: number[] = [];
  let changes = 0;
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    changes = diff();
    times.push(performance.now() - start);
  }
  return { ms: median(times), changes };
}

function pair(before: Side, after: Side): { ours: ReturnType<typeof timed>; theirs: ReturnType<typeof timed> } {
  return {
    ours: timed(() => compareDescriptions(before, after).changes.length),
    theirs: timed(() => apiCompare(before.doc, after.doc).diffs.length),
  };
}

/** The two pairs compared: the latest release with the bundle, and the bundle with a copy whose schemas all changed. */
export function diffPairs(): Record<"latest release -> bundle" | "all schemas changed", [Side, Side]> {
  const release = releaseSide(latestRelease());
  const bundle = loadSide(BUNDLE_FILE, "bundle");
  return {
    "latest release -> bundle": [release, bundle],
    "all schemas changed": [bundle, { source: "changed", doc: schemasChanged(bundle.doc) }],
  };
}

/**
 * Our comparison's time over api-smart-diff's on one pair: `runs` alternating runs of each (ours
 * first) after one of each to warm up, and the median of the per-run ratios.
 */
export function diffRatio([before, after]: [Side, Side], runs: number): number {
  const once = (diff: () => unknown): number => {
    const start = performance.now();
    diff();
    return performance.now() - start;
  };
  const ours = () => compareDescriptions(before, after);
  const theirs = () => apiCompare(before.doc, after.doc);
  once(ours);
  once(theirs);
  return median(Array.from({ length: runs }, () => once(ours) / once(theirs)));
}

const ratio = (ours: number, theirs: number): string =>
  `${(ours / theirs).toFixed(2)} of api-smart-diff's time (goal: at most 0.33)`;

export const descriptionDiff: Measurement = {
  name: "npm run diff",
  async run(): Promise<Figure[]> {
    const release = releaseSide(latestRelease());
    const bundle = loadSide(BUNDLE_FILE, "bundle");
    const same = pair(release, bundle);
    const changed = pair(bundle, { source: "changed", doc: schemasChanged(bundle.doc) });
    return [
      {
        label: "diff of two full descriptions, latest release -> bundle",
        value: Number(same.ours.ms.toFixed(1)),
        unit: "ms",
        note: `median of ${RUNS} in-process runs, loading excluded; ${same.ours.changes} changes; ${ratio(same.ours.ms, same.theirs.ms)}`,
      },
      {
        label: "api-smart-diff on the same pair",
        value: Number(same.theirs.ms.toFixed(1)),
        unit: "ms",
        note: `median of ${RUNS}, same process; ${same.theirs.changes} diffs`,
      },
      {
        label: "diff of the bundle with a copy whose schemas all changed",
        value: Number(changed.ours.ms.toFixed(1)),
        unit: "ms",
        note: `median of ${RUNS}; ${changed.ours.changes} changes; ${ratio(changed.ours.ms, changed.theirs.ms)}`,
      },
      {
        label: "api-smart-diff on the same pair",
        value: Number(changed.theirs.ms.toFixed(1)),
        unit: "ms",
        note: `median of ${RUNS}, same process; ${changed.theirs.changes} diffs`,
      },
    ];
  },
};
