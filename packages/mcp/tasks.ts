/**
 * A create as an MCP task, for a client that supports Tasks: the task is `working` while the job
 * runs, with the service's status as its message, and ends `completed` with the job's result URLs
 * as resource links, or `failed` with the reason (the job's status, or why the create was refused
 * before anything was sent). The job is followed by the typed client's wait, at the area's cadence.
 */
import type { CreateTaskResult } from "@modelcontextprotocol/sdk/experimental/tasks";
import type { RequestTaskStore } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Session, SessionJob } from "./session.ts";

/** How long a task and its result are kept when the client asks for no time: an hour. */
export const DEFAULT_TASK_TTL_MS = 3_600_000;

export interface TaskContext {
  readonly taskStore: RequestTaskStore;
  /** The time to keep the task the client asked for, if it did. */
  readonly ttl: number | undefined;
  /** Ends the following when the session closes. */
  readonly signal: AbortSignal;
  /** The key taken out of every text the task holds. */
  readonly scrub: <T>(value: T) => T;
  /** How often the client should ask (the area's cadence). */
  readonly pollIntervalMs: number;
}

const firstText = (result: CallToolResult): string => {
  const block = result.content.find((item) => item.type === "text");
  return block && "text" in block ? block.text : "";
};

/**
 * A task that has already ended, still answered as the task the client asked for: failed, a create
 * refused before anything was sent; completed, a job created that cannot be followed (its create
 * response names no job id), or an identical create's earlier job.
 */
export async function endedTask(
  context: TaskContext,
  status: "completed" | "failed",
  result: CallToolResult,
): Promise<CreateTaskResult> {
  const task = await context.taskStore.createTask({ ttl: context.ttl ?? DEFAULT_TASK_TTL_MS });
  await finish(context, task.taskId, status, result);
  return { task: (await context.taskStore.getTask(task.taskId)) ?? task };
}

async function finish(
  context: TaskContext,
  taskId: string,
  status: "completed" | "failed",
  result: CallToolResult,
): Promise<void> {
  const clean = context.scrub(result);
  // The status message is set while the task is still working: a terminal task takes no more changes.
  await context.taskStore.updateTaskStatus(taskId, "working", firstText(clean).slice(0, 500));
  await context.taskStore.storeTaskResult(taskId, status, clean);
}

/** The task of a job just created, followed until it ends (or the session closes, or the client cancels the task). */
export async function jobTask(session: Session, job: SessionJob, context: TaskContext): Promise<CreateTaskResult> {
  const task = await context.taskStore.createTask({
    ttl: context.ttl ?? DEFAULT_TASK_TTL_MS,
    pollInterval: context.pollIntervalMs,
  });
  const { taskId } = task;
  const describe = (status: string) => {
    const meaning = session.catalog.statuses.descriptions[status];
    // The status is the service's text: the key is taken out of it as out of every result.
    return context.scrub(`job ${job.jobId} ${status}${meaning ? `: ${meaning}` : ""}`);
  };
  await context.taskStore.updateTaskStatus(taskId, "working", describe(job.status));
  void (async () => {
    try {
      const { job: polled } = await session.area(job.model.area).wait(job.jobId, {
        signal: context.signal,
        onStatus: (status) => {
          session.settle(job, status);
          void context.taskStore.updateTaskStatus(taskId, "working", describe(status)).catch(() => {});
        },
      });
      await finish(context, taskId, "completed", session.polledResult(job.jobId, job.model.area, polled));
    } catch (error) {
      if (context.signal.aborted) return;
      const polled = (error as { job?: { status?: unknown } }).job;
      const result =
        typeof polled?.status === "string"
          ? session.polledResult(job.jobId, job.model.area, polled as { status: string })
          : await session.getJob(job.jobId, job.model.area);
      const ended = session.catalog.statuses.terminal.includes(job.status);
      const failed: CallToolResult = ended ? { ...result, isError: true } : result;
      await finish(context, taskId, "failed", failed).catch(() => {});
    }
  })().catch(() => {
    // The task was cancelled or has expired: the job runs on at the service, and get_job still reads it.
  });
  return { task: (await context.taskStore.getTask(taskId)) ?? task };
}
