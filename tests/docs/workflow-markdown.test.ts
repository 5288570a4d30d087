/**
 * A workflow's guide page (docs-src/workflow-pages.ts), written here from the Arazzo file's parts:
 * its title and description; per workflow its summary, id and file, its inputs (required, optional
 * or their default), its steps as a numbered list (the operation's route as the description names
 * it, when the step succeeds, each failure action, a referenced one resolved, what it keeps) and
 * its outputs; then how to run it. Descriptions are Markdown; everything else is code, its fence
 * longer than any backticks inside.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { workflowMarkdown } from "../../docs-src/workflow-pages.ts";
import type { OpenApiDocument } from "../../model/document.ts";

const DOC = {
  openapi: "3.1.0",
  info: { title: "T", version: "1" },
  paths: {
    "/v1/images/i-a": { post: { operationId: "createImageIA", responses: {} }, summary: "not an operation" },
    "/v1/images/{id}": { get: { operationId: "getImageJob", responses: {} } },
  },
  components: {},
} as unknown as OpenApiDocument;

const WORKFLOW = {
  info: { title: "Create\n  an image", description: "\nMakes an image.\n\nThen waits.\n" },
  workflows: [
    {
      workflowId: "createImage",
      summary: "Create and\nwait",
      description: "  The whole loop.  ",
      inputs: {
        required: ["apiKey"],
        properties: {
          apiKey: { type: "string", description: "The key\n  to send." },
          prompt: { type: "string", default: "a `fox`" },
          size: { type: "string" },
        },
      },
      steps: [
        {
          stepId: "create",
          operationId: "$sourceDescriptions.media.createImageIA",
          description: "Sends the\nrequest.",
          successCriteria: [
            { condition: "$statusCode == 200" },
            { context: "$response.body", condition: "$.id", type: "jsonpath" },
          ],
          onFailure: [
            { reference: "$components.failureActions.backOff" },
            { reference: "$components.failureActions.missing", type: "end" },
            { name: "stop", type: "end", criteria: [{ condition: "$statusCode == 400" }] },
            { name: "quit" },
          ],
          outputs: { jobId: "$response.body#/id", status: "$response.body#/status" },
        },
        {
          stepId: "poll",
          operationId: "getImageJob",
          onFailure: [{ name: "again", type: "retry", criteria: [{ condition: "$statusCode == 429" }] }],
        },
        { stepId: "other`s", operationId: "notInTheDescription" },
      ],
      outputs: { result: "$steps.poll.outputs.job" },
    },
    { workflowId: "bare", steps: [{ stepId: "only", operationId: "getImageJob" }] },
  ],
  components: {
    failureActions: {
      backOff: {
        name: "backOff",
        type: "retry",
        retryAfter: 2,
        retryLimit: 5,
        criteria: [{ condition: "$statusCode == 429" }],
      },
    },
  },
};

describe("workflowMarkdown", () => {
  // In a beforeAll, so that the mutation run credits each test with it (tests/mutation/hook-coverage.ts).
  let page: string;
  beforeAll(() => {
    // biome-ignore lint/suspicious/noExplicitAny: the module's Arazzo shape is its own; this literal is one
    page = workflowMarkdown("workflows/create-image.arazzo.yaml", WORKFLOW as any, DOC);
  });
  it("titles the page on one line and gives the file's description whole", () => {
    expect(page.startsWith("# Create an image\n\nMakes an image.\n\nThen waits.\n\n## Create and wait\n\n")).toBe(true);
  });

  it("names each workflow by its summary, else its id, with its id and file, then its description", () => {
    expect(page).toContain(
      "## Create and wait\n\nWorkflow `createImage` in `workflows/create-image.arazzo.yaml`.\n\nThe whole loop.\n\n### Inputs\n\n",
    );
    expect(page).toContain("## bare\n\nWorkflow `bare` in `workflows/create-image.arazzo.yaml`.\n\n### Steps\n\n");
  });

  it("lists the inputs: required, a default as code, or optional, each with its description on one line", () => {
    expect(page).toContain(
      '### Inputs\n\n- `apiKey` (required): The key to send.\n- `prompt` (default `` "a `fox`" ``): \n- `size` (optional): \n\n### Steps',
    );
  });

  it("lists each step with its route as the description names it, its description, success, failure actions and what it keeps", () => {
    expect(page).toContain(
      [
        "### Steps",
        "",
        "1. **`create`**: `POST /v1/images/i-a` (`createImageIA`). Sends the request.",
        "   - Succeeds when `$statusCode == 200` and `$response.body: $.id`.",
        "   - Tried again after 2 s, at most 5 times, while `$statusCode == 429`.",
        "   - On failure: `end`.",
        "   - On failure: `end` when `$statusCode == 400`.",
        "   - On failure: `end`.",
        "   - Keeps `jobId` (`$response.body#/id`), `status` (`$response.body#/status`).",
        "2. **`poll`**: `GET /v1/images/{id}` (`getImageJob`)",
        "   - Tried again after 0 s, while `$statusCode == 429`.",
        "3. **`` other`s ``**: `notInTheDescription`",
        "",
        "### Outputs",
        "",
        "- `result`: `$steps.poll.outputs.job`",
      ].join("\n"),
    );
  });

  it("has no inputs or outputs section for a workflow without them", () => {
    const bare = page.slice(page.indexOf("## bare"));
    expect(bare).not.toContain("### Inputs");
    expect(bare).not.toContain("### Outputs");
    expect(bare).toContain("### Steps\n\n1. **`only`**: `GET /v1/images/{id}` (`getImageJob`)\n\n### Running it");
  });

  it("ends with how to run the file with Redocly CLI", () => {
    expect(
      page.endsWith(
        "### Running it\n\nWith Redocly CLI, against the sandbox or any implementation of the service, giving the inputs above (`workflows/README.md` has each workflow's command):\n\n" +
          "```sh\nREDOCLY_TELEMETRY=off npx redocly respect workflows/create-image.arazzo.yaml --input apiKey=KEY --server mediaService=URL\n```\n",
      ),
    ).toBe(true);
  });

  it("resolves only a reference to the file's failure actions", () => {
    const other = workflowMarkdown(
      "w.yaml",
      {
        ...WORKFLOW,
        workflows: [
          {
            workflowId: "x",
            steps: [
              {
                stepId: "s",
                operationId: "getImageJob",
                onFailure: [
                  { reference: "prefix $components.failureActions.backOff", type: "end" },
                  { reference: "$components.failureActions.backOff\nsuffix", type: "end" },
                ],
              },
            ],
          },
        ],
        // biome-ignore lint/suspicious/noExplicitAny: as above
      } as any,
      DOC,
    );
    expect(other).toContain("   - On failure: `end`.\n   - On failure: `end`.\n");
    expect(other).not.toContain("Tried again");
  });
});
