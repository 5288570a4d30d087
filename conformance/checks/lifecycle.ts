/**
 * Job lifecycle: each create route's example (the cheapest, or every one) is sent and its job
 * followed through the id its create response names, all jobs at once within the concurrency cap.
 * Statuses come from the service model (JobStatus's values, terminal and success statuses), the
 * result fields from each area's poll schema. A poll route no create response names an id for is
 * skipped with the reason, never called with a made-up id.
 */
import { STAGE, type Check } from "../check.ts";
import type { ContractOperation } from "../../contract/contract.ts";
import { Pending } from "../coordination.ts";
import { priceOf, quotedBody } from "../cost.ts";
import { accepted, type Exchange } from "../http.ts";
import { chargedJob, createJob, statusOf, type Job } from "../jobs.ts";
import { expectAccepted, followable, validRequests, type NamedRequest } from "../requests.ts";
import { responseProblems } from "../response-check.ts";
import type { Session } from "../session.ts";

const GROUP = "lifecycle";

/** The create operations the target implements, split by whether their jobs can be followed. */
function creates(session: Session): { followed: ContractOperation[]; unfollowed: ContractOperation[] } {
  const all = session.selected().filter((op) => op.create);
  const followed = all.filter((op) => followable(session, op));
  return { followed, unfollowed: all.filter((op) => !followed.includes(op)) };
}

const requests = (session: Session, op: ContractOperation): NamedRequest[] =>
  validRequests(session, op, session.main, session.createExamples(op));

export const lifecycle: Check = {
  group: GROUP,
  rules: {
    "valid request {name} accepted": [
      // The main key's account pays for the API (it is accepted): a paid plan.
      "service.api-on-paid-plans",
      "endpoints.create-conventions",
      "service.create-returns-id-no-media",
      "route:*.response",
      "resources.create-response.id",
      "resources.create-response.message",
      "resources.create-response.model",
      "resources.create-response.id-prefixes",
      "limits.headers-on-every-response",
      "conventions.bodies-json",
      "conventions.routes-start-v1",
      "conventions.model-routes-end-in-slug",
      "versioning.v1-prefix",
      "route:resources.create-response.legacy-i-g",
      "route:images.i-g.legacy-response",
    ],
    "job followed through its id": ["service.poll-until-terminal", "events.completion-by-polling"],
    "job pollable through its id{example}": [
      "service.poll-until-terminal",
      "events.completion-by-polling",
      "route:*.poll",
    ],
    "every poll response matches the description{example}": [
      "route:resources.poll.*",
      "resources.job-status.values",
      "resources.poll.status-always-present",
      "limits.headers-on-every-response",
    ],
    "only the JobStatus values appear{example}": ["resources.job-status.values", "states.one-state"],
    "terminal state reached{example}": [
      "service.asynchronous",
      "service.poll-until-terminal",
      "states.starting",
      "states.processing",
      "states.completing",
    ],
    "no return from a terminal state, terminal state stable{example}": [
      "resources.job-status.terminal",
      "states.succeeded",
      "states.failed",
      "states.timeout",
    ],
    "result fields exactly once succeeded{example}": ["states.succeeded", "route:resources.poll.*"],
  },
  summary:
    'Each create route\'s example starts a job whose status, polled through the id the create response names, takes only JobStatus values, reaches a terminal status and stays there, and carries the result fields exactly once it has succeeded (where the description names none, a URL somewhere in the succeeded poll: "Result URLs are present in the poll response").',
  spend: (session) => {
    const { followed, unfollowed } = creates(session);
    return [...followed, ...unfollowed].flatMap((op) =>
      requests(session, op).map((request) => ({
        key: session.main.name,
        what: `${op.route} ${request.name}`,
        price: priceOf(session.contract, op, quotedBody(request.spec)),
      })),
    );
  },
  async run({ session, stage, status }) {
    const client = session.main;
    const { followed, unfollowed } = creates(session);
    const planned = followed.flatMap((op) =>
      requests(session, op).map((request) => ({ op, request, outlasts: outlasts(session, op) })),
    );
    let ended = 0;
    let othersEnded!: () => void;
    const giveUp = new Promise<void>((resolve) => (othersEnded = resolve));
    status(`${planned.length} jobs to follow`);
    const follow = ({ op, request, outlasts: reason }: (typeof planned)[number]): Promise<void> => {
      const price = priceOf(session.contract, op, quotedBody(request.spec));
      // Only a job of exact price that ends while the billing check measures can run beside it.
      const credits = reason === null && !price.atMost ? price.credits : null;
      return chargedJob(
        client,
        op,
        request.spec,
        credits,
        (created) => {
          expectAccepted(session, GROUP, op.route, op, request, created.exchange);
          if (created.job) record(session, created.job, requests(session, op).length > 1 ? ` (${request.name})` : "");
          else if (accepted(created.exchange))
            session.results.fail(
              GROUP,
              op.route,
              "job followed through its id",
              // Stryker disable next-line StringLiteral: an accepted create without a job always says why (jobs.ts, followed)
              created.unfollowed ?? "",
              session.curl(request.spec),
            );
          status(`${++ended} of ${planned.length} jobs ended, ${client.slots.inFlight} in flight`);
        },
        reason === null ? undefined : { when: giveUp, reason },
      );
    };
    // Jobs the description says outlast poll.timeoutSeconds start first, and are followed while the others run.
    const outlasting = new Pending();
    for (const job of planned.filter((candidate) => candidate.outlasts !== null)) outlasting.add(follow(job));
    try {
      await Promise.all(planned.filter((job) => job.outlasts === null).map(follow));
    } finally {
      othersEnded();
    }
    await outlasting.settled();
    for (const op of unfollowed) {
      const poll = session.contract.pollOf(op);
      // Stryker disable next-line ConditionalExpression: every create's area has a poll route in the service model (model/read-routes.ts)
      if (poll)
        session.results.skip(
          GROUP,
          poll.route,
          "job pollable through its id",
          `no create response of ${op.route} names the job's id (the description shows none), so the suite has no real id to poll with`,
        );
    }
    // Jobs the suite cannot follow hold their slot to the end of the run: they go last.
    await stage(STAGE.late);
    for (const op of unfollowed) {
      for (const request of requests(session, op)) {
        if (client.slots.inFlight >= client.slots.cap) {
          session.results.skip(
            GROUP,
            op.route,
            `valid request ${request.name} accepted`,
            "the concurrency cap is taken by jobs the suite cannot follow",
          );
          continue;
        }
        const created = await client.charges.charge(null, () => createJob(client, op, request.spec, "accept"));
        expectAccepted(session, GROUP, op.route, op, request, created.exchange);
      }
    }
  },
};

/** Why the description expects this route's jobs to outlast poll.timeoutSeconds, or null. */
function outlasts(session: Session, op: ContractOperation): string | null {
  const poll = session.contract.pollOf(op);
  // Stryker disable next-line OptionalChaining: asked only of followable creates, whose poll route exists and, as a poll route, has polls
  const typical = poll?.polls?.poll.typicalDurationSeconds;
  const limit = session.config.poll.timeoutSeconds;
  if (!typical || typical.min <= limit) return null;
  return `the description says these jobs usually take ${typical.min} to ${typical.max} s, longer than poll.timeoutSeconds (${limit} s); followed while the other jobs ran`;
}

/** The lifecycle results of one followed job. */
function record(session: Session, job: Job, label: string): void {
  const { results, contract, config } = session;
  const route = `${job.create.route} -> ${job.poll.route}`;
  const curl = session.curl(job.pollSpec);
  const { values, terminal, success } = contract.model.jobStatus;
  const first = job.polls[0];
  if (!first) {
    results.fail(GROUP, route, `job pollable through its id${label}`, `never polled: ${job.stoppedBy}`, curl);
    return;
  }
  results.expect(
    GROUP,
    route,
    `job pollable through its id${label}`,
    first.status === 200 ? [] : [`the first poll answered ${first.status}: ${first.text.slice(0, 200)}`],
    curl,
  );
  const problems = job.polls.flatMap((exchange, index) =>
    responseProblems(contract, job.poll, exchange).map((problem) => `poll ${index + 1}: ${problem}`),
  );
  results.expect(GROUP, route, `every poll response matches the description${label}`, problems, curl);
  const statuses = job.statuses;
  results.expect(
    GROUP,
    route,
    `only the JobStatus values appear${label}`,
    statuses
      .filter((status) => !values.includes(status))
      .map((status) => `status "${status}" is not one of ${values.join(", ")}`),
    curl,
  );
  if (!config.stateful) {
    const reason =
      "the target is stateless (the mock answers every poll with one fixed example), so there is no status sequence";
    for (const name of [
      "terminal state reached",
      "no return from a terminal state, terminal state stable",
      "result fields exactly once succeeded",
    ]) {
      results.skip(GROUP, route, `${name}${label}`, reason);
    }
    return;
  }
  if (job.terminal === null) {
    const outlasting = outlasts(session, job.create);
    if (outlasting) {
      for (const name of [
        "terminal state reached",
        "no return from a terminal state, terminal state stable",
        "result fields exactly once succeeded",
      ]) {
        results.skip(GROUP, route, `${name}${label}`, outlasting);
      }
      return;
    }
    results.fail(
      GROUP,
      route,
      `terminal state reached${label}`,
      `${job.stoppedBy ?? "polling stopped"} (sequence: ${statuses.join(" -> ")})`,
      curl,
    );
    return;
  }
  results.pass(GROUP, route, `terminal state reached${label}`);
  const after = statuses.slice(statuses.indexOf(job.terminal));
  results.expect(
    GROUP,
    route,
    `no return from a terminal state, terminal state stable${label}`,
    after.every((status) => status === job.terminal)
      ? []
      : [`illegal status sequence ${statuses.join(" -> ")}: "${job.terminal}" is terminal`],
    curl,
  );
  // Stryker disable next-line OptionalChaining,ArrayDeclaration: a job's poll route is a poll route, whose area always lists its result fields
  const fields = job.poll.polls?.resultFields ?? [];
  const answered = job.polls.filter((exchange) => exchange.status === 200);
  results.expect(
    GROUP,
    route,
    `result fields exactly once succeeded${label}`,
    fields.length > 0
      ? answered.flatMap((exchange) => resultProblems(exchange, fields, success, terminal))
      : answered.flatMap((exchange) => unnamedResultProblems(exchange, success, job.poll.route)),
    curl,
  );
}

/** Every http(s) URL among the strings of a JSON value, however deep. */
function urlsIn(value: unknown): string[] {
  if (typeof value === "string") return /^https?:\/\//i.test(value) ? [value] : [];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(urlsIn);
}

/**
 * Where the description names no result field (its name is not shown), a succeeded job's poll
 * still carries a URL somewhere: "Result URLs are present in the poll response".
 */
function unnamedResultProblems(exchange: Exchange, success: string, route: string): string[] {
  if (statusOf(exchange) !== success || urlsIn(exchange.json).length > 0) return [];
  return [
    `a ${success} job's poll carries no URL, where the specification says result URLs are present in the poll response (the description names no result field for ${route}, so any field may hold it)`,
  ];
}

/** A succeeded job carries every result field; a job in any other status carries none. */
function resultProblems(
  exchange: Exchange,
  fields: readonly string[],
  success: string,
  terminal: readonly string[],
): string[] {
  const body = (exchange.json ?? {}) as Record<string, unknown>;
  const status = statusOf(exchange);
  if (status === success)
    return fields.filter((field) => !(field in body)).map((field) => `a ${status} job lacks its result field ${field}`);
  const kind = terminal.includes(status) ? "" : "still running ";
  return fields
    .filter((field) => field in body)
    .map((field) => `a ${kind}${status} job carries the result field ${field}`);
}
