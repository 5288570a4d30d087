/**
 * Every typed-client code sample compiles against generated/client.ts: a sample with a wrong
 * method, slug or body field would fail here, so the reference cannot show calls the client
 * rejects. The same program checks the client's compile errors for a wrong slug, an unknown body
 * field and a missing one, and an unknown query parameter of an operation's method: a short message
 * naming them, not the route table or the body or query type.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeSamples } from "../../docs-src/code-samples.ts";
import { PROJECT_ROOT } from "../../docs-src/site.ts";
import { CLIENT_PACKAGE } from "../../packages/shared/package-build.ts";
import { loadBundle } from "../../model/document.ts";
import { readServiceModel } from "../../model/service-model.ts";

const dir = mkdtempSync(join(tmpdir(), "client-samples-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Type errors of the given sample sources, checked together in one program, one line each. */
function typeErrors(sources: Record<string, string>): string[] {
  const files = Object.entries(sources).map(([name, source]) => {
    const file = join(dir, `${name}.mts`);
    // The samples import the published package, whose code is generated/client.ts.
    expect(source).toContain(`from ${JSON.stringify(CLIENT_PACKAGE)};`);
    writeFileSync(
      file,
      source.replace(JSON.stringify(CLIENT_PACKAGE), JSON.stringify(join(PROJECT_ROOT, "generated", "client.ts"))),
    );
    return file;
  });
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    types: ["node"],
    typeRoots: [join(PROJECT_ROOT, "node_modules", "@types")],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (diagnostic) =>
        `${diagnostic.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`,
    );
}

const doc = loadBundle();
const samples = codeSamples(doc);
const sources = Object.fromEntries([...samples].map(([operationId, { client }]) => [operationId, client.source]));
const image = readServiceModel(doc).createRoutes.find((route) => route.label === "I-A")!;
const sample = sources[image.operationId] ?? "";
const stock = readServiceModel(doc).operations.find((operation) => operation.operationId === "searchStockImages")!;
/** Samples broken on purpose: each must fail with the message given. */
const broken: Record<string, { source: string; message: string }> = {
  "wrong-slug": {
    source: sample.replace(`"${image.slug}"`, '"no-such-slug"'),
    message: `'no-such-slug' is not a slug of client.${image.areaId}`,
  },
  "unknown-field": {
    source: sample.replace('"prompt"', '"no_such_field"'),
    message: `'no_such_field' is not a field of the body of POST ${image.path}`,
  },
  "missing-field": {
    source: sample.replace(/"prompt": "[^"]*"/, '"num_images": 1'),
    message: `'prompt' is required in the body of POST ${image.path}`,
  },
  // The other operations' methods check their query (and body) the same way.
  "unknown-query-parameter": {
    source: (sources[stock.operationId] ?? "").replace('"query":', '"no_such_parameter":'),
    message: `'no_such_parameter' is not a parameter of the query of GET ${stock.path}`,
  },
};
let errors: string[] = [];
/** Every sample and every broken one, type-checked once in one program (in a hook: it takes a while on a busy machine). */
beforeAll(() => {
  errors = typeErrors({
    ...sources,
    ...Object.fromEntries(Object.entries(broken).map(([name, { source }]) => [name, source])),
  });
});
const allErrors = (): string[] => errors;

describe("typed-client code samples", () => {
  it("compile against generated/client.ts", () => {
    for (const [name, { source }] of Object.entries(broken))
      expect(source, name).not.toBe(sources[name.startsWith("unknown-query") ? stock.operationId : image.operationId]);
    expect(allErrors().filter((line) => !Object.keys(broken).some((name) => line.includes(`${name}.mts`)))).toEqual([]);
  });

  it("a wrong slug, an unknown field, a missing one and an unknown query parameter fail with a short message naming them", () => {
    for (const [name, { message }] of Object.entries(broken)) {
      const own = allErrors().filter((line) => line.includes(`${name}.mts`));
      expect(own, name).toHaveLength(1);
      expect(own[0], name).toContain(message);
      // The message, not the route table (readonly fields) or the whole body type (optional fields).
      expect(own[0], name).not.toContain("readonly");
      expect(own[0], name).not.toContain("?:");
    }
  });
});
