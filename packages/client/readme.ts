/**
 * The README of the client package, written from the service model it was built from, so that its
 * slugs, areas and methods are the package's own (real slugs included, with a slug map).
 */
import type { ServiceModel } from "../../model/service-model.ts";
import { code, firstExample } from "../shared/package-build.ts";

export function packageReadme(model: ServiceModel, name: string, version: string): string {
  const waitable = model.createRoutes.find((route) => route.idField !== null) ?? model.createRoutes[0];
  if (!waitable) throw new Error("the description has no create route");
  const area = waitable.areaId;
  const body = JSON.stringify(firstExample(model.doc, waitable.path));
  const areas = model.areas.map(
    (candidate) =>
      `| ${code(`client.${candidate.id}`)} | ${candidate.createRoutes.map((route) => `${code(route.slug)} (${route.label})`).join(", ")} | ${code(`GET ${candidate.poll.path}`)} |`,
  );
  const others = model.operations
    .filter((operation) => operation.kind === "other")
    .map(
      (operation) =>
        `| ${code(`client.${operation.operationId}()`)} | ${code(`${operation.method.toUpperCase()} ${operation.path}`)} | ${model.doc.paths[operation.path]?.[operation.method]?.summary ?? ""} |`,
    );
  return `# ${name}

Typed client of the asynchronous media-generation service, interface version ${code(model.version)}
(package version ${code(version)}), generated from the service's OpenAPI 3.1 description, which ships
with it (${code(`${name}/openapi.json`)}, ${code(`${name}/openapi.yaml`)}) for other generators.
ESM, with type declarations; its one dependency is openapi-fetch.

## Set-up

The package is an ES module only. A TypeScript project that uses it needs ${code('"type": "module"')}
in its ${code("package.json")} (or ${code(".mts")} files; the top-level ${code("await")} below needs it),
${code('"module": "NodeNext"')} and ${code('"moduleResolution": "NodeNext"')} (or ${code("ESNext")} and
${code("Bundler")} with a bundler; the subpaths below are not found under ${code("Node10")}) and a
${code("target")} of ES2022 or later. Strict mode, ${code("exactOptionalPropertyTypes")} included, is
supported. The example reads the key from ${code("process.env")}, which under ${code("strict")} needs
${code("@types/node")}.

\`\`\`sh
npm install ${name}
npm install --save-dev typescript @types/node
\`\`\`

\`\`\`ts
import { createClient, ModerationBlockError } from "${name}";

const client = createClient({ apiKey: process.env.MEDIA_API_KEY!, baseUrl: "https://your-base-url" });

// The body is typed per route: a wrong enum value, an unknown field or a missing required field does not compile.
const { jobId, job } = await client.${area}.createAndWait(${JSON.stringify(waitable.slug)}, ${body}, {
  onJob: (id) => console.log("created", id), // store it to resume later with client.${area}.wait(id)
});
\`\`\`

## Entry points

| import | what it holds |
|---|---|
| ${code(name)} | ${code("createClient")}, the typed errors, the types of every request and response (${code("paths")}, ${code("components")}) |
| ${code(`${name}/prices`)} | the price tables and the offline ${code("quote(path, body, media)")}; a client given it quotes per route, and a client that does not import it does not ship the tables |
| ${code(`${name}/limiter`)} | ${code("inFlightLimiter(n)")}: given as ${code("limiter")}, keeps at most n jobs in flight (the account's concurrency cap) |
| ${code(`${name}/media-inputs`)} | ${code("checkMediaInputs")}: given as such, refuses a media field in a form the route does not accept before anything is sent |
| ${code(`${name}/models`)} | ${code("models")}: each model by its label in the specification (${code('models["I-A"]')}), with its area and this build's slug, so code that names models by label runs against any deployment's slugs |
| ${code(`${name}/openapi.json`)}, ${code(`${name}/openapi.yaml`)} | the bundled description the client was generated from |

## Methods

Each area creates jobs with ${code("create(slug, body)")} (sent once, never resent: a duplicate is
charged twice), ${code("createAndWait(slug, body, options)")} (the first poll one interval after the
create, then at the area's cadence until the status is terminal), ${code("get(id)")} (one poll) and
${code("wait(id)")} (resume waiting, polling at once).

| area | slugs (model) | poll route |
|---|---|---|
${areas.join("\n")}

Every other operation is a method named after its operationId, taking the request body or the
documented query parameters (nothing else compiles), then request options:

| method | route | what it does |
|---|---|---|
${others.join("\n")}

${code("client.api")} is the underlying openapi-fetch client, typed with the same ${code("paths")}.

## Quoting offline

\`\`\`ts
import { createClient } from "${name}";
import { quote } from "${name}/prices";

const client = createClient({ apiKey, baseUrl, quote });
client.${area}.quote(${JSON.stringify(waitable.slug)}, ${body}); // { credits, breakdown, ... }: the standard price before plan discounts
\`\`\`

## Errors, retries, headers

Error responses throw typed errors carrying ${code("status")}, ${code("type")} and ${code("code")} (where
the response has them), ${code("headers")} and ${code("body")}: ${code("InvalidRequestError")},
${code("ModerationBlockError")} (${code("restrictionReason")}), ${code("AuthenticationError")},
${code("PermissionError")}, ${code("ModelRetiredError")}, ${code("RateLimitedError")}, ${code("CooldownError")},
${code("TooManyRequestsError")}, ${code("UnexpectedStatusError")} (a redirect too: none is followed). No
usable response (refused, cut short, over ${code("requestTimeoutMs")} or ${code("maxResponseBytes")}) is a
${code("TransportError")} (${code("mayHaveCreatedJob")} after a POST); a 200 answer without the job it should
hold is an ${code("InvalidResponseError")}; jobs end in ${code("JobFailedError")},
${code("JobTimedOutError")} or ${code("WaitDeadlineError")}. The API key never appears in an error, and a
message quotes at most 500 characters of an answer, its control characters escaped.

After a 429 that names its wait (${code("Retry-After")}, a cooldown's ${code("retry_after_seconds")}) the whole
client waits the full time, then resends; a wait longer than ${code("maxPauseMs")} (30 minutes by default)
is not waited: that call ends in its ${code("RateLimitedError")} or ${code("CooldownError")}, and calls made
before the wait is over in a ${code("PausedError")}, each carrying the wait; none is sent early. Polls and
other reads are resent after a lost response or a 5xx with jittered backoff; creates, posts,
uploads and searches charged per request never are. The optional parts are entry points of their
own, so that a client without them ships none of their code:

\`\`\`ts
import { inFlightLimiter } from "${name}/limiter";
import { checkMediaInputs } from "${name}/media-inputs";

const limiter = inFlightLimiter(4); // one per account: clients sharing it share its 4 slots
const client = createClient({ apiKey, baseUrl, limiter, checkMediaInputs });
\`\`\`

A create that got no usable answer may have made a job: it keeps its limiter slot until you settle
it with ${code("limiter.settleUnknown(jobId)")} (the job it made, freed when seen terminal) or
${code("limiter.settleUnknown(null)")} (none).

${code("headers")} (client option, or per call) adds headers such as a request id; middleware added
with ${code("client.api.use(...)")} sees every request of the client.
`;
}
