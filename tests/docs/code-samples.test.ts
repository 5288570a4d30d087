/**
 * The code samples each operation of the reference carries (docs-src/code-samples.ts): in the order
 * Redoc shows their tabs, curl, the typed client, Python and JavaScript (fetch), each with the
 * language Redoc highlights it in and its tab's label; the description itself left untouched.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_LABELS, withCodeSamples } from "../../docs-src/code-samples.ts";
import { loadBundle, operations } from "../../model/document.ts";

describe("withCodeSamples", () => {
  const bundle = loadBundle();
  const before = JSON.stringify(bundle);
  // In a beforeAll, so that the mutation run credits each test with it (tests/mutation/hook-coverage.ts).
  let copy: ReturnType<typeof withCodeSamples>;
  beforeAll(() => {
    copy = withCodeSamples(bundle);
  });

  it("gives every operation its four samples in tab order, each in its language under its label", () => {
    const all = operations(copy);
    expect(all.length).toBeGreaterThan(20);
    for (const { operation } of all) {
      const samples = operation["x-codeSamples"] as Array<{ lang: string; label: string; source: string }>;
      expect(
        samples.map(({ lang, label }) => [lang, label]),
        operation.operationId,
      ).toEqual([
        ["Shell", "curl"],
        ["TypeScript", "TypeScript client"],
        ["Python", "Python"],
        ["JavaScript", "JavaScript (fetch)"],
      ]);
      for (const sample of samples)
        expect(sample.source.length, `${operation.operationId} ${sample.label}`).toBeGreaterThan(20);
    }
    expect(Object.values(SAMPLE_LABELS)).toEqual(["curl", "TypeScript client", "Python", "JavaScript (fetch)"]);
  });

  it("leaves the description itself as it was", () => {
    expect(JSON.stringify(bundle)).toBe(before);
    expect(operations(bundle).some(({ operation }) => operation["x-codeSamples"] !== undefined)).toBe(false);
  });
});
