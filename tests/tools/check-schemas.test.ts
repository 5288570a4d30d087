/** The build checks every schema and the document itself, one finding per mistake at its place in openapi/ (tools/check-schemas.ts). */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { slugMapFile } from "../../model/slug-map.ts";
import { bundleDescription, BundleError } from "../../tools/bundle-description.ts";

const project = new URL("../../", import.meta.url).pathname;

describe("the build's schema check", () => {
  let root: string;
  const source = (file: string): string => join(root, "openapi", file);
  const lineOf = (file: string, text: string): number =>
    readFileSync(file, "utf8")
      .split("\n")
      .findIndex((line) => line.includes(text)) + 1;
  const plant = (file: string, from: string, to: string): void => {
    const text = readFileSync(source(file), "utf8");
    expect(text).toContain(from);
    writeFileSync(source(file), text.replace(from, to));
  };
  const bundleErrors = async (): Promise<string[]> => {
    const error = await bundle().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(BundleError);
    return (error as Error).message.trim().split("\n").slice(1);
  };

  const bundle = (): Promise<number> =>
    bundleDescription(source("openapi.yaml"), join(root, "generated"), slugMapFile());

  // Each test plants its mistakes in its own copy of the description: none depends on another's.
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "check-schemas-"));
    cpSync(join(project, "openapi"), join(root, "openapi"), { recursive: true });
    mkdirSync(join(root, "generated"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("passes the description as it is", async () => {
    expect(await bundle()).toBeGreaterThan(0);
  });

  it("fails on `type: intger` with one finding at its file and line, and writes nothing", async () => {
    await bundle();
    const before = readFileSync(join(root, "generated", "openapi.json"), "utf8");
    plant(
      "components/schemas/ErrorBody.yaml",
      "      type:\n        type: string",
      "      type:\n        type: intger",
    );
    const file = source("components/schemas/ErrorBody.yaml");
    expect(await bundleErrors()).toEqual([
      `${file}:${lineOf(file, "type: intger")}:9 type must be one of array, boolean, integer, null, number, object, string, got "intger" (JSON Schema 2020-12)`,
    ]);
    expect(readFileSync(join(root, "generated", "openapi.json"), "utf8")).toBe(before);
  });

  it("reports a document mistake against the OpenAPI 3.1 schema beside it, each once", async () => {
    plant(
      "components/schemas/ErrorBody.yaml",
      "      type:\n        type: string",
      "      type:\n        type: intger",
    );
    plant(
      "paths/v1_images_i-a.yaml",
      "  operationId: createImageIA\n",
      "  operationId: createImageIA\n  deprecated: sometimes\n",
    );
    const file = source("paths/v1_images_i-a.yaml");
    const schema = source("components/schemas/ErrorBody.yaml");
    expect(await bundleErrors()).toEqual([
      `${file}:${lineOf(file, "deprecated: sometimes")}:3 deprecated must be boolean (OpenAPI 3.1 schema)`,
      `${schema}:${lineOf(schema, "type: intger")}:9 type must be one of array, boolean, integer, null, number, object, string, got "intger" (JSON Schema 2020-12)`,
    ]);
  });

  it("reports a file that does not parse once, at the file, not again at each $ref to it", async () => {
    const file = source("paths/v1_images_i-b.yaml");
    writeFileSync(file, `${readFileSync(file, "utf8")}broken: [unclosed\n`);
    const errors = await bundleErrors();
    expect(errors.filter((line) => line.includes("v1_images_i-b.yaml"))).toEqual([
      expect.stringMatching(new RegExp(`^${file}:\\d+:\\d+ Failed to parse: `)),
    ]);
    expect(errors.some((line) => line.includes("Can't resolve $ref"))).toBe(false);
  });
});
