/**
 * Code samples of every operation, generated from the description: curl and this project's typed
 * client. They are injected as `x-codeSamples` into the docs-only copy of the bundle and used by
 * the guides' `{{sample ...}}` placeholders.
 */
import { operations, type OpenApiDocument, type Operation } from "../model/document.ts";
import { preferSelections } from "../model/prefer-selections.ts";
import { clientSample } from "./client-sample.ts";
import { curlSample } from "./curl-sample.ts";
import { requestExample } from "./request-example.ts";

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

export const SAMPLE_LABELS = { curl: "curl", client: "TypeScript client" } as const;
export type SampleKind = keyof typeof SAMPLE_LABELS;

/** operationId -> its samples, in the order Redoc shows the tabs. */
export function codeSamples(doc: OpenApiDocument): Map<string, Record<SampleKind, CodeSample>> {
  const samples = new Map<string, Record<SampleKind, CodeSample>>();
  for (const { path, method, operation } of operations(doc)) {
    const request = requestExample(doc, path, method, operation);
    samples.set(operation.operationId, {
      curl: { lang: "Shell", label: SAMPLE_LABELS.curl, source: curlSample(request) },
      client: { lang: "TypeScript", label: SAMPLE_LABELS.client, source: clientSample(doc, request) },
    });
  }
  return samples;
}

/** The sentence that lists an operation's answers the contract mock can be asked for. */
function mockSelections(doc: OpenApiDocument, operation: Operation): string {
  const choices = preferSelections(doc, operation).map((selection) => `\`Prefer: ${selection}\``);
  return choices.length === 0
    ? ""
    : `**Contract mock** (\`npm run mock\`): ask for a documented answer with ${choices.join(", ")}.`;
}

/**
 * A deep copy of the bundle whose operations carry `x-codeSamples` and, at the end of their
 * description, the contract mock's choices; the description itself is untouched.
 */
export function withCodeSamples(doc: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(doc);
  const samples = codeSamples(doc);
  for (const { operation } of operations(copy)) {
    const own = samples.get(operation.operationId);
    if (own) operation["x-codeSamples"] = [own.curl, own.client];
    const mock = mockSelections(doc, operation);
    if (mock) operation.description = `${operation.description ?? ""}\n\n${mock}`.trim();
  }
  return copy;
}
