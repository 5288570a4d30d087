/**
 * The shape of a JSON body read before it is parsed (http-server/json-shape.ts): how deep its arrays
 * and objects nest and how many items and members they hold, strings skipped. What a string holds
 * never counts, whatever it is: brackets, commas, and quotes or backslashes escaped with `\`
 * (RFC 8259, section 7: `\"` is a quote inside the string, `\\` a backslash, so `"\\"` ends at its
 * last quote). Each text here is also parsed, and its shape counted from the parsed value, so the
 * expected figures do not come from the scanner.
 */
import { describe, expect, it } from "vitest";
import { jsonShape } from "../../http-server/json-shape.ts";

/** The shape of a parsed JSON value, counted from the value itself. */
function parsedShape(value: unknown): { depth: number; entries: number } {
  if (value === null || typeof value !== "object") return { depth: 0, entries: 0 };
  const children = Array.isArray(value) ? value : Object.values(value);
  const inner = children.map(parsedShape);
  return {
    depth: 1 + Math.max(0, ...inner.map((shape) => shape.depth)),
    entries: children.length + inner.reduce((sum, shape) => sum + shape.entries, 0),
  };
}

/** The scanner's shape of `text`, read as a string and as the bytes of a body, which must agree. */
function scanned(text: string): { depth: number; entries: number } {
  const fromString = jsonShape(text);
  expect(jsonShape(new TextEncoder().encode(text)), text).toEqual(fromString);
  return { ...fromString };
}

describe("the shape of a JSON body, read without parsing it", () => {
  it("counts nesting and entries as the parsed value holds them", () => {
    const texts = [
      "{}",
      "[]",
      '{"prompt": "a cat", "num_images": 2}',
      '[[1, 2], {"a": [3, {"b": null}]}, []]',
      '{"a": {"b": {"c": {"d": [true, false]}}}}',
    ];
    for (const text of texts) expect(scanned(text), text).toEqual(parsedShape(JSON.parse(text)));
    expect(scanned('{"a": {"b": {"c": {"d": [true, false]}}}}')).toEqual({ depth: 5, entries: 6 });
  });

  it("skips what a string holds: brackets, braces and commas inside strings count for nothing", () => {
    for (const text of ['["[[[[", "{{{{", ",,,,"]', '{"a,b": "]]]}}}", "[": "{"}', '"[[[[[[,,,,"']) {
      expect(scanned(text), text).toEqual(parsedShape(JSON.parse(text)));
    }
    expect(scanned('["[[[[", "{{{{", ",,,,"]')).toEqual({ depth: 1, entries: 3 });
  });

  it('reads an escaped quote (\\") as part of its string: brackets and commas after it are still inside', () => {
    const texts = [
      String.raw`{"prompt": "say \"hi\" [[[[ {{{{ ,,,,"}`,
      String.raw`["a\"[[[", 1]`,
      String.raw`["\"", "[", "{", ","]`,
      String.raw`{"k\"[": "v\"]", "other": "\",\",\","}`,
      String.raw`{"prompt": "\"[\"[\"[\"[\"[\"[\"[\"[\"[\"[\"[\"[\"["}`,
    ];
    for (const text of texts) expect(scanned(text), text).toEqual(parsedShape(JSON.parse(text)));
    expect(scanned(String.raw`{"prompt": "say \"hi\" [[[[ {{{{ ,,,,"}`)).toEqual({ depth: 1, entries: 1 });
  });

  it("reads an escaped backslash (\\\\) as one character, so a string ending in one ends at the next quote", () => {
    const texts = [
      String.raw`["\\"]`,
      String.raw`["\\", "[", "]"]`,
      String.raw`{"path": "C:\\dir\\", "next": [1, 2]}`,
      String.raw`["\\\"[[", "\\\\", {"a": "\\"}]`,
      String.raw`["ends with a backslash \\", ["nested"]]`,
      String.raw`["\u005b\u007b\u0022 escaped by code", "\/"]`,
    ];
    for (const text of texts) expect(scanned(text), text).toEqual(parsedShape(JSON.parse(text)));
    expect(scanned(String.raw`["\\", "[", "]"]`)).toEqual({ depth: 1, entries: 3 });
    expect(scanned(String.raw`{"path": "C:\\dir\\", "next": [1, 2]}`)).toEqual({ depth: 2, entries: 4 });
  });

  it("does not count a body of many escaped quotes in one string as deep or large", () => {
    const text = JSON.stringify({ prompt: '"[{,'.repeat(10_000) });
    expect(text).toContain(String.raw`\"[{,`);
    expect(scanned(text)).toEqual({ depth: 1, entries: 1 });
  });

  it("counts a trailing comma as one more entry (an upper bound), never fewer than the body holds", () => {
    expect(scanned("[1, 2,]")).toEqual({ depth: 1, entries: 3 });
    expect(scanned('{"a": 1,}')).toEqual({ depth: 1, entries: 2 });
  });

  it("counts only what a truncated body holds: a container opened at its end has no entry yet", () => {
    expect(scanned("[")).toEqual({ depth: 1, entries: 0 });
    expect(scanned('{"a": [')).toEqual({ depth: 2, entries: 1 });
    expect(scanned("[1, {")).toEqual({ depth: 2, entries: 2 });
  });

  it("skips whitespace (space, tab, line feed, carriage return): an empty container laid out over lines holds nothing", () => {
    for (const text of ["[ ]", "{\t}", "[\n]", "{\r\n}", '{ "a": [\t], "b": {\n} }', "[\t1,\r\n 2 ]"]) {
      expect(scanned(text), JSON.stringify(text)).toEqual(parsedShape(JSON.parse(text)));
    }
  });
});
