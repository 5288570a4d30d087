/**
 * Every typed-client code sample compiles against generated/client.ts: a sample with a wrong
 * method, slug or body field would fail here, so the reference cannot show calls the client
 * rejects.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { codeSamples } from "../../docs-src/code-samples.ts";
import { PROJECT_ROOT } from "../../docs-src/site.ts";
import { loadBundle } from "../../model/document.ts";

const dir = mkdtempSync(join(tmpdir(), "client-samples-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Type errors of the given sample sources, checked together in one program, one line each. */
function typeErrors(sources: Record<string, string>): string[] {
  const files = Object.entries(sources).map(([name, source]) => {
    const file = join(dir, `${name}.mts`);
    // The samples import the client as a user would, from the project root.
    writeFileSync(file, source.replace('"./generated/client.ts"', JSON.stringify(join(PROJECT_ROOT, "generated", "client.ts"))));
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
    .map((diagnostic) => `${diagnostic.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`);
}

describe("typed-client code samples", () => {
  it("compile against generated/client.ts, and a broken one does not", () => {
    const samples = codeSamples(loadBundle());
    const sources = Object.fromEntries([...samples].map(([operationId, { client }]) => [operationId, client.source]));
    const broken = (sources.createImageIA ?? "").replace('"prompt"', '"no_such_field"');
    expect(broken).not.toBe(sources.createImageIA);
    const errors = typeErrors({ ...sources, broken });
    expect(errors.filter((line) => !line.includes("broken.mts"))).toEqual([]);
    expect(errors.some((line) => line.includes("broken.mts") && line.includes("no_such_field"))).toBe(true);
  });
});
