/** What a fault is, and the small tools the faults are written with (registry.ts lists them). */
import {
  loadServiceModel,
  type AreaModel,
  type CreateRouteModel,
  type TooManyCondition,
} from "../../../model/service-model.ts";
import { readCatalogue, type Rule as CatalogueRule } from "../../../spec/catalogue.ts";
import type { Account } from "../../../behaviour/accounts.ts";
import type { SandboxConfig } from "../../../sandbox/config.ts";
import type { Job } from "../../../behaviour/jobs.ts";
import { SANDBOX_CODES, type Reply } from "../../../behaviour/responses.ts";
import type { Call, Rule } from "../../../behaviour/rules.ts";
import type { Answer, SandboxHooks } from "../../../sandbox/server.ts";
import type { ServiceState } from "../../../behaviour/state.ts";

export type AnswerHook = NonNullable<SandboxHooks["answer"]>;

export interface Fault {
  /** The implementation bug the fault stands for. */
  readonly bug: string;
  /** The ids of the rules of spec/rules.yaml it breaks: the check that catches it names one of them. */
  readonly breaks: readonly string[];
  readonly config?: (config: SandboxConfig) => SandboxConfig;
  readonly rules?: (rules: readonly Rule[]) => readonly Rule[];
  /** Made per sandbox, so that a fault may keep state (jobs it has seen). */
  readonly answer?: () => AnswerHook;
  /** The areas its catching check needs (its run selects only them); every area when omitted. */
  readonly areas?: readonly string[];
}

export type Body = Record<string, unknown> & { error?: Record<string, unknown> };

export const bodyOf = (answer: Answer): Body =>
  typeof answer.body === "object" && answer.body !== null ? (answer.body as Body) : {};

export const isCreate = (call: Call | undefined): call is Call => call?.op.kind === "create";
export const isPoll = (call: Call | undefined): call is Call => call?.op.kind === "poll";

/** The rules with the one named `name` replaced by `check` (given the original). */
export const wrap =
  (name: string, check: (original: Rule["check"]) => Rule["check"]) =>
  (rules: readonly Rule[]): readonly Rule[] =>
    rules.map((rule) => (rule.name === name ? { name, check: check(rule.check.bind(rule)) } : rule));

export const without =
  (name: string) =>
  (rules: readonly Rule[]): readonly Rule[] =>
    rules.filter((rule) => rule.name !== name);

/** An answer hook that only looks at answers `applies` picks. */
export const when =
  (
    applies: (answer: Answer, call: Call | undefined, state: ServiceState) => boolean,
    change: AnswerHook,
  ): (() => AnswerHook) =>
  () =>
  (answer, call, state) =>
    applies(answer, call, state) ? change(answer, call, state) : answer;

export const limits = (
  config: SandboxConfig,
  change: (limits: SandboxConfig["limits"]) => SandboxConfig["limits"],
): SandboxConfig => ({ ...config, limits: change(config.limits) });

/** The job a poll asks for. */
export const polledJob = (call: Call, state: ServiceState) => state.jobs.get(call.params.id ?? "");

/** Put before a job id by the wrong-id-prefix fault. */
export const WRONG_PREFIX = "id_";

/** A running status after the initial one (JobStatus's order): what a job may say later, never at creation. */
export function laterRunningStatus(state: ServiceState): string {
  const { values, terminal, initial } = state.model.jobStatus;
  const running = values.filter((status) => !terminal.includes(status));
  const later = running[running.indexOf(initial) + 1];
  if (later === undefined) throw new Error(`JobStatus has no running status after ${initial}`);
  return later;
}

/** A queue-full answer where the concurrency rule would not give one. */
export const queueFull = (state: ServiceState): ReturnType<Rule["check"]> =>
  state.responses.tooMany("queue-full", "As many generations are in flight as the account's concurrency cap allows.");

/** The answer without the header `name`. */
export const withoutHeader = (answer: Answer, name: string): Answer => {
  const headers = { ...answer.headers };
  delete headers[name];
  return { ...answer, headers };
};

/** The error code of the 429 variant for `condition`: the description's, else the sandbox's where it shows none. */
export const tooManyCode = (state: ServiceState, condition: TooManyCondition): string | undefined =>
  state.model.errors.tooManyRequests.variants.find((variant) => variant.condition === condition)?.code ??
  (condition === "rate-limited" ? undefined : SANDBOX_CODES[condition].code);

/**
 * An answer hook that hands `act` the job of each poll whose status `shows` picks, with the account
 * and whether an earlier poll showed it so (the hook's memory is per sandbox).
 */
export const onPolledJob =
  (
    shows: (status: string, state: ServiceState) => boolean,
    act: (job: Job, account: Account, seenBefore: boolean) => void,
  ): (() => AnswerHook) =>
  () => {
    const seen = new Set<string>();
    return when(
      (answer, call, state) => isPoll(call) && shows(String(bodyOf(answer).status), state),
      (answer, call, state) => {
        const job = polledJob(call!, state);
        if (job) {
          act(job, call!.account!, seen.has(job.id));
          seen.add(job.id);
        }
        return answer;
      },
    )();
  };

/**
 * A check by its group and name, the name as the check declares it in its `rules` (`{…}` where it
 * puts a value in), and, where one result of several is meant, that result's exact name and route
 * (or, for the generated field faults, the results, any one of them, on one route).
 */
export interface CheckName {
  readonly group: string;
  readonly check: string;
  readonly result?: string;
  readonly route?: string;
  /** For the generated field faults: the results (any one of them) on `route`. */
  readonly results?: readonly string[];
}

export const named = (group: string, check: string, result?: string, route?: string): CheckName => ({
  group,
  check,
  ...(result === undefined ? {} : { result }),
  ...(route === undefined ? {} : { route }),
});

/** A generated fault's name: its kind, then what it is generated for (`poll-route-missing:images`). */
export type FamilyFaultName = `${string}:${string}`;

/** Faults with the check that must catch each, for faults generated per area, model or route. */
export interface Family {
  readonly faults: Readonly<Record<FamilyFaultName, Fault>>;
  readonly caughtBy: Readonly<Record<FamilyFaultName, CheckName>>;
}

/** One family of `entries` (name, fault, the check that must catch it). */
export const family = (entries: ReadonlyArray<readonly [FamilyFaultName, Fault, CheckName]>): Family => ({
  faults: Object.fromEntries(entries.map(([name, fault]) => [name, fault])),
  caughtBy: Object.fromEntries(entries.map(([name, , caught]) => [name, caught])),
});

/** `answer` replaced by the sandbox's `reply` (its rate-limit headers kept). */
export const replaced = (answer: Answer, reply: Reply): Answer => ({
  status: reply.status,
  body: reply.body,
  headers: { ...answer.headers, ...reply.headers },
});

/** The answer's body without `fields`. */
export const omitted = (body: Body, fields: readonly string[]): Body =>
  Object.fromEntries(Object.entries(body).filter(([field]) => !fields.includes(field)));

/** The 404 a route that is not mounted gives. */
export const notFound = (state: ServiceState, what: string): Reply =>
  state.responses.error(404, SANDBOX_CODES.notFound.type, SANDBOX_CODES.notFound.code, `No route ${what}.`);

/** The model and catalogue the families are generated from (the sandbox serves the same bundle). */
export const MODEL = loadServiceModel();
export const CATALOGUE = readCatalogue();

/** The catalogue's rules whose id matches `pattern`. */
export const rulesMatching = (pattern: RegExp): CatalogueRule[] =>
  CATALOGUE.rules.filter((rule) => pattern.test(rule.id));

/** The operation a description pointer lies under (`/paths/~1v1~1models/get/…`: GET /v1/models), or undefined. */
export function operationAt(pointer: string): { method: string; path: string; route: string } | undefined {
  const match = /^\/paths\/([^/]+)\/(get|post)(\/|$)/.exec(pointer);
  if (!match) return undefined;
  const path = match[1]!.replace(/~1/g, "/").replace(/~0/g, "~");
  return { method: match[2]!, path, route: `${match[2]!.toUpperCase()} ${path}` };
}

/** The area (the conformance config's name: the path's first segment after /v1) of a route's path. */
export const areaOf = (path: string): string => path.split("/")[2] ?? "";

/** A job's route as the lifecycle check names it: its create, then its poll. */
export const jobRoute = (create: CreateRouteModel, area: AreaModel): string =>
  `POST ${create.path} -> GET ${area.poll.path}`;

/** The area of the credits route, which the checks that measure charges need. */
export const CREDITS_AREA = areaOf(
  MODEL.operations.find((op) => op.operationId === MODEL.account.creditsOperationId)?.path ?? "",
);
