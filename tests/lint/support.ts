import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Spectral } from "@stoplight/spectral-core";
import { parse, stringify } from "yaml";
import type { OpenApiDocument } from "../../model/document.ts";
import type { JsonPath } from "../../lint/finding.ts";
import { lintText, loadSpectral } from "../../lint/run-spectral.ts";

const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
export const GOLDEN_FILE = `${FIXTURES}golden.yaml`;

/** A fresh copy of the golden document. */
export function golden(): OpenApiDocument {
  return parse(readFileSync(GOLDEN_FILE, "utf8")) as OpenApiDocument;
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
    if (typeof parent !== "object" || parent === null || !(step in parent)) throw new Error(`patch path ${pointer}: no ${step}`);
    parent = (parent as Record<string, unknown>)[step];
  }
  if (key === undefined || typeof parent !== "object" || parent === null) throw new Error(`patch path ${pointer} names no member`);
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

/** A fixture of tests/lint/fixtures/breaks/: the golden document patched to break one rule. */
export interface BreakingFixture {
  name: string;
  description: string;
  patch: PatchOperation[];
  expect: ExpectedResult[];
}

export function breakingFixtures(): BreakingFixture[] {
  const dir = `${FIXTURES}breaks/`;
  return readdirSync(dir)
    .filter((file) => file.endsWith(".yaml"))
    .sort()
    .map((file) => ({ name: file.replace(/\.yaml$/, ""), ...(parse(readFileSync(`${dir}${file}`, "utf8")) as Omit<BreakingFixture, "name">) }));
}

let spectral: Promise<Spectral> | undefined;

/** Lints a document with .spectral.yaml; results as code, path and message. */
export async function lint(doc: unknown): Promise<ExpectedResult[]> {
  spectral ??= loadSpectral();
  const results = await lintText(await spectral, stringify(doc), "fixture.yaml");
  return results.map(({ code, path, message }) => ({ code: String(code), path: [...path], message }));
}
