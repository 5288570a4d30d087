import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SourceMap } from "../../lint/source-map.ts";

const dir = mkdtempSync(join(tmpdir(), "source-map-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(file: string, text: string): string {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), text);
  return join(dir, file);
}

const root = write(
  "openapi.yaml",
  `openapi: 3.1.0
info:
  title: T
paths:
  /v1/images/i-a:
    $ref: ./paths/v1_images_i-a.yaml
  /v1/loop:
    $ref: ./paths/loop.yaml
components:
  securitySchemes:
    key:
      type: http
`,
);
const pathFile = write(
  "paths/v1_images_i-a.yaml",
  `post:
  operationId: createImageIA
  requestBody:
    $ref: ../shared.yaml#/bodies/image
  responses:
    "200":
      $ref: ../components/responses/Ok.yaml
`,
);
const shared = write("shared.yaml", "bodies:\n  image:\n    content:\n      application/json: {}\n");
const ok = write(
  "components/responses/Ok.yaml",
  "description: Done.\ncontent:\n  application/json:\n    examples:\n      - first\n      - second\n",
);
write("paths/loop.yaml", "$ref: ./loop.yaml\n");

describe("source map", () => {
  const map = new SourceMap(root);

  it("follows a path into the file its $ref names, and points at the key", () => {
    expect(map.locate(["paths", "/v1/images/i-a", "post", "operationId"])).toEqual({
      file: pathFile,
      line: 2,
      column: 3,
    });
  });

  it("points at the $ref's key where the path ends there, and follows a fragment where it goes on", () => {
    expect(map.locate(["paths", "/v1/images/i-a", "post", "responses", "200"])).toEqual({
      file: pathFile,
      line: 6,
      column: 5,
    });
    expect(map.locate(["paths", "/v1/images/i-a", "post", "requestBody", "content", "application/json"])).toEqual({
      file: shared,
      line: 4,
      column: 7,
    });
  });

  it("finds a bundled component in the file it is named after, list items included", () => {
    expect(map.locate(["components", "responses", "Ok"])).toEqual({ file: ok, line: 1, column: 1 });
    expect(map.locate(["components", "responses", "Ok", "content", "application/json", "examples", 1])).toEqual({
      file: ok,
      line: 6,
      column: 9,
    });
  });

  it("keeps what the root holds itself in the root", () => {
    expect(map.locate(["components", "securitySchemes", "key", "type"])).toEqual({ file: root, line: 12, column: 7 });
  });

  it("reads a real slug of the bundle as the placeholder the files use", () => {
    expect(new SourceMap(root, { "i-a": "real-model" }).locate(["paths", "/v1/images/real-model", "post"])).toEqual({
      file: pathFile,
      line: 1,
      column: 1,
    });
  });

  it("has no location for a path the files do not hold, or a $ref cycle", () => {
    expect(map.locate(["paths", "/v1/images/i-b", "post"])).toBeUndefined();
    expect(map.locate(["components", "schemas", "Missing"])).toBeUndefined();
    expect(map.locate(["paths", "/v1/loop", "get"])).toBeUndefined();
  });
});

describe("source map, the edges of a walk", () => {
  const local = write(
    "local.yaml",
    `paths:
  /a:
    $ref: "#/x-shared/a"
  /b:
    $ref: 5
x-shared:
  a:
    get:
      tags: [t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11]
`,
  );
  const map = new SourceMap(local);

  it("follows a $ref to a fragment of its own file", () => {
    expect(map.locate(["paths", "/a", "get"])).toEqual({ file: local, line: 8, column: 5 });
  });

  it("points at a $ref itself where the path names it", () => {
    expect(map.locate(["paths", "/a", "$ref"])).toEqual({ file: local, line: 3, column: 5 });
  });

  it("has no location through a $ref that is not a string", () => {
    expect(map.locate(["paths", "/b", "get"])).toBeUndefined();
  });

  it("reads a list index of several digits, and no key that is not one", () => {
    const tags = ["x-shared", "a", "get", "tags"];
    expect(map.locate([...tags, 11])).toEqual({ file: local, line: 9, column: 59 });
    expect(map.locate([...tags, "1x"])).toBeUndefined();
    expect(map.locate([...tags, "x1"])).toBeUndefined();
  });

  it("reads real slugs in paths only: a key elsewhere that a real slug spells stays as written", () => {
    expect(new SourceMap(local, { "i-a": "a" }).locate(["x-shared", "a", "get"])).toEqual({
      file: local,
      line: 8,
      column: 5,
    });
  });

  it("locates paths itself and the root, slug or not", () => {
    expect(new SourceMap(local, { "i-a": "real" }).locate(["paths"])).toEqual({ file: local, line: 1, column: 1 });
    expect(map.locate([])).toEqual({ file: local, line: 1, column: 1 });
  });
});
