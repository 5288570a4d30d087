/**
 * The pages' own scripts (docs-src/browser-bundle.ts) are classic scripts a page opened from disk
 * can run: one strict IIFE with every import bundled in (no `require`, no `import`), minified.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { referenceScript, siteScript } from "../../docs-src/browser-bundle.ts";

describe.each([
  ["site.ts", siteScript],
  ["reference.ts", referenceScript],
])("the bundle of %s", (_, script) => {
  // In a beforeAll, so that the mutation run credits each test with it (tests/mutation/hook-coverage.ts).
  let text: string;
  beforeAll(() => {
    text = script();
  });

  it("is one IIFE with its imports inside, nothing left to load", () => {
    expect(text.startsWith('"use strict";(()=>{')).toBe(true);
    expect(text).not.toMatch(/\brequire\(|^\s*import\b|\bimport\(/m);
  });

  it("is minified: no indented lines, no source-path comments", () => {
    expect(text.split("\n").filter((line) => /^ {2}\S/.test(line))).toEqual([]);
    expect(text).not.toContain("// node_modules/");
  });
});
