/**
 * Faults of the job states: per running state after the initial one (JobStatus's order, generated
 * from the description), a job that stops there as if it were terminal; jobs that never run; a job
 * shown in two states at once.
 */
import type { Call } from "../../../behaviour/rules.ts";
import type { Answer } from "../../../sandbox/server.ts";
import type { ServiceState } from "../../../behaviour/state.ts";
import {
  bodyOf,
  family,
  isPoll,
  MODEL,
  named,
  omitted,
  polledJob,
  rulesMatching,
  when,
  type CheckName,
  type Fault,
} from "./support.ts";

export const TERMINAL_REACHED = "terminal state reached{example}";
const { values, terminal, initial } = MODEL.jobStatus;
const running = values.filter((status) => !terminal.includes(status));

/** A poll's answer showing `status`, without the result fields a running job does not have. */
function showing(answer: Answer, call: Call, state: ServiceState, status: unknown): Answer {
  const job = polledJob(call, state);
  const fields = job ? (state.areas.get(job.route.areaId)?.resultFields ?? []) : [];
  return { ...answer, body: { ...omitted(bodyOf(answer), fields), status } };
}

/** Polls of jobs whose status comes at or after `status` in JobStatus's order. */
const atOrAfter = (status: string) => (answer: Answer, call: Call | undefined) =>
  isPoll(call) && answer.status === 200 && values.indexOf(String(bodyOf(answer).status)) >= values.indexOf(status);

/**
 * Per running state after the initial one whose catalogue rule (`states.<status>`) says it is not
 * terminal: a job that reaches it stays in it (the worker's step out of it is lost).
 */
export const STUCK_STATES = family(
  running
    .filter((status) => status !== initial)
    .map((status) => {
      const id = `states.${status}`;
      if (rulesMatching(new RegExp(`^${id.replace(".", "\\.")}$`)).length === 0)
        throw new Error(`the catalogue has no rule ${id} for the running status ${status}`);
      return [
        `job-stuck-at:${status}`,
        {
          breaks: [id],
          bug: `a job that reaches ${status} stays there, as if ${status} were terminal: polls answer ${status} for ever`,
          areas: ["images"],
          answer: when(atOrAfter(status), (answer, call, state) => showing(answer, call!, state, status)),
        } satisfies Fault,
        named("lifecycle", TERMINAL_REACHED),
      ] as const;
    }),
);

export const STATE_FAULTS = {
  "jobs-never-run": {
    breaks: ["service.asynchronous"],
    bug: `the create queues the job but no worker ever runs it: every poll answers ${initial}`,
    areas: ["images"],
    answer: when(
      (answer, call) => isPoll(call) && answer.status === 200,
      (answer, call, state) => showing(answer, call!, state, initial),
    ),
  },
  "two-states-at-once": {
    breaks: ["states.one-state"],
    bug: "a running job is shown in its state and the next at once (status: [processing, completing])",
    areas: ["images"],
    answer: when(
      (answer, call) => isPoll(call) && answer.status === 200 && running.includes(String(bodyOf(answer).status)),
      (answer) => {
        const status = String(bodyOf(answer).status);
        return { ...answer, body: { ...bodyOf(answer), status: [status, values[values.indexOf(status) + 1]] } };
      },
    ),
  },
} satisfies Record<string, Fault>;

export const STATE_CATCHES: Record<keyof typeof STATE_FAULTS, CheckName> = {
  "jobs-never-run": named("lifecycle", TERMINAL_REACHED),
  "two-states-at-once": named("lifecycle", "only the JobStatus values appear{example}"),
};
