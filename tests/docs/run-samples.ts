/**
 * Runs the reference's Python and JavaScript (fetch) samples as a reader would: each written to a
 * file and run with python3 or node, BASE_URL and API_KEY in the environment, against a sandbox on
 * 127.0.0.1. A poll sample is run on a job the sandbox holds: the job's id takes the place of the
 * description's example id, which no sandbox knows.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { codeSamples } from "../../docs-src/code-samples.ts";
import { requestExample } from "../../docs-src/request-example.ts";
import { loadBundle } from "../../model/document.ts";
import { readServiceModel } from "../../model/service-model.ts";

const run = promisify(execFile);

export const doc = loadBundle();
export const model = readServiceModel(doc);
export const samples = codeSamples(doc);

export type ScriptKind = "python" | "fetch";

export interface SampleRun {
  operationId: string;
  kind: ScriptKind;
  code: number;
  stdout: string;
  stderr: string;
}

/** A create route's job id, made in the sandbox, for the poll samples of its area. */
export type JobIds = (pollOperationId: string) => Promise<{ exampleId: string; id: string } | null>;

export async function runSample(
  operationId: string,
  kind: ScriptKind,
  env: { BASE_URL: string; API_KEY: string },
  jobIds: JobIds,
): Promise<SampleRun> {
  const own = samples.get(operationId);
  if (!own) throw new Error(`no samples for ${operationId}`);
  let source = own[kind].source;
  const job = await jobIds(operationId);
  if (job) source = source.replaceAll(job.exampleId, job.id);
  const dir = mkdtempSync(join(tmpdir(), "sample-"));
  const file = join(dir, kind === "python" ? "sample.py" : "sample.mjs");
  writeFileSync(file, source);
  try {
    const { stdout, stderr } = await run(kind === "python" ? "python3" : process.execPath, [file], {
      env: { PATH: process.env.PATH ?? "", ...env },
      timeout: 120_000,
    });
    return { operationId, kind, code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { operationId, kind, code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The poll operations of the areas whose create response names no job (its shape is not shown):
 * no job can be made to poll, so their sample asks for the example's id, and shows the refusal.
 */
export const UNPOLLABLE = new Set(
  model.areas
    .filter((area) => area.createRoutes.every((route) => route.idField === null))
    .map((area) => area.poll.operationId),
);

/**
 * What a sample's run must show: it ended well, and a create's job reached the success status; or,
 * for a poll it cannot be given a job for, the refusal's status and body, and a failing exit.
 */
export function problemsOf(result: SampleRun): string[] {
  const name = `${result.operationId} (${result.kind})`;
  if (UNPOLLABLE.has(result.operationId))
    return result.code !== 0 && /\b4\d\d: \{"error"/.test(result.stderr)
      ? []
      : [`${name}: did not show the refusal: ${result.stderr}`];
  if (result.code !== 0) return [`${name}: exit ${result.code}: ${(result.stderr || result.stdout).slice(0, 400)}`];
  const route = model.createRoutes.find((candidate) => candidate.operationId === result.operationId);
  if (route?.idField && !result.stdout.includes(model.jobStatus.success))
    return [`${name}: the job did not end ${model.jobStatus.success}: ${result.stdout.slice(0, 400)}`];
  if (result.stdout.trim() === "") return [`${name}: printed nothing`];
  return [];
}

/** The key of the sandbox's demo account, which the samples' runs use. */
export const DEMO_KEY = "sandbox-demo-key";

/**
 * JobIds for a sandbox at `url`: a poll operation gets a job created with its area's first create
 * route that names its job, from that route's first example.
 */
export function jobsIn(url: string): JobIds {
  return async (operationId) => {
    const area = model.areas.find((candidate) => candidate.poll.operationId === operationId);
    if (!area) return null;
    const route = area.createRoutes.find((candidate) => candidate.idField !== null);
    const operation = doc.paths[area.poll.path]?.get;
    if (!route || !operation) return null; // UNPOLLABLE
    const body = doc.paths[route.path]?.post?.requestBody?.content["application/json"]?.examples;
    const first = Object.values(body ?? {})[0] as { value?: unknown } | undefined;
    if (!first) return null;
    const response = await fetch(`${url}${route.path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${DEMO_KEY}`, "content-type": "application/json" },
      body: JSON.stringify(first.value),
    });
    const created = (await response.json()) as Record<string, unknown>;
    const id = created[route.idField!];
    const parameter = /\{([^}]+)\}/.exec(area.poll.path)?.[1] ?? "";
    const exampleId = requestExample(doc, area.poll.path, "get", operation).pathParams[parameter];
    if (response.status !== 200 || id === undefined || !exampleId)
      throw new Error(`${route.operationId}: the sandbox made no job to poll (${response.status})`);
    return { exampleId, id: String(id) };
  };
}
