/**
 * The reports of a run's shards merged into one (`--merge`): a result every shard gave counted once,
 * a shard's skip of what another shard ran dropped, the sequences' figures added up and their
 * coverage the union of what each shard observed.
 */
import { describe, expect, it } from "vitest";
import { mergeReports, type Report } from "../../conformance/merge-reports.ts";
import { summarize } from "../../conformance/report.ts";
import type { CheckResult } from "../../conformance/results.ts";
import type { SequencesSummary } from "../../conformance/sequences/report.ts";

const sequences = (index: number, seen: string[], unseen: string[], steps: number): SequencesSummary => ({
  seed: 7,
  shard: { index, count: 2 },
  sequences: { tour: 2, random: 1, run: 3 },
  steps,
  seconds: 10 + index,
  notSent: { "A-A": [`reason ${index}`] },
  coverage: {
    observed: seen.length,
    applicable: seen.length + unseen.length,
    rules: [{ rule: "routes.account-credits", seen: seen as never, unseen: unseen as never }],
  },
});

const report = (index: number, results: CheckResult[], seen: string[], unseen: string[]): Report => ({
  summary: summarize("a target", results, {
    seconds: 10,
    requests: { main: 5 },
    sequences: sequences(index, seen, unseen, 100),
  }),
  results,
});

const shared: CheckResult = { group: "auth", route: "GET /v1/models", name: "401 for no key", outcome: "pass" };
const ran: CheckResult = {
  group: "sequences",
  route: "*",
  name: "every quote in the sequences answers as the service model allows",
  outcome: "pass",
};
const skipped: CheckResult = { ...ran, outcome: "skip", detail: "no step of this kind was sent" };

describe("merged shard reports", () => {
  const merged = mergeReports([
    report(1, [shared, ran], ["key=first"], ["key=second", "plan=free"]),
    report(2, [shared, skipped], ["key=second"], ["key=first", "plan=free"]),
  ]);

  it("hold each result once, and no skip of what another shard ran", () => {
    expect(merged.results).toEqual([shared, ran]);
    expect([merged.summary.pass, merged.summary.skip]).toEqual([2, 0]);
    expect(merged.summary.requests).toEqual({ main: 10 });
  });

  it("add the sequences up, their coverage the union of the shards'", () => {
    const merge = merged.summary.sequences!;
    expect(merge.steps).toBe(200);
    expect(merge.sequences.run).toBe(6);
    expect(merge.shard).toEqual({ index: 0, count: 2 });
    expect(merge.coverage.rules).toEqual([
      { rule: "routes.account-credits", seen: ["key=first", "key=second"], unseen: ["plan=free"] },
    ]);
    expect([merge.coverage.observed, merge.coverage.applicable]).toEqual([2, 3]);
    expect(merge.notSent["A-A"]).toEqual(["reason 1", "reason 2"]);
  });

  it("refuses nothing to merge", () => {
    expect(() => mergeReports([])).toThrow(/name the reports to merge/);
  });
});
