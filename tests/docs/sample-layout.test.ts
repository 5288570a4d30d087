/**
 * How the code samples lay out a call (docs-src/sample-layout.ts): on one line when its first line
 * fits the code panel and only its last argument spans lines; otherwise one argument a line,
 * indented, each followed by a comma.
 */
import { describe, expect, it } from "vitest";
import { callOf, JS_CALL, PYTHON_CALL, SAMPLE_COLUMNS } from "../../docs-src/sample-layout.ts";

const BODY = '{\n  "prompt": "a cat"\n}';

describe("callOf", () => {
  it("keeps a short call on one line, its statement ended as the language ends it", () => {
    expect(callOf("f", ['"a"', "1"], JS_CALL)).toBe('f("a", 1);');
    expect(callOf("f", ['"a"', "1"], PYTHON_CALL)).toBe('f("a", 1)');
    expect(callOf("f", [], JS_CALL)).toBe("f();");
  });

  it("opens a last argument that spans lines on the call's line", () => {
    expect(callOf("create", ['"i-a"', BODY], JS_CALL)).toBe(`create("i-a", ${BODY});`);
  });

  it("puts one argument a line when another than the last spans lines, or two do", () => {
    expect(callOf("f", [BODY, '"x"'], JS_CALL)).toBe(`f(\n  {\n    "prompt": "a cat"\n  },\n  "x",\n);`);
    expect(callOf("f", [BODY, BODY], PYTHON_CALL)).toBe(
      `f(\n    {\n      "prompt": "a cat"\n    },\n    {\n      "prompt": "a cat"\n    },\n)`,
    );
  });

  it("puts one argument a line when the first line would pass the panel's width, and not at the width exactly", () => {
    const fits = `f("${"x".repeat(SAMPLE_COLUMNS - 6)}");`;
    expect(fits).toHaveLength(SAMPLE_COLUMNS);
    expect(callOf("f", [`"${"x".repeat(SAMPLE_COLUMNS - 6)}"`], JS_CALL)).toBe(fits);
    expect(callOf("f", [`"${"x".repeat(SAMPLE_COLUMNS - 5)}"`], JS_CALL)).toBe(
      `f(\n  "${"x".repeat(SAMPLE_COLUMNS - 5)}",\n);`,
    );
  });
});
