/**
 * The reference as Markdown, for readers that are programs (docs-src/reference-markdown.ts): the
 * description's introduction, then each tag's operations with their route, description, parameters,
 * request-body fields (type with bounds and values, required or "not shown", default, meaning), the
 * rules between fields, what is not shown, request examples, answers with their headers and code
 * samples; every text whole, and an operation no tag of the description names is refused.
 * Expectations are written from those rules for a small description, not read off the output.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { OpenApiDocument, Operation } from "../../model/document.ts";
import { referenceMarkdown } from "../../docs-src/reference-markdown.ts";

const POLL: Operation = {
  operationId: "getJob",
  tags: ["Jobs"],
  summary: "Read a job",
  description: "  Reads one job.\n\nSecond paragraph.  ",
  parameters: [
    { $ref: "#/components/parameters/JobId" },
    { name: "verbose", in: "query", schema: { type: "boolean" } },
  ],
  responses: {
    "200": { description: "  The job.\n\n- queued\n- done\n", headers: { "X-RateLimit-Limit": {}, "Retry-After": {} } },
    "404": { $ref: "#/components/responses/NotFound" } as never,
  },
  "x-codeSamples": [
    { lang: "Shell", label: "curl", source: "curl http://127.0.0.1/jobs/1" },
    { lang: "TypeScript", label: "Client", source: "await client.poll(1);" },
    { lang: "Ruby", label: "Ruby", source: "puts 1" },
  ],
};

const CREATE: Operation = {
  operationId: "createImage",
  tags: ["Other", "Jobs"],
  requestBody: {
    content: {
      "application/json": {
        schema: { $ref: "#/components/schemas/CreateImage" },
        examples: {
          small: { summary: "A small one", value: { prompt: "a cat" } },
          shared: { $ref: "#/components/examples/Big" },
        },
      },
    },
  },
  responses: { "202": { description: "Accepted." } },
};

const BARE: Operation = {
  operationId: "upload",
  tags: ["Files"],
  requestBody: { content: { "application/json": { schema: { type: "object" } } } },
  responses: { "200": { description: "Stored." } },
};

function document(extra: Partial<Record<string, Operation>> = {}): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "Media", version: "1.2.3", description: "\nWhat the service does.\n\nA second paragraph.\n" },
    tags: [{ name: "Jobs", description: "  Jobs and their states.  " }, { name: "Files" }],
    paths: {
      "/jobs/{job_id}": { get: POLL },
      "/images": { post: CREATE },
      "/files": { put: BARE, ...extra },
    },
    components: {
      parameters: {
        JobId: {
          name: "job_id",
          in: "path",
          required: true,
          description: "The job's id.",
          schema: { type: "string", minLength: 8, maxLength: 8 },
        },
      },
      responses: { NotFound: { description: "No such job." } },
      examples: { Big: { summary: "A big one", value: { prompt: "a whale", count: 4 } } },
      schemas: {
        Prompt: { type: "string", minLength: 1, maxLength: 2000, description: "What to draw." },
        CreateImage: {
          type: "object",
          description: "An image to make.",
          required: ["prompt"],
          "x-not-shown": {
            requiredness: "Which other fields are required is not shown.",
            default: "The default count is not shown.",
          },
          allOf: [{ description: "`seed` only with `count` 1." }, { required: ["prompt"] }],
          properties: {
            prompt: { $ref: "#/components/schemas/Prompt" },
            count: { type: "integer", minimum: 1 },
            steps: { type: "integer", maximum: 50 },
            seed: { type: ["integer", "null"], minimum: 0, maximum: 10 },
            size: {
              type: "string",
              enum: ["small", "large"],
              default: "small",
              "x-enumDescriptions": { small: "512 pixels", large: "1024 pixels" },
            },
            quality: { enum: ["draft", "final"] },
            tags: { type: "array", items: { type: "string", format: "uuid" }, minItems: 1, maxItems: 3 },
            mode: { const: "fast", description: "Always fast." },
            batch: { type: "array", minItems: 2 },
            extra: {},
            ratio: { type: "number", default: 1.5 },
          },
        },
      },
    },
  };
}

/** The block of one operation: from its heading to the next heading of any level. */
const block = (markdown: string, heading: string): string => {
  const start = markdown.indexOf(`### ${heading}\n`);
  expect(start, `no operation "${heading}"`).toBeGreaterThanOrEqual(0);
  const next = markdown.slice(start + 4).search(/\n#{2,3} /);
  return next < 0 ? markdown.slice(start) : markdown.slice(start, start + 4 + next);
};

describe("referenceMarkdown", () => {
  // In a beforeAll, so that the mutation run credits each test with it (tests/mutation/hook-coverage.ts).
  let markdown: string;
  beforeAll(() => {
    markdown = referenceMarkdown(document());
  });

  it("opens with the title, the version, a link to the description and its whole introduction", () => {
    expect(
      markdown.startsWith(
        "# Media API reference\n\nVersion 1.2.3. The description itself: [openapi.json](openapi.json).\n\n" +
          "What the service does.\n\nA second paragraph.\n\n## Jobs\n\nJobs and their states.\n\n### Read a job\n",
      ),
    ).toBe(true);
    expect(markdown.endsWith("\n")).toBe(true);
    expect(markdown.endsWith("\n\n")).toBe(false);
  });

  it("puts each operation under each tag it has that the description names, in the tags' order", () => {
    const headings = [...markdown.matchAll(/^#{2,3} .*$/gm)].map((match) => match[0]);
    expect(headings).toEqual(["## Jobs", "### Read a job", "### createImage", "## Files", "### upload"]);
  });

  it("gives a tag without a description its heading only", () => {
    expect(markdown).toContain("## Files\n\n### upload\n");
  });

  it("names the route and the operationId, then the whole description, trimmed", () => {
    expect(block(markdown, "Read a job")).toContain(
      "### Read a job\n\n`GET /jobs/{job_id}` (operationId `getJob`)\n\nReads one job.\n\nSecond paragraph.\n\n**Parameters**",
    );
    expect(block(markdown, "createImage")).toContain(
      "### createImage\n\n`POST /images` (operationId `createImage`)\n\n**Request body**",
    );
  });

  it("tables the parameters, referenced or inline, with their place, type and bounds, requiredness and meaning", () => {
    expect(block(markdown, "Read a job")).toContain(
      [
        "**Parameters**",
        "",
        "| Name | In | Type | Required | Meaning |",
        "| --- | --- | --- | --- | --- |",
        "| `job_id` | path | string, 8 to 8 characters | yes | The job's id. |",
        "| `verbose` | query | boolean | no |  |",
      ].join("\n"),
    );
  });

  it("has no parameters section for an operation without parameters", () => {
    expect(block(markdown, "createImage")).not.toContain("Parameters");
    expect(block(markdown, "upload")).not.toContain("Parameters");
  });

  it("tables the body's fields: type with bounds, values and format; required, no or not shown; default; meaning with each value's", () => {
    const rows = [
      "**Request body** (JSON): An image to make.",
      "",
      "| Field | Type | Required | Default | Meaning |",
      "| --- | --- | --- | --- | --- |",
      "| `prompt` | string, 1 to 2000 characters | yes |  | What to draw. |",
      "| `count` | integer, at least 1 | not shown |  |  |",
      "| `steps` | integer, at most 50 | not shown |  |  |",
      "| `seed` | integer or null, 0 to 10 | not shown |  |  |",
      "| `size` | string, one of `small`, `large` | not shown | `small` | `small`: 512 pixels `large`: 1024 pixels |",
      "| `quality` | one of `draft`, `final` | not shown |  |  |",
      "| `tags` | array of string, format uuid, 1 to 3 items | not shown |  |  |",
      "| `mode` | any, exactly `fast` | not shown |  | Always fast. |",
      "| `batch` | array, at least 2 items | not shown |  |  |",
      "| `extra` | any | not shown |  |  |",
      "| `ratio` | number | not shown | `1.5` |  |",
    ];
    expect(block(markdown, "createImage")).toContain(rows.join("\n"));
  });

  it("lists the rules between fields and what is not shown of the body", () => {
    expect(block(markdown, "createImage")).toContain(
      "Rules between fields:\n\n- `seed` only with `count` 1.\n\n" +
        "Not shown:\n\n- Which other fields are required is not shown.\n- The default count is not shown.\n\n",
    );
  });

  it("says a field is optional (no) where the description does not leave requiredness unshown", () => {
    const doc = document();
    const schema = doc.components.schemas?.CreateImage as { "x-not-shown"?: unknown };
    delete schema["x-not-shown"];
    const own = block(referenceMarkdown(doc), "createImage");
    expect(own).toContain("| `count` | integer, at least 1 | no |  |  |");
    expect(own).not.toContain("Not shown:");
  });

  it("gives a body without fields, description, rules or gaps its heading only", () => {
    expect(block(markdown, "upload")).toContain("**Request body** (JSON)\n\n**Answers**");
  });

  it("shows each request example, inline or referenced, with its summary and its value as JSON", () => {
    expect(block(markdown, "createImage")).toContain(
      '**Request example: A small one**\n\n```json\n{\n  "prompt": "a cat"\n}\n```\n\n' +
        '**Request example: A big one**\n\n```json\n{\n  "prompt": "a whale",\n  "count": 4\n}\n```\n\n**Answers**',
    );
  });

  it("lists each answer, referenced or inline, with its whole description inside the item and its headers", () => {
    expect(block(markdown, "Read a job")).toContain(
      "**Answers**\n\n- **200** The job.\n\n  - queued\n  - done\n\n  Headers: `X-RateLimit-Limit`, `Retry-After`.\n\n" +
        "- **404** No such job.\n\n**curl**",
    );
    expect(block(markdown, "upload")).toMatch(/\*\*Answers\*\*\n\n- \*\*200\*\* Stored\.\n$/);
  });

  it("shows each code sample under its label, fenced in its language (unfenced for one it has no name for)", () => {
    expect(block(markdown, "Read a job")).toContain(
      "**curl**\n\n```sh\ncurl http://127.0.0.1/jobs/1\n```\n\n" +
        "**Client**\n\n```ts\nawait client.poll(1);\n```\n\n**Ruby**\n\n```\nputs 1\n```\n",
    );
  });

  it("refuses an operation no tag of the description names, naming it", () => {
    const orphan: Operation = { operationId: "orphanOne", tags: ["Nowhere"], responses: {} };
    const untagged: Operation = { operationId: "untaggedTwo", responses: {} };
    expect(() => referenceMarkdown(document({ post: orphan, delete: untagged }))).toThrow(
      "operations without a tag of the description: orphanOne, untaggedTwo",
    );
  });

  it("goes from the version line to the first tag when the description has no introduction", () => {
    const doc = document();
    delete doc.info.description;
    expect(referenceMarkdown(doc)).toContain(
      "Version 1.2.3. The description itself: [openapi.json](openapi.json).\n\n## Jobs",
    );
  });
});
