/**
 * The tools an agent is shown (tools/list), kept small on purpose: a handful of tools whatever the
 * number of models, each model's own input schema served on demand by `describe_model` (the
 * description's request schema, validated against on every quote and create). One tool per
 * operation would show every model's schema in every conversation (about seven times the bytes,
 * measured by tests/mcp/tools.test.ts), and agents choose worse among many similar tools.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { areaNames, CATALOG, type Catalog } from "./catalog.ts";
import { MAX_WAIT_SECONDS } from "./settings.ts";

export const TOOL_NAMES = {
  listModels: "list_models",
  describeModel: "describe_model",
  quote: "quote",
  create: "create",
  getJob: "get_job",
  waitJob: "wait_job",
  credits: "credits",
} as const;

export const DEFAULT_WAIT_SECONDS = 25;

const object = (properties: Record<string, object>, required: string[] = []) => ({
  type: "object" as const,
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});

const MODEL = { type: "string", description: "The model's slug or label, from list_models." };
const INPUT = { type: "object", description: "The model's request body; its schema is describe_model's input_schema." };
const MEDIA = {
  type: "object",
  description:
    "Seconds of each media input a per-second price reads, by field (an array field: one number per item); only where quote names them missing.",
};

/** The tool definitions, for tools/list. */
export function toolDefinitions(catalog: Catalog = CATALOG): Tool[] {
  const areas = { type: "string", enum: areaNames(catalog) };
  const job = {
    job_id: { type: "string", description: "The id create returned." },
    area: { ...areas, description: "The job's area; needed only for a job this session did not create." },
  };
  return [
    {
      name: TOOL_NAMES.listModels,
      description: `The models of the media service (interface ${catalog.version}): label, slug, area and what each makes.`,
      inputSchema: object({ area: { ...areas, description: "Only this area's models." } }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: TOOL_NAMES.describeModel,
      description: "One model: what it does, its price rules and its input_schema, the request body create takes.",
      inputSchema: object({ model: MODEL }, ["model"]),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: TOOL_NAMES.quote,
      description:
        "The price in credits of a create, without sending it: offline from the price tables, or the service's POST /v1/cost where they cannot price it (online: also ask the service, for plan discounts).",
      inputSchema: object({ model: MODEL, input: INPUT, media: MEDIA, online: { type: "boolean" } }, [
        "model",
        "input",
      ]),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    {
      name: TOOL_NAMES.create,
      description:
        "Starts one generation job (credits are charged only if it succeeds). It is quoted first and refused past the session's credit budget; a costly one may ask the user. Sent once: an identical create in this session returns the earlier job unless again is true. As a task it follows the job to its result URLs; otherwise it returns the job id for wait_job.",
      inputSchema: object(
        {
          model: MODEL,
          input: INPUT,
          media: MEDIA,
          again: { type: "boolean", description: "Create a second job with the same input." },
        },
        ["model", "input"],
      ),
      execution: { taskSupport: "optional" },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    {
      name: TOOL_NAMES.getJob,
      description: "A job's status now (one poll); once it succeeded, its result URLs.",
      inputSchema: object(job, ["job_id"]),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    {
      name: TOOL_NAMES.waitJob,
      description: `Waits for a job to end, at most max_seconds (default ${DEFAULT_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS}), with progress notifications; then its result URLs, or its status to wait again.`,
      inputSchema: object(
        {
          ...job,
          max_seconds: { type: "integer", minimum: 1, maximum: MAX_WAIT_SECONDS },
        },
        ["job_id"],
      ),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    {
      name: TOOL_NAMES.credits,
      description: "The account's credits (GET /v1/account/credits) and this session's budget: committed and left.",
      inputSchema: object({}),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
  ];
}

/** How the server introduces itself to the agent (initialize's instructions), with the retention the description states. */
export function instructions(catalog: Catalog = CATALOG): string {
  const kept = Object.entries(catalog.areas)
    .filter(([, area]) => area.retention !== null)
    .map(
      ([name, area]) => `${name} results ${area.retention!.approximate ? "about " : ""}${area.retention!.hours} hours`,
    );
  return `Media generation jobs of the media service. Flow: list_models, describe_model for a model's input schema, quote, create, then wait_job (or the task create returns) for the result URLs. Results are URLs, never inline media${kept.length ? `; files are deleted after a while (${kept.join(", ")})` : ""}.`;
}
