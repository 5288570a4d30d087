/**
 * The built site without a browser: every operation gets curl, typed-client, Python and JavaScript
 * samples made from its own examples, the description itself is left untouched, Redoc's bundle
 * refers to no CDN, every local link resolves, the reference carries its description and the
 * console's data in a script (no fetch), the page's copy folds the mock's choices and links its
 * introduction's sections to the guides, create answers name their own model, and the server
 * answers only inside the site folder.
 */
import { runInNewContext } from "node:vm";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_LABELS, withCodeSamples, type CodeSample } from "../../docs-src/code-samples.ts";
import { referenceCopies } from "../../docs-src/reference-copy.ts";
import { offlineRedocBundle } from "../../docs-src/redoc-bundle.ts";
import { REFERENCE_DATA_GLOBAL, type ReferenceData } from "../../docs-src/browser/console-data.ts";
import {
  LLMS_FILE,
  markdownCopyFile,
  REFERENCE_DATA_FILE,
  REFERENCE_SCRIPT_FILE,
  REFERENCE_SPEC_FILE,
  SITE_PAGES,
} from "../../docs-src/site-pages.ts";
import { buildSite } from "../../docs-src/site.ts";
import { readServiceModel } from "../../model/service-model.ts";
import { deref, loadBundle, operations } from "../../model/document.ts";
import { siteForThisFile } from "./built-site.ts";

const doc = loadBundle();
const builtSite = siteForThisFile(doc);

/** The JSON body of a curl sample (`-d '...'`), with the shell quoting undone. */
function curlBody(source: string): unknown {
  const match = /-d '([\s\S]*)'$/.exec(source);
  return match ? JSON.parse((match[1] ?? "").replace(/'\\''/g, "'")) : undefined;
}

describe("code samples", () => {
  // In a beforeAll, so that the mutation run credits each test with it (tests/mutation/hook-coverage.ts).
  let documented: ReturnType<typeof withCodeSamples>;
  beforeAll(() => {
    documented = withCodeSamples(doc);
  });

  it("are generated for every operation, from its own path and first request example", () => {
    for (const { path, method, operation } of operations(documented)) {
      const samples = operation["x-codeSamples"] as CodeSample[];
      expect(
        samples.map((sample) => sample.label),
        operation.operationId,
      ).toEqual([SAMPLE_LABELS.curl, SAMPLE_LABELS.client, SAMPLE_LABELS.python, SAMPLE_LABELS.fetch]);
      const [curl, client, python, fetch] = samples as [CodeSample, CodeSample, CodeSample, CodeSample];
      const concretePath = path.replace("{id}", "");
      expect(curl.source).toContain(`"$BASE_URL${concretePath}`);
      expect(curl.source).toContain(method === "get" ? 'curl "' : `curl -X ${method.toUpperCase()} `);
      expect(curl.source).toContain(`-H "Authorization: Bearer $API_KEY"`);
      const examples = operation.requestBody?.content["application/json"]?.examples;
      const firstExample = examples ? deref(doc, Object.values(examples)[0] ?? {}).value : undefined;
      expect(curlBody(curl.source), operation.operationId).toEqual(firstExample);
      expect(client.source).toContain("createClient(");
      if (operation["x-model-label"]) expect(client.source).toContain(JSON.stringify(path.split("/").at(-1)));
      for (const script of [python, fetch]) {
        expect(script.source).toMatch(new RegExp(`call\\(\\s*"${method.toUpperCase()}",\\s*"${concretePath}`));
        expect(script.source).toMatch(/BASE_URL = (os\.environ\["BASE_URL"\]|process\.env\.BASE_URL)/);
      }
    }
  });

  it("lay their own lines out within the code panel's 64 columns; only an example's long value is longer", () => {
    for (const { operation } of operations(documented)) {
      for (const sample of operation["x-codeSamples"] as CodeSample[]) {
        const long = sample.source.split("\n").filter((line) => line.length > 64);
        // An example's value (a prompt, a URL) is data: the panel wraps it rather than hide it.
        for (const line of long)
          expect(line, `${operation.operationId} ${sample.label}`).toMatch(/"[^"]{40,}"|'[^']{40,}'/);
      }
    }
  });

  it("are added to a docs-only copy, never to the description", () => {
    for (const { operation } of operations(doc)) expect(operation["x-codeSamples"]).toBeUndefined();
    const served = JSON.parse(readFileSync(join(builtSite().dir, REFERENCE_SPEC_FILE), "utf8"));
    for (const { operation } of operations(served as typeof doc))
      expect(operation["x-codeSamples"]).toEqual(
        operations(documented).find((own) => own.operation.operationId === operation.operationId)?.operation[
          "x-codeSamples"
        ],
      );
  });
});

describe("the built site", () => {
  it("ships a Redoc bundle that refers to no CDN", () => {
    const bundle = readFileSync(join(builtSite().dir, "redoc.standalone.js"), "utf8");
    // Compared as booleans and matches: a failure must not print a megabyte of minified code.
    expect(bundle === offlineRedocBundle()).toBe(true);
    expect(bundle.match(/https?:\/\/cdn\.[^"'`\s]*/g)).toBeNull();
    expect(bundle.match(/\/\/# sourceMappingURL=\S*\s*$/)).toBeNull();
  });

  it("links only to files of the site (or to anchors)", () => {
    const pages = readdirSync(builtSite().dir).filter((file) => file.endsWith(".html"));
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) {
      const html = readFileSync(join(builtSite().dir, page), "utf8");
      for (const [, target] of html.matchAll(/(?:href|src|spec-url)="([^"#]+)(?:#[^"]*)?"/g)) {
        if (target?.startsWith("data:")) continue;
        expect(target, `${page} links to ${target}`).not.toMatch(/^[a-z]+:\/\//i);
        expect(existsSync(join(builtSite().dir, target ?? "")), `${page} links to ${target}`).toBe(true);
      }
    }
  });

  it("is served from 127.0.0.1, and nothing outside the site folder is", async () => {
    expect(new URL(builtSite().server.url).hostname).toBe("127.0.0.1");
    const index = await fetch(`${builtSite().server.url}index.html`);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toContain("text/html");
    expect((await fetch(builtSite().server.url)).status).toBe(200);
    for (const outside of ["..%2Fpackage.json", "%2e%2e/%2e%2e/etc/passwd", "no-such-page.html"]) {
      expect((await fetch(`${builtSite().server.url}${outside}`)).status, outside).toBe(404);
    }
  });
});

describe("the reference's copies of the description", () => {
  const guides = [
    { file: "index.html", nav: "Overview", sections: [{ id: "conventions", title: "Conventions" }] },
    { file: "limits.html", nav: "Limits", sections: [] },
  ];
  // In a beforeAll, so that the mutation run credits each test with it (tests/mutation/hook-coverage.ts).
  let copies: ReturnType<typeof referenceCopies>;
  beforeAll(() => {
    copies = referenceCopies(doc, guides);
  });
  const created = (document: typeof doc) =>
    Object.values(document.paths).find((item) => item.post?.operationId === "createImageIA")?.post;

  it("end each operation's description with the Prefer values the mock answers: a sentence for programs, folded on the page", () => {
    const whole = created(copies.whole)?.description ?? "";
    expect(whole).toContain("**Contract mock** (`npm run mock`)");
    const page = created(copies.page)?.description ?? "";
    expect(page).toMatch(
      /<details class="mock-choices"><summary>Contract mock: \d+ documented answers on request<\/summary>/,
    );
    for (const selection of [
      "code=200, example=accepted",
      "code=400, example=moderation-input-csam",
      "code=429, example=queue-full",
    ]) {
      expect(whole).toContain(`\`Prefer: ${selection}\``);
      expect(page).toContain(`- \`Prefer: ${selection}\``);
    }
    expect(created(doc)?.description).not.toContain("Contract mock");
  });

  it("keep the introduction whole for programs; the page links each section a guide shows and keeps the others", () => {
    expect(copies.whole.info.description).toBe(doc.info.description);
    const page = String(copies.page.info.description);
    expect(page).toContain("[Conventions](index.html#conventions)");
    expect(page).toContain("[Limits](limits.html)");
    expect(page).not.toContain("## Conventions");
    expect(page).not.toContain("## Limits");
    // A section no guide shows here stays on the page, heading and text.
    expect(page).toContain("## Rules that hold for the whole service");
    expect(page.startsWith(String(doc.info.description).split("\n## ")[0]!.trim())).toBe(true);
  });

  it("give each create answer's sample its own model: the route's slug, not the shared example's stand-in", () => {
    const answer = created(copies.page)?.responses["200"] as {
      content?: Record<string, { examples?: Record<string, { value?: { model?: string } }> }>;
    };
    const examples = Object.values(answer.content?.["application/json"]?.examples ?? {});
    // I-A's slug in this build (a slug map may change it).
    const slug = readServiceModel(doc).createRoutes.find((route) => route.label === "I-A")!.slug;
    expect(examples.map((example) => example.value?.model)).toEqual([slug]);
    expect(JSON.stringify(doc.components)).toContain("model-identifier");
  });

  it("carries the description and the console's data in a script, so the reference needs no fetch", () => {
    const window: Record<string, unknown> = {};
    runInNewContext(readFileSync(join(builtSite().dir, REFERENCE_DATA_FILE), "utf8"), { window });
    const data = window[REFERENCE_DATA_GLOBAL] as ReferenceData;
    const served = JSON.parse(readFileSync(join(builtSite().dir, REFERENCE_SPEC_FILE), "utf8")) as typeof doc;
    const shown = data.spec as typeof doc;
    expect(operations(shown).map(({ operation }) => operation["x-codeSamples"])).toEqual(
      operations(served).map(({ operation }) => operation["x-codeSamples"]),
    );
    expect(String(shown.info.description).length).toBeLessThan(String(served.info.description).length);
    const model = readServiceModel(doc);
    expect(data.console.operations.map((operation) => operation.operationId)).toEqual(
      model.operations.map((operation) => operation.operationId),
    );
    const image = data.console.operations.find(
      (operation) => operation.operationId === model.createRoutes[0]?.operationId,
    );
    expect(image?.job?.idField, "a create route's job is followed").toBe(model.createRoutes[0]?.idField);
    expect(image?.examples.length, "named examples").toBeGreaterThan(0);
    // The page's script is one classic script (browsers refuse modules from disk) and fetches nothing itself.
    const script = readFileSync(join(builtSite().dir, REFERENCE_SCRIPT_FILE), "utf8");
    expect(script).not.toMatch(/^\s*(import|export)\s/m);
    expect(readFileSync(join(builtSite().dir, "reference.html"), "utf8")).not.toContain("spec-url");
  });
});

describe("buildSite's folder and llms.txt", () => {
  // One build into a folder whose parents do not exist yet, one more into it over a stale file.
  let out: string;
  let first: string[];
  let second: string[];
  beforeAll(() => {
    const parent = mkdtempSync(join(tmpdir(), "site-folder-"));
    out = join(parent, "a", "b");
    first = buildSite(doc, out);
    mkdirSync(join(out, "old"));
    writeFileSync(join(out, "old", "stale.html"), "from an earlier build");
    second = buildSite(doc, out);
  });
  afterAll(() => rmSync(join(out, "..", ".."), { recursive: true, force: true }));

  it("is made with its parents, emptied of an earlier build's files, and holds exactly the files the build returns", () => {
    expect(existsSync(join(out, "old"))).toBe(false);
    expect(second).toEqual(first);
    expect(readdirSync(out).sort()).toEqual([...second].sort());
  });

  it("ignores itself in git: the site is derived output, never committed", () => {
    expect(readFileSync(join(out, ".gitignore"), "utf8")).toBe("*\n");
  });

  it("lists each page in llms.txt with its Markdown copy, and its own title where that is not its name in the sidebar", () => {
    const llms = readFileSync(join(out, LLMS_FILE), "utf8");
    for (const page of SITE_PAGES) {
      const copy = markdownCopyFile(page);
      const title =
        page.kind === "reference"
          ? "every operation with its parameters, answers and code samples"
          : /^# (.+)$/m.exec(readFileSync(join(out, copy), "utf8"))?.[1];
      const about = title === page.nav ? "" : `: ${title}`;
      expect(llms.split("\n"), page.nav).toContain(`- [${page.nav}](${copy})${about}`);
    }
    // Both kinds are there: a guide named as its title, and one whose title says more.
    expect(llms).toContain("- [Overview](index.md)\n");
    expect(llms).toContain("- [Price tables](prices.md): Prices\n");
  });
});
