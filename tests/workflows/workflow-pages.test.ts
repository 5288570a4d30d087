/** The docs' pages of the workflows (docs-src/workflow-pages.ts): one per workflow file, its steps as a list. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { WORKFLOW_NAMES, workflowPages } from "../../docs-src/workflow-pages.ts";
import { workflowFiles } from "../../lint/lint-workflows.ts";
import { loadBundle } from "../../model/document.ts";
import { applySlugMap, placeholderPaths } from "../../model/slug-map.ts";

/** The bundle with its create paths at their placeholders, whatever slug map the build used. */
const placeholderDoc = () => {
  const doc = structuredClone(loadBundle());
  doc.paths = placeholderPaths(doc.paths) as typeof doc.paths;
  return doc;
};

describe("the workflows' pages", () => {
  it("are one generated page per workflow file, named after it, titled by it", () => {
    expect(workflowFiles().map((file) => file.split("/").at(-1))).toEqual(
      WORKFLOW_NAMES.map((name) => `${name}.arazzo.yaml`),
    );
    expect(workflowPages().map(({ kind, file, nav, source }) => ({ kind, file, nav, source }))).toEqual([
      {
        kind: "generated",
        file: "workflow-create-image.html",
        nav: "Create an image and read its charge",
        source: "workflows/create-image.arazzo.yaml",
      },
      {
        kind: "generated",
        file: "workflow-quote-then-create.html",
        nav: "Quote, then create",
        source: "workflows/quote-then-create.arazzo.yaml",
      },
      {
        kind: "generated",
        file: "workflow-upload-then-create.html",
        nav: "Upload, then use the URL in a create",
        source: "workflows/upload-then-create.arazzo.yaml",
      },
    ]);
  });

  it("list a workflow's steps in order, each with its route, when it succeeds, when it is polled again and what it keeps", () => {
    const markdown = workflowPages()[0]!.markdown(placeholderDoc());
    expect(markdown.startsWith("# Create an image and read its charge\n")).toBe(true);
    const steps = markdown.split("\n").filter((line) => /^\d+\. /.test(line));
    expect(steps.map((line) => `${line.split(". ")[0]}. ${line.split(". ")[1]!.split(")")[0]})`)).toEqual([
      "1. **`creditsBefore`**: `GET /v1/account/credits` (`getAccountCredits`)",
      "2. **`create`**: `POST /v1/images/i-a` (`createImageIA`)",
      "3. **`poll`**: `GET /v1/images/{id}` (`getImageJob`)",
      "4. **`creditsAfter`**: `GET /v1/account/credits` (`getAccountCredits`)",
    ]);
    expect(markdown).toContain(
      "   - Tried again after 5 s, at most 360 times, while `$statusCode == 200` and `$response.body#/status == 'pending' ||",
    );
    expect(markdown).toContain(
      "   - Succeeds when `$statusCode == 200` and `$response.body#/status == 'succeeded'` and `$response.body: $[?length(@.images) > 0]`.",
    );
    expect(markdown).toContain("   - Keeps `jobId` (`$response.body#/id`).");
    expect(markdown).toContain("- `apiKey` (required): The API key, sent as `Authorization: Bearer <apiKey>`.");
    expect(markdown).toContain(
      "REDOCLY_TELEMETRY=off npx redocly respect workflows/create-image.arazzo.yaml --input apiKey=KEY --server mediaService=URL",
    );
  });

  it("name each route as the build's description has it (real slugs under a slug map)", () => {
    const doc = placeholderDoc();
    doc.paths = applySlugMap(doc.paths, { "i-a": "imagegen-4-ultra" }) as typeof doc.paths;
    expect(workflowPages()[0]!.markdown(doc)).toContain(
      "2. **`create`**: `POST /v1/images/imagegen-4-ultra` (`createImageIA`)",
    );
  });

  it("show a workflow's text with backticks as code, and keep its newlines out of the list", () => {
    const dir = mkdtempSync(join(tmpdir(), "workflow-pages-"));
    try {
      const step = {
        stepId: "a`b",
        description: "line one\nline two",
        operationId: "$sourceDescriptions.mediaService.getAccountCredits",
      };
      writeFileSync(
        join(dir, "odd.arazzo.yaml"),
        JSON.stringify({
          arazzo: "1.0.1",
          info: { title: "Odd\nTitle", version: "1" },
          workflows: [{ workflowId: "w", steps: [step] }],
        }),
      );
      const markdown = workflowPages(["odd"], dir)[0]!.markdown(placeholderDoc());
      expect(markdown).toContain("# Odd Title\n");
      expect(markdown).toContain(
        "1. **`` a`b ``**: `GET /v1/account/credits` (`getAccountCredits`). line one line two\n",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
