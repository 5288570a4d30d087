/** The job statuses: JobStatus's values and x-terminal-values, the poll schemas' success status, the create examples' initial status. */
import { deref, operations, type OpenApiDocument, type ResponseObject } from "./document.ts";
import { readSuccessStatus } from "./read-routes.ts";
import { fail } from "./schema-parts.ts";
import type { JobStatusModel } from "./types.ts";

/** The terminal status of a job the service gave up on: the specification's name, which the client reports as a time-out. */
const TIMEOUT_STATUS = "timeout";

/** The status value of every create response's example; they must agree. */
function initialStatus(doc: OpenApiDocument): string {
  const found = new Set<string>();
  for (const { operation } of operations(doc)) {
    if (typeof operation["x-model-label"] !== "string") continue;
    const ok = deref<ResponseObject>(
      doc,
      operation.responses["200"] ?? fail(`${operation.operationId} has no 200 response`),
    );
    for (const example of Object.values(ok.content?.["application/json"]?.examples ?? {})) {
      const status = deref<{ value?: { status?: unknown } }>(doc, example as { $ref: string }).value?.status;
      if (typeof status === "string") found.add(status);
    }
  }
  if (found.size !== 1)
    fail(
      `the create responses' examples show ${found.size} initial statuses (${[...found].join(", ")}); exactly one expected`,
    );
  return [...found][0]!;
}

export function readJobStatus(doc: OpenApiDocument): JobStatusModel {
  const schema = Object.values(doc.components.schemas ?? {}).find((candidate) =>
    Array.isArray(candidate["x-terminal-values"]),
  );
  if (!schema) fail("no schema carries x-terminal-values (JobStatus)");
  const values = (schema.enum as string[] | undefined) ?? fail("JobStatus has no enum");
  const terminal = schema["x-terminal-values"] as string[];
  for (const value of terminal)
    if (!values.includes(value)) fail(`JobStatus's x-terminal-values names ${value}, which its enum lacks`);
  const success = readSuccessStatus(doc);
  if (!terminal.includes(success)) fail(`the success status ${success} is not terminal`);
  if (!terminal.includes(TIMEOUT_STATUS)) fail(`JobStatus's x-terminal-values lack ${TIMEOUT_STATUS}`);
  const initial = initialStatus(doc);
  if (!values.includes(initial) || terminal.includes(initial))
    fail(`the initial status ${initial} is not a non-terminal JobStatus`);
  const descriptions = (schema["x-enumDescriptions"] ?? {}) as Record<string, string>;
  return {
    values,
    terminal,
    success,
    timeout: TIMEOUT_STATUS,
    initial,
    failure: terminal.filter((value) => value !== success),
    descriptions,
  };
}
