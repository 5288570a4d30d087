/**
 * The typed-client code sample of an operation, as a consumer of the published client package
 * writes it (its code is generated/client.ts). Which client method serves
 * a route is read from the client's own route table, so the samples follow the client generator:
 * create routes use their area's `createAndWait` (or `create` where the create response has no
 * job id to poll), poll routes the area's `get`, every other operation the method named after its
 * operationId, and a route the generated client does not know the raw openapi-fetch client `api`.
 */
import { clientRouteTable } from "../generators/client.ts";
import type { OpenApiDocument } from "../model/document.ts";
import { CLIENT_PACKAGE } from "../packages/shared/package-build.ts";
import { readServiceModel } from "../model/service-model.ts";
import { createPath, type RouteTable } from "../runtime/client/route-table.ts";
import { examplePath, type RequestExample } from "./request-example.ts";
import { callOf, JS_CALL } from "./sample-layout.ts";

const SETUP = `import { createClient } from "${CLIENT_PACKAGE}";

const client = createClient({
  apiKey: process.env.API_KEY!,
  baseUrl: process.env.BASE_URL!,
});`;

const literal = (value: unknown): string => JSON.stringify(value, null, 2);

function call(request: RequestExample, { areas, operations }: RouteTable): string {
  for (const [area, { pollPath, routes }] of Object.entries(areas)) {
    for (const [slug, idField] of Object.entries(routes)) {
      if (createPath(pollPath, slug) !== request.template || request.method !== "post") continue;
      if (idField === null) {
        return `// The create response shows no job id to poll.\n${callOf(`const { created } = await client.${area}.create`, [literal(slug), literal(request.body)], JS_CALL)}\nconsole.log(created);`;
      }
      return `// Creates the job once, then polls at the area's cadence\n// until the status is terminal.\n${callOf(`const { jobId, job } = await client.${area}.createAndWait`, [literal(slug), literal(request.body)], JS_CALL)}\nconsole.log(jobId, job);`;
    }
    if (pollPath === request.template && request.method === "get") {
      return `${callOf(`const job = await client.${area}.get`, [literal(Object.values(request.pathParams)[0])], JS_CALL)}\nconsole.log(job.status);`;
    }
  }
  for (const [operationId, [method, path, input]] of Object.entries(operations)) {
    if (path !== request.template || method !== request.method) continue;
    const argument =
      input === "body"
        ? request.body
        : input === "query" && Object.keys(request.query).length > 0
          ? request.query
          : undefined;
    const args = argument === undefined ? [] : [literal(argument)];
    return `// ${request.method.toUpperCase()} ${examplePath(request)}\n${callOf(`const result = await client.${operationId}`, args, JS_CALL)}\nconsole.log(result);`;
  }
  // A route the client has no method for: the raw openapi-fetch client.
  const params: string[] = [];
  if (Object.keys(request.pathParams).length > 0) params.push(`path: ${literal(request.pathParams)}`);
  if (Object.keys(request.query).length > 0) params.push(`query: ${literal(request.query)}`);
  const init = params.length > 0 ? [`params: { ${params.join(", ")} }`] : [];
  if (request.body !== undefined) init.push(`body: ${literal(request.body)}`);
  const args = [literal(request.template), ...(init.length > 0 ? [`{ ${init.join(", ")} }`] : [])];
  return `// ${request.method.toUpperCase()} ${examplePath(request)}\n${callOf(`const { data, error } = await client.api.${request.method.toUpperCase()}`, args, JS_CALL)}\nconsole.log(error ?? data);`;
}

/** The sample of one request, calling the client generated from `doc` (its route table, as generators/client.ts derives it). */
export function clientSample(doc: OpenApiDocument, request: RequestExample): string {
  return `${SETUP}\n\n${call(request, clientRouteTable(readServiceModel(doc)))}`;
}
