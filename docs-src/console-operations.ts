/**
 * The try-it console's data (docs-src/browser/console-data.ts), read off the service model: each
 * operation's request prefilled from its examples, how a create route's job is followed, and the
 * routes and headers the console reads.
 */
import { DOCS_ORIGINS } from "../http-server/loopback-guard.ts";
import { deref, type OpenApiDocument, type Operation } from "../model/document.ts";
import type { ServiceModel } from "../model/service-model.ts";
import { DEFAULT_POLL_INTERVAL_MS } from "../runtime/client/options.ts";
import type { ConsoleData, ConsoleExample, ConsoleOperation, JobFollowing } from "./browser/console-data.ts";
import { requestExample } from "./request-example.ts";
import { SANDBOX_DEFAULT_URL, sandboxDemoKey } from "./sandbox-facts.ts";

function namedExamples(doc: OpenApiDocument, operation: Operation): ConsoleExample[] {
  const examples = operation.requestBody?.content["application/json"]?.examples ?? {};
  return Object.entries(examples).map(([name, raw]) => {
    const example = deref(doc, raw as { summary?: string; value?: unknown });
    return { name, summary: example.summary ?? name, value: example.value };
  });
}

/** How a create route's job is followed: its id field, the area's poll path and cadence; null for other routes. */
export function jobFollowing(model: ServiceModel, operationId: string): JobFollowing | null {
  const route = model.createRoutes.find((candidate) => candidate.operationId === operationId);
  const area = model.areas.find((candidate) => candidate.id === route?.areaId);
  if (!route?.idField || !area) return null;
  const seconds = area.poll.intervalSeconds;
  return {
    idField: route.idField,
    pollPath: area.poll.path,
    intervalMs: seconds ? seconds.min * 1000 : DEFAULT_POLL_INTERVAL_MS,
    cadence: area.poll.cadence,
    resultFields: [...area.resultFields],
  };
}

export function consoleData(model: ServiceModel): ConsoleData {
  const { doc } = model;
  const operations: ConsoleOperation[] = model.operations.map(({ path, method, operationId, queryParameters }) => {
    const operation = doc.paths[path]?.[method];
    if (!operation) throw new Error(`${method.toUpperCase()} ${path}: not in the description`);
    const example = requestExample(doc, path, method, operation);
    return {
      operationId,
      summary: operation.summary ?? operationId,
      method,
      template: path,
      pathParams: example.pathParams,
      query: Object.fromEntries(queryParameters.map((name) => [name, example.query[name] ?? ""])),
      examples: namedExamples(doc, operation),
      job: jobFollowing(model, operationId),
    };
  });
  const credits = model.operations.find((operation) => operation.operationId === model.account.creditsOperationId);
  if (!credits)
    throw new Error(
      `the description has no ${model.account.creditsOperationId} operation, which the docs' console reads to show a job's charge`,
    );
  const { limit, remaining, reset } = model.rateLimitHeaders;
  return {
    defaultBaseUrl: SANDBOX_DEFAULT_URL,
    allowedDocsOrigin: DOCS_ORIGINS[0]!,
    demoKeyHint: sandboxDemoKey(),
    operations,
    creditsPath: credits.path,
    highlightedHeaders: [limit, remaining, reset, model.retryAfterHeader].map((name) => name.toLowerCase()),
    terminalStatuses: [...model.jobStatus.terminal],
    successStatus: model.jobStatus.success,
  };
}
