/** JSON input errors name the file, line and column (tools/json-text.ts), in every reader of a JSON input file. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readAcknowledgements } from "../../changes/acknowledgements.ts";
import { readRecords } from "../../release/records.ts";
import { readServiceModel } from "../../model/service-model.ts";
import { loadBundle } from "../../model/document.ts";
import { readConfigFile } from "../../sandbox/config.ts";
import { parseJsonText } from "../../tools/json-text.ts";

const dir = mkdtempSync(join(tmpdir(), "json-text-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("parseJsonText", () => {
  it.each([
    ['{\n  "a": 1,\n}', "f.json:3:1: not valid JSON: trailing comma"],
    ['{\n  "a": [1, 2,]\n}', "f.json:2:14: not valid JSON: trailing comma"],
    ['{"a" 1}', 'f.json:1:6: not valid JSON: expected ":" after a key'],
    ["{\n  'a': 1\n}", 'f.json:2:3: not valid JSON: expected a "quoted" key, got "\'"'],
    ['{"a": 1', 'f.json:1:8: not valid JSON: expected "," or "}"'],
    ['{"a": tru}', 'f.json:1:10: not valid JSON: unexpected "}"'],
    ['{"a": "b\nc"}', "f.json:1:9: not valid JSON: control character in a string (escape it)"],
    ["", "f.json:1:1: not valid JSON: unexpected end of file"],
    ['{"a": 1} x', "f.json:1:10: not valid JSON: unexpected text after the JSON value"],
    ['{"a": 01}', 'f.json:1:8: not valid JSON: expected "," or "}"'],
    ["[".repeat(200_000), "f.json:1:1001: not valid JSON: nested more than 1000 deep"],
  ])("%j: %s", (text, message) => {
    expect(() => parseJsonText(text, "f.json")).toThrow(message);
  });

  it("returns what JSON.parse returns on valid JSON", () => {
    expect(parseJsonText('{"a": [1, "\\u00e9", true, null, -1.5e3]}', "f.json")).toEqual({
      a: [1, "é", true, null, -1500],
    });
  });
});

describe("the JSON input files", () => {
  const broken = (name: string): string => {
    const file = join(dir, name);
    writeFileSync(file, '{\n  "acknowledged": [],\n}\n');
    return file;
  };

  it("the sandbox config", () => {
    const file = broken("sandbox.json");
    expect(() => readConfigFile(file, readServiceModel(loadBundle()))).toThrow(
      `${file}:3:1: is not JSON: trailing comma`,
    );
  });

  it("the sandbox config nested past the scanner's depth, in one line", () => {
    const file = join(dir, "deep.json");
    writeFileSync(file, "[".repeat(200_000));
    expect(() => readConfigFile(file, readServiceModel(loadBundle()))).toThrow(
      `${file}:1:1001: is not JSON: nested more than 1000 deep`,
    );
  });

  it("a release record", () => {
    const releases = mkdtempSync(join(dir, "releases-"));
    mkdirSync(join(releases, "1.0.0"));
    writeFileSync(join(releases, "1.0.0", "release.json"), '{\n  "version": "1.0.0",\n}\n');
    expect(() => readRecords(releases)).toThrow("releases/1.0.0/release.json:3:1: not valid JSON: trailing comma");
  });

  it("the acknowledgements file", () => {
    expect(() => readAcknowledgements(broken("ack.json"), "ack.json")).toThrow(
      "ack.json:3:1: not valid JSON: trailing comma",
    );
  });
});
