/**
 * The MCP server of the media service, one per session (a stdio process, or one Streamable HTTP
 * session), on the official SDK's protocol layer. It is the SDK's low-level `Server` rather than
 * `McpServer`: McpServer takes tool input schemas as Zod schemas and shows what it converts them
 * back into, while these tools' schemas are JSON Schema read from the description, shown as they
 * are. Tasks use the SDK's task store and its tasks/get, tasks/result, tasks/list and tasks/cancel.
 */
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ServerNotification,
} from "@modelcontextprotocol/sdk/types.js";
import type { QuotingMediaServiceClient } from "../../generated/client.ts";
import { CATALOG, findModel, type Catalog } from "./catalog.ts";
import { toolError, toolResult, withoutKey } from "./results.ts";
import { Session, type ConfirmCreate } from "./session.ts";
import { MAX_WAIT_SECONDS, type McpSettings } from "./settings.ts";
import { endedTask, jobTask } from "./tasks.ts";
import { DEFAULT_WAIT_SECONDS, instructions, TOOL_NAMES, toolDefinitions } from "./tools.ts";

export const SERVER_NAME = "media-service";
/** A task's suggested poll interval: a second, since tasks/get reads memory here, not the service. */
export const DEFAULT_TASK_POLL_MS = 1000;

export interface McpServerOptions {
  readonly client: QuotingMediaServiceClient;
  readonly settings: Pick<McpSettings, "apiKey" | "budget" | "confirmAbove">;
  /** The package's version, shown to the client. */
  readonly version: string;
  /**
   * How often a client should ask for a task's status, in milliseconds (DEFAULT_TASK_POLL_MS): it
   * reads this server's task store, not the service, whose polling is the typed client's own.
   */
  readonly taskPollIntervalMs?: number;
  readonly catalog?: Catalog;
}

export interface SessionServer {
  readonly server: Server;
  readonly session: Session;
  /** Stops following this session's jobs and clears its tasks. */
  close(): Promise<void>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function createSessionServer(options: McpServerOptions): SessionServer {
  const catalog = options.catalog ?? CATALOG;
  const { apiKey } = options.settings;
  const scrub = <T>(value: T): T => withoutKey(value, apiKey);
  const taskStore = new InMemoryTaskStore();
  const closing = new AbortController();
  const server = new Server(
    { name: SERVER_NAME, version: options.version },
    {
      capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      instructions: instructions(catalog),
      taskStore,
    },
  );
  const session = new Session(options.client, options.settings, catalog);
  const tools = toolDefinitions(catalog);

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, task } = request.params;
    const args = isRecord(request.params.arguments) ? request.params.arguments : {};
    if (!tools.some((tool) => tool.name === name))
      throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
    if (task && name !== TOOL_NAMES.create)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Tool ${name} does not run as a task; only ${TOOL_NAMES.create} does`,
      );

    const confirm: ConfirmCreate = async (message) => {
      if (!server.getClientCapabilities()?.elicitation) return "unsupported";
      const answer = await server.elicitInput(
        {
          mode: "form",
          message: scrub(message),
          requestedSchema: {
            type: "object",
            properties: { confirm: { type: "boolean", title: "Send this create", default: false } },
            required: ["confirm"],
          },
        },
        { relatedRequestId: extra.requestId },
      );
      return answer.action === "accept" && answer.content?.confirm === true;
    };

    if (name === TOOL_NAMES.create) {
      const checked = session.checkRequest(args);
      const taskContext = () => ({
        taskStore: extra.taskStore!,
        ttl: extra.taskRequestedTtl ?? undefined,
        signal: closing.signal,
        scrub,
        pollIntervalMs: options.taskPollIntervalMs ?? DEFAULT_TASK_POLL_MS,
      });
      if (typeof checked === "string")
        return task ? endedTask(taskContext(), "failed", toolError(checked)) : scrub(toolError(checked));
      const outcome = await session.create(checked, confirm);
      if ("refused" in outcome)
        return task ? endedTask(taskContext(), "failed", outcome.refused) : scrub(outcome.refused);
      if (!task) return scrub(session.createdResult(outcome));
      // A job being followed gets its own task; one that cannot be followed, or that ended, is told as it stands.
      if (!outcome.job.ended) return jobTask(session, outcome.job, taskContext());
      return endedTask(taskContext(), "completed", session.createdResult(outcome));
    }
    return scrub(await callTool(name, args, extra));
  });

  async function callTool(
    name: string,
    args: Record<string, unknown>,
    extra: {
      signal: AbortSignal;
      _meta?: { progressToken?: string | number } | undefined;
      sendNotification: (notification: ServerNotification) => Promise<void>;
    },
  ): Promise<CallToolResult> {
    switch (name) {
      case TOOL_NAMES.listModels: {
        const area = typeof args.area === "string" ? args.area : undefined;
        const models = catalog.models.filter((model) => !area || model.area === area);
        return toolResult(
          models.map((model) => `${model.label} (${model.slug}, ${model.area}): ${model.title}`).join("\n"),
          {
            models: models.map(({ label, slug, area, title }) => ({ label, slug, area, title })),
          },
        );
      }
      case TOOL_NAMES.describeModel: {
        const model = typeof args.model === "string" ? findModel(args.model, catalog) : undefined;
        if (!model)
          return toolError(`model: ${JSON.stringify(args.model)} is no model of this service; list_models names them.`);
        const area = catalog.areas[model.area];
        const facts = {
          label: model.label,
          slug: model.slug,
          area: model.area,
          title: model.title,
          description: model.description,
          input_schema: model.inputSchema,
          media_forms: model.media,
          polling: area?.cadence ?? null,
          followable: model.followable,
        };
        return toolResult(
          `${model.title}\n\n${model.description}\n\ninput_schema: ${JSON.stringify(model.inputSchema)}`,
          facts,
        );
      }
      case TOOL_NAMES.quote: {
        const checked = session.checkRequest(args);
        return typeof checked === "string" ? toolError(checked) : session.quote(checked, args.online === true);
      }
      case TOOL_NAMES.getJob: {
        const job = session.jobArea(args);
        return typeof job === "string" ? toolError(job) : session.getJob(job.jobId, job.area, extra.signal);
      }
      case TOOL_NAMES.waitJob: {
        const job = session.jobArea(args);
        if (typeof job === "string") return toolError(job);
        const seconds = args.max_seconds ?? DEFAULT_WAIT_SECONDS;
        if (typeof seconds !== "number" || !Number.isInteger(seconds) || seconds < 1 || seconds > MAX_WAIT_SECONDS)
          return toolError(
            `max_seconds: a whole number from 1 to ${MAX_WAIT_SECONDS}, so that no call outlasts the client's timeout.`,
          );
        const token = extra._meta?.progressToken;
        let step = 0;
        const progress = (status: string) => {
          if (token === undefined) return;
          step += 1;
          void extra
            .sendNotification({
              method: "notifications/progress",
              params: { progressToken: token, progress: step, message: scrub(`job ${job.jobId} ${status}`) },
            })
            .catch(() => {});
        };
        return session.waitJob(job.jobId, job.area, seconds, progress, extra.signal);
      }
      case TOOL_NAMES.credits:
        return session.credits();
      default:
        throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
    }
  }

  return {
    server,
    session,
    async close() {
      closing.abort();
      taskStore.cleanup();
      await server.close();
    },
  };
}
