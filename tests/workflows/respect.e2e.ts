/**
 * The Arazzo workflows of workflows/ run by `redocly respect` against the sandbox (fast clock), as
 * the README's `npm run workflows` runs them against any target: all three pass with nothing but the
 * target's address given (the key is the sandbox's demo key), the charge read is the quote, and a
 * planted change to the sandbox's poll answer (a proxy that rewrites it) fails the poll step.
 * Respect runs with its usage data off, reaches nothing but 127.0.0.1, and its Node end-of-life box
 * is not shown.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WORKFLOWS_DIR } from "../../lint/lint-workflows.ts";
import { REDOCLY_OFFLINE_ENV } from "../../lint/run-redocly.ts";
import { loadServiceModel } from "../../model/service-model.ts";
import { WORKFLOW_RUNS } from "../../scripts/workflow-runs.ts";
import { startSandbox } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";

const project = new URL("../../", import.meta.url).pathname;
const REDOCLY = join(project, "node_modules", ".bin", "redocly");
const workflow = (name: string) => join(WORKFLOWS_DIR, `${name}.arazzo.yaml`);
const KEY = "sandbox-demo-key";
/** Respect's own cap on a run; the poll waits 5 s between polls, and a loaded machine is slow. */
const RUN_MS = 180_000;

interface Report {
  files: Record<
    string,
    {
      executedWorkflows: Array<{
        workflowId: string;
        status: string;
        executedSteps: Array<{ stepId: string; status: string; response?: { body?: Record<string, unknown> } }>;
      }>;
    }
  >;
}

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let work: string;
let runs = 0;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "respect-"));
  const defaults = JSON.parse(readFileSync(join(project, "sandbox", "default-config.json"), "utf8")) as object;
  sandbox = await startSandbox({ config: fastSandboxConfig(defaults), port: 0 });
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Runs respect on `files` against `url`; its exit code, its printed output and its JSON report. */
function respect(
  files: string[],
  url: string,
  inputs: object,
  ...options: string[]
): Promise<{ code: number; output: string; report: Report }> {
  const report = join(work, `report-${++runs}.json`);
  const args = [
    "respect",
    ...files,
    "--input",
    JSON.stringify({ apiKey: KEY, ...inputs }),
    "--server",
    `mediaService=${url}`,
    "--json-output",
    report,
    ...options,
  ];
  return new Promise((resolve) => {
    execFile(
      REDOCLY,
      args,
      { cwd: project, env: { ...process.env, ...REDOCLY_OFFLINE_ENV }, timeout: RUN_MS, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? 1) : 0;
        resolve({ code, output: `${stdout}${stderr}`, report: JSON.parse(readFileSync(report, "utf8")) as Report });
      },
    );
  });
}

/** Each workflow's status, and each step's last status, as `workflowId: status (step status, ...)`. */
const outcomes = (report: Report): string[] =>
  Object.values(report.files).flatMap((file) =>
    file.executedWorkflows.map(({ workflowId, status, executedSteps }) => {
      const last = new Map(executedSteps.map((step) => [step.stepId, step.status]));
      return `${workflowId}: ${status} (${[...last].map(([step, stepStatus]) => `${step} ${stepStatus}`).join(", ")})`;
    }),
  );

/** A proxy to the sandbox that passes every answer through, the image polls' bodies changed by `plant`. */
async function plantedProxy(
  plant: (job: Record<string, unknown>) => Record<string, unknown>,
): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => ["authorization", "content-type"].includes(name)),
      ) as Record<string, string>;
      const answer = await fetch(new URL(request.url!, sandbox.url), { method: request.method, headers, body });
      let text = await answer.text();
      if (request.method === "GET" && /^\/v1\/images\/[^/]+$/.test(request.url!) && answer.status === 200)
        text = JSON.stringify(plant(JSON.parse(text) as Record<string, unknown>));
      response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("the workflows against the sandbox (redocly respect)", () => {
  it(
    "npm run workflows runs all three green with nothing but the target's address, the key masked, no end-of-life box",
    async () => {
      const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
        (resolve) => {
          execFile(
            process.execPath,
            ["--import", "tsx", "scripts/workflows.ts", "--server", sandbox.url],
            { cwd: project, timeout: RUN_MS * 3, maxBuffer: 64 * 1024 * 1024 },
            (error, out, err) =>
              resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: out, stderr: err }),
          );
        },
      );
      expect(code, `${stdout}${stderr}`).toBe(0);
      expect(stdout).toContain(`workflows: 3 of 3 passed against ${sandbox.url}`);
      for (const run of WORKFLOW_RUNS) expect(stdout).toContain(`✓ ${run.name}.arazzo.yaml`);
      expect(`${stdout}${stderr}`).not.toMatch(/end-of-life|support is ending/);
      // The key never shows in what respect prints.
      expect(`${stdout}${stderr}`).not.toContain(KEY);
    },
    RUN_MS * 3,
  );

  it(
    "create an image and upload then create: every step passes",
    async () => {
      const { code, output, report } = await respect(
        [workflow("create-image"), workflow("upload-then-create")],
        sandbox.url,
        {},
      );
      expect(outcomes(report), output).toEqual([
        "createImage: success (creditsBefore success, create success, poll success, creditsAfter success)",
        "uploadThenCreate: success (upload success, create success, poll success)",
      ]);
      expect(code).toBe(0);
      // The key never shows in what respect prints.
      expect(output).not.toContain(KEY);
    },
    RUN_MS,
  );

  it(
    "quote then create: the charge, the credits before less after, is the quote (24 credits for two I-A images)",
    async () => {
      const slug = loadServiceModel().createRoutes.find((route) => route.label === "I-A")!.slug;
      // Respect checks a response as if its schema forbade other fields; the quote's other fields are not shown, and the sandbox sends some (model, breakdown).
      const run = WORKFLOW_RUNS.find((candidate) => candidate.name === "quote-then-create")!;
      const { code, output, report } = await respect(
        [workflow(run.name)],
        sandbox.url,
        { model: slug },
        ...run.options,
      );
      expect(code, output).toBe(0);
      const steps = Object.values(report.files)[0]!.executedWorkflows[0]!.executedSteps;
      const body = (stepId: string) => steps.filter((step) => step.stepId === stepId).at(-1)!.response!.body!;
      // I-A at its default size (1K): 12 credits an image, two images (the specification's price table).
      expect(body("quote").credits).toBe(24);
      expect((body("creditsBefore").total_available as number) - (body("creditsAfter").total_available as number)).toBe(
        24,
      );
    },
    RUN_MS,
  );

  it.each([
    ["a status the description does not have", (job: Record<string, unknown>) => ({ ...job, status: "on_hold" })],
    ["a succeeded job without its images", ({ images: _images, ...job }: Record<string, unknown>) => job],
  ])(
    "fails the poll step when the sandbox's poll answers %s",
    async (_change, plant) => {
      const proxy = await plantedProxy(plant);
      try {
        const { code, output, report } = await respect([workflow("create-image")], proxy.url, {});
        expect(outcomes(report), output).toEqual([
          "createImage: error (creditsBefore success, create success, poll error)",
        ]);
        expect(code).not.toBe(0);
      } finally {
        await new Promise((resolve) => proxy.server.close(resolve));
      }
    },
    RUN_MS,
  );
});
