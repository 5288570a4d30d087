/**
 * Code samples of every operation, generated from the description: curl, this project's typed
 * client, Python (standard library) and JavaScript (fetch). They are injected as `x-codeSamples`
 * into the docs-only copy of the bundle and used by the guides' `{{sample ...}}` placeholders.
 */
import { operations, type OpenApiDocument } from "../model/document.ts";
import { readServiceModel } from "../model/service-model.ts";
import { clientSample } from "./client-sample.ts";
import { jobFollowing } from "./console-operations.ts";
import { curlSample } from "./curl-sample.ts";
import { requestExample } from "./request-example.ts";
import { fetchSample, pythonSample } from "./script-samples.ts";

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

export const SAMPLE_LABELS = {
  curl: "curl",
  client: "TypeScript client",
  python: "Python",
  fetch: "JavaScript (fetch)",
} as const;
export type SampleKind = keyof typeof SAMPLE_LABELS;

/** operationId -> its samples, in the order Redoc shows the tabs. */
export function codeSamples(doc: OpenApiDocument): Map<string, Record<SampleKind, CodeSample>> {
  const samples = new Map<string, Record<SampleKind, CodeSample>>();
  const model = readServiceModel(doc);
  const terminalStatuses = model.jobStatus.terminal;
  for (const { path, method, operation } of operations(doc)) {
    const request = requestExample(doc, path, method, operation);
    const job = { job: jobFollowing(model, operation.operationId), terminalStatuses };
    samples.set(operation.operationId, {
      curl: { lang: "Shell", label: SAMPLE_LABELS.curl, source: curlSample(request) },
      client: { lang: "TypeScript", label: SAMPLE_LABELS.client, source: clientSample(doc, request) },
      python: { lang: "Python", label: SAMPLE_LABELS.python, source: pythonSample(request, job) },
      fetch: { lang: "JavaScript", label: SAMPLE_LABELS.fetch, source: fetchSample(request, job) },
    });
  }
  return samples;
}

/** A deep copy of the bundle whose operations carry `x-codeSamples`; the description itself is untouched. */
export function withCodeSamples(doc: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(doc);
  const samples = codeSamples(doc);
  for (const { operation } of operations(copy)) {
    const own = samples.get(operation.operationId);
    if (own) operation["x-codeSamples"] = [own.curl, own.client, own.python, own.fetch];
  }
  return copy;
}
