/**
 * The Arazzo workflows of workflows/: linted by Redocly (lint/lint-workflows.ts, as npm run lint
 * does), and consistent with the description they run against: every operation they call is one
 * of the bundle's, and their polls wait on the description's statuses. Running them against the
 * sandbox: respect.e2e.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadBundle, operations } from "../../model/document.ts";
import { loadServiceModel } from "../../model/service-model.ts";
import { DEFAULT_POLL_INTERVAL_MS } from "../../runtime/client/options.ts";
import { lintWorkflows, workflowFiles, WORKFLOWS_DIR } from "../../lint/lint-workflows.ts";

interface Step {
  stepId: string;
  operationId: string;
  successCriteria?: Array<{ condition: string; type?: string }>;
  onFailure?: Array<{ reference: string }>;
}
interface Workflow {
  arazzo: string;
  sourceDescriptions: Array<{ name: string; url: string; type: string }>;
  workflows: Array<{ workflowId: string; steps: Step[] }>;
  components: {
    failureActions: Record<string, { type: string; retryAfter: number; criteria: Array<{ condition: string }> }>;
  };
}

const files = workflowFiles();
const read = (file: string): Workflow => parse(readFileSync(file, "utf8")) as Workflow;
const work = mkdtempSync(join(tmpdir(), "workflows-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the workflows", () => {
  it("are the three flows, one file each", () => {
    expect(files.map((file) => basename(file))).toEqual([
      "create-image.arazzo.yaml",
      "quote-then-create.arazzo.yaml",
      "upload-then-create.arazzo.yaml",
    ]);
  });

  it("lint clean with Redocly's Arazzo rules: a run that prints no report and exits 0 is no finding", async () => {
    expect(await lintWorkflows(files)).toEqual([]);
  });

  it("lint with a broken copy reported at its file and line", async () => {
    const broken = join(work, "broken.arazzo.yaml");
    const text = readFileSync(files[0]!, "utf8").replace(
      "url: ../generated/openapi.yaml",
      `url: ${join(WORKFLOWS_DIR, "..", "generated", "openapi.yaml")}`,
    );
    // A failure action of a type Arazzo does not have (goto, retry, end).
    writeFileSync(broken, text.replace("      type: retry\n", "      type: retry-later\n"));
    const line = text.split("\n").indexOf("      type: retry") + 1;
    const findings = await lintWorkflows([...files, broken]);
    expect(findings.map(({ location, code }) => `${basename(location.file)}:${location.line} ${code}`)).toEqual([
      `broken.arazzo.yaml:${line} redocly:struct`,
    ]);
    expect(findings[0]!.severity).toBe("error");
  });

  it.each(files)("%s runs Arazzo 1.0.1 on the bundled description, calling only its operations", (file) => {
    const workflow = read(file);
    expect(workflow.arazzo).toBe("1.0.1");
    expect(workflow.sourceDescriptions).toEqual([
      { name: "mediaService", url: "../generated/openapi.yaml", type: "openapi" },
    ]);
    const known = new Set(
      operations(loadBundle()).map(({ operation }) => `$sourceDescriptions.mediaService.${operation.operationId}`),
    );
    const called = workflow.workflows.flatMap((flow) => flow.steps.map((step) => step.operationId));
    expect(called.filter((id) => !known.has(id))).toEqual([]);
  });

  it.each(files)(
    "%s polls until the job is terminal: again while it is not, at the image area's interval, done on success",
    (file) => {
      const { jobStatus } = loadServiceModel();
      const workflow = read(file);
      const polls = workflow.workflows
        .flatMap((flow) => flow.steps)
        .filter((step) => step.operationId.endsWith(".getImageJob"));
      expect(polls).toHaveLength(1);
      const [poll] = polls;
      expect(poll!.successCriteria).toContainEqual({ condition: `$response.body#/status == '${jobStatus.success}'` });
      // Written out from the specification: the statuses that are not terminal.
      expect(jobStatus.values.filter((status) => !jobStatus.terminal.includes(status))).toEqual([
        "pending",
        "starting",
        "processing",
        "completing",
      ]);
      const again = workflow.components.failureActions[poll!.onFailure![0]!.reference.split(".").at(-1)!]!;
      expect(again.type).toBe("retry");
      expect(again.criteria.at(-1)!.condition).toBe(
        "$response.body#/status == 'pending' || $response.body#/status == 'starting' || $response.body#/status == 'processing' || $response.body#/status == 'completing'",
      );
      // The image area's cadence has no number ("every few seconds"): the typed client's interval for such areas.
      const images = loadServiceModel().areas.find((area) => area.id === "image");
      expect(images?.poll.cadence).toBe("every few seconds");
      expect(images?.poll.intervalSeconds).toBeNull();
      expect(again.retryAfter * 1000).toBe(DEFAULT_POLL_INTERVAL_MS);
    },
  );
});
