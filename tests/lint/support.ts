import { existsSync, readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Spectral } from "@stoplight/spectral-core";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { OpenApiDocument } from "../../model/document.ts";
import type { RuleCheck, RuleCheckOptions, HouseRule, JsonPath } from "../../lint/finding.ts";
import * as HOUSE_RULES from "../../lint/rules/index.ts";
import { lintText, loadSpectral } from "../../lint/run-spectral.ts";

const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
const RULES = fileURLToPath(new URL("../../lint/rules/", import.meta.url));
export const GOLDEN_FILE = `${FIXTURES}golden.yaml`;

/** JSON pointers into the golden document's I-A route, which the rule tests patch. */
export const I_A_PATH = "/paths/~1v1~1images~1i-a";
export const I_A_CREATE = `${I_A_PATH}/post`;
export const I_A_REQUEST = `${I_A_CREATE}/requestBody/content/application~1json/schema`;

let parsedGolden: OpenApiDocument | undefined;

/** A fresh copy of the golden document (parsed once: the fixtures patch copies). */
export function golden(): OpenApiDocument {
  parsedGolden ??= parse(readFileSync(GOLDEN_FILE, "utf8")) as OpenApiDocument;
  return structuredClone(parsedGolden);
}

/** One JSON Patch operation (RFC 6902), the subset the fixtures use. */
export type PatchOperation =
  | { op: "add" | "replace"; path: string; value: unknown }
  | { op: "remove"; path: string }
  | { op: "move"; from: string; path: string };

function keys(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((key) => key.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The parent container of a pointer's target, and the target's key; throws if the parent is missing. */
function locate(doc: unknown, pointer: string): { parent: Record<string, unknown>; key: string } {
  const path = keys(pointer);
  const key = path.pop();
  let parent: unknown = doc;
  for (const step of path) {
    if (typeof parent !== "object" || parent === null || !(step in parent))
      throw new Error(`patch path ${pointer}: no ${step}`);
    parent = (parent as Record<string, unknown>)[step];
  }
  if (key === undefined || typeof parent !== "object" || parent === null)
    throw new Error(`patch path ${pointer} names no member`);
  return { parent: parent as Record<string, unknown>, key };
}

function take(doc: unknown, pointer: string): unknown {
  const { parent, key } = locate(doc, pointer);
  if (!(key in parent)) throw new Error(`patch path ${pointer}: nothing to remove`);
  const value = parent[key];
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete parent[key];
  return value;
}

function put(doc: unknown, pointer: string, value: unknown): void {
  const { parent, key } = locate(doc, pointer);
  if (Array.isArray(parent)) parent.splice(key === "-" ? parent.length : Number(key), 0, value);
  else parent[key] = value;
}

export function applyPatch<T>(doc: T, operations: PatchOperation[]): T {
  for (const operation of operations) {
    if (operation.op === "move") put(doc, operation.path, take(doc, operation.from));
    else if (operation.op === "remove") take(doc, operation.path);
    else {
      if (operation.op === "replace") take(doc, operation.path);
      put(doc, operation.path, operation.value);
    }
  }
  return doc;
}

export interface ExpectedResult {
  code: string;
  path: JsonPath;
  message: string;
}

/** The golden document patched to break one rule, and every result the whole ruleset then reports. */
export interface BreakingFixture {
  name: string;
  description: string;
  patch: PatchOperation[];
  expect: ExpectedResult[];
}

function fixturesIn(dir: string, prefix: string): BreakingFixture[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith(".yaml"))
    .sort()
    .map((file) => ({
      name: `${prefix}${file.replace(/\.yaml$/, "")}`,
      ...(parse(readFileSync(`${dir}${file}`, "utf8")) as Omit<BreakingFixture, "name">),
    }));
}

/** A house rule's fixtures, in lint/rules/<name>/fixtures/. */
export function ruleFixtures(name: string): BreakingFixture[] {
  return fixturesIn(`${RULES}${name}/fixtures/`, `${name}/`);
}

/**
 * Every fixture: each house rule's, and those in tests/lint/fixtures/breaks/ of the rules
 * .spectral.yaml builds from Spectral's core functions.
 */
export function breakingFixtures(): BreakingFixture[] {
  return [...fixturesIn(`${FIXTURES}breaks/`, ""), ...Object.keys(HOUSE_RULES).flatMap(ruleFixtures)];
}

/** Results in one order, since Spectral and a check may list the same results differently. */
export function sorted<T>(results: T[]): T[] {
  return [...results].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

const NO_MAP: RuleCheckOptions = { slugMap: {} };

/** A check's findings on the golden document patched, paths joined with dots for comparison. */
export function findings(
  check: RuleCheck,
  patch: PatchOperation[],
  options = NO_MAP,
): Array<{ path: string; message: string }> {
  return check(applyPatch(golden(), patch), options).map(({ path, message }) => ({ path: path.join("."), message }));
}

/**
 * What every house rule's own test asserts, from the check alone (no Spectral): it finds nothing on
 * the golden document, and on each of its fixtures exactly the fixture's results of its code.
 */
export function describeHouseRule(name: string, rule: HouseRule): void {
  describe(`house-${name} on its fixtures`, () => {
    it("finds nothing on the golden document", () => {
      expect(rule.check(golden(), NO_MAP)).toEqual([]);
    });
    for (const fixture of ruleFixtures(name)) {
      it(`${fixture.name}: ${fixture.description}`, () => {
        const expected = fixture.expect
          .filter(({ code }) => code === `house-${name}`)
          .map(({ path, message }) => ({ path: path.join("."), message }));
        expect(expected.length, "the fixture expects a result of its rule").toBeGreaterThan(0);
        expect(sorted(findings(rule.check, fixture.patch))).toEqual(sorted(expected));
      });
    }
  });
}

let spectral: Promise<Spectral> | undefined;

/** Spectral with .spectral.yaml, loaded once per test file. */
export function loadedSpectral(): Promise<Spectral> {
  spectral ??= loadSpectral();
  return spectral;
}

/** Lints a document with .spectral.yaml; results as code, path and message. */
export async function lint(doc: unknown): Promise<ExpectedResult[]> {
  const results = await lintText(await loadedSpectral(), stringify(doc), "fixture.yaml");
  return results.map(({ code, path, message }) => ({ code: String(code), path: [...path], message }));
}
