/**
 * The typed-client code sample of a request (docs-src/client-sample.ts), as a consumer of the
 * published package writes it: the package's setup, then the client method that serves the route
 * (an area's `createAndWait`, or `create` where the create response shows no job id; the area's
 * `get` for its poll route; the method named after the operationId, with its body or query; the raw
 * openapi-fetch client `api` for a route the client has no method for). Whether the samples
 * compile against the package is client-samples-compile.e2e.ts's business; a call too long for the
 * code panel takes one argument a line (docs-src/sample-layout.ts).
 */
import { describe, expect, it } from "vitest";
import { clientSample } from "../../docs-src/client-sample.ts";
import type { RequestExample } from "../../docs-src/request-example.ts";
import { loadBundle } from "../../model/document.ts";

const doc = loadBundle();

/** The slug of the model `label` in this build (a build with a slug map has real slugs for some). */
function slugOf(label: string): string {
  const path = Object.keys(doc.paths).find((candidate) => doc.paths[candidate]?.post?.["x-model-label"] === label);
  if (!path) throw new Error(`no create route of ${label}`);
  return path.slice(path.lastIndexOf("/") + 1);
}
// I-B keeps its placeholder under tests/support/real-slugs.json: its samples keep their one-line layout (a long slug wraps the call).
const I_B = slugOf("I-B");
const VU_A = slugOf("VU-A");

const SETUP = `import { createClient } from "@media-service/client";

const client = createClient({
  apiKey: process.env.API_KEY!,
  baseUrl: process.env.BASE_URL!,
});

`;

function sample(request: Partial<RequestExample> & Pick<RequestExample, "method" | "template">): string {
  const text = clientSample(doc, { pathParams: {}, query: {}, body: undefined, ...request });
  expect(text.startsWith(SETUP), "opens with the package's setup").toBe(true);
  return text.slice(SETUP.length);
}

describe("clientSample", () => {
  it("creates a job with its area's createAndWait, slug and body, and logs the id and the finished job", () => {
    expect(sample({ method: "post", template: `/v1/images/${I_B}`, body: { prompt: "a fox" } })).toBe(
      "// Creates the job once, then polls at the area's cadence\n// until the status is terminal.\n" +
        `const { jobId, job } = await client.image.createAndWait("${I_B}", {\n  "prompt": "a fox"\n});\n` +
        "console.log(jobId, job);",
    );
  });

  it("creates with create where the create response shows no job id to poll", () => {
    expect(sample({ method: "post", template: `/v1/video-upscales/${VU_A}`, body: { video: "v" } })).toBe(
      "// The create response shows no job id to poll.\n" +
        `const { created } = await client.videoUpscale.create("${VU_A}", {\n  "video": "v"\n});\n` +
        "console.log(created);",
    );
  });

  it("reads a job with its area's get and the example id, and logs its status", () => {
    expect(sample({ method: "get", template: "/v1/images/{id}", pathParams: { id: "img_1" } })).toBe(
      'const job = await client.image.get("img_1");\nconsole.log(job.status);',
    );
    expect(sample({ method: "get", template: "/v1/lip-sync/{id}", pathParams: { id: "ls_9" } })).toBe(
      'const job = await client.lipSync.get("ls_9");\nconsole.log(job.status);',
    );
  });

  it("calls another operation by its operationId, with the body it takes", () => {
    expect(sample({ method: "post", template: "/v1/cost", body: { model: "i-a" } })).toBe(
      '// POST /v1/cost\nconst result = await client.quoteCost({\n  "model": "i-a"\n});\nconsole.log(result);',
    );
  });

  it("passes an operation's query only when it takes one and the example has some", () => {
    expect(sample({ method: "get", template: "/v1/models", query: { type: "image" } })).toBe(
      '// GET /v1/models?type=image\nconst result = await client.listModels({\n  "type": "image"\n});\nconsole.log(result);',
    );
    expect(sample({ method: "get", template: "/v1/models" })).toBe(
      "// GET /v1/models\nconst result = await client.listModels();\nconsole.log(result);",
    );
    expect(sample({ method: "get", template: "/v1/account/credits", query: { ignored: "1" } })).toBe(
      "// GET /v1/account/credits?ignored=1\nconst result = await client.getAccountCredits();\nconsole.log(result);",
    );
  });

  it("uses the raw api for a method the route's client method does not serve", () => {
    expect(sample({ method: "get", template: `/v1/images/${I_B}` })).toBe(
      `// GET /v1/images/${I_B}\nconst { data, error } = await client.api.GET("/v1/images/${I_B}");\nconsole.log(error ?? data);`,
    );
    expect(sample({ method: "post", template: "/v1/images/{id}", pathParams: { id: "img_1" } })).toBe(
      "// POST /v1/images/img_1\n" +
        "const { data, error } = await client.api.POST(\n" +
        '  "/v1/images/{id}",\n' +
        '  { params: { path: {\n    "id": "img_1"\n  } } },\n' +
        ");\nconsole.log(error ?? data);",
    );
    expect(sample({ method: "delete", template: "/v1/models" })).toBe(
      '// DELETE /v1/models\nconst { data, error } = await client.api.DELETE("/v1/models");\nconsole.log(error ?? data);',
    );
  });

  it("gives the raw api the path's parameters, the query and the body of a route the client does not know", () => {
    const text = sample({
      method: "put",
      template: "/v1/things/{id}",
      pathParams: { id: "t 1" },
      query: { page: "2" },
      body: { name: "x" },
    });
    expect(text).toBe(
      "// PUT /v1/things/t%201?page=2\n" +
        "const { data, error } = await client.api.PUT(\n" +
        '  "/v1/things/{id}",\n' +
        '  { params: { path: {\n    "id": "t 1"\n  }, query: {\n    "page": "2"\n  } }, body: {\n    "name": "x"\n  } },\n' +
        ");\nconsole.log(error ?? data);",
    );
    expect(sample({ method: "patch", template: "/v1/things", body: { name: "x" } })).toBe(
      "// PATCH /v1/things\n" +
        "const { data, error } = await client.api.PATCH(\n" +
        '  "/v1/things",\n' +
        '  { body: {\n    "name": "x"\n  } },\n' +
        ");\nconsole.log(error ?? data);",
    );
    expect(sample({ method: "get", template: "/v1/things", query: { page: "2" } })).toBe(
      "// GET /v1/things?page=2\n" +
        "const { data, error } = await client.api.GET(\n" +
        '  "/v1/things",\n' +
        '  { params: { query: {\n    "page": "2"\n  } } },\n' +
        ");\nconsole.log(error ?? data);",
    );
  });
});
