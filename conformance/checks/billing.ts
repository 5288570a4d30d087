/**
 * Billing, read off the account's credits (`total_available`) while the account's other charges
 * are only jobs of exact price whose charge is added up: a held price (lip sync, 3D) is reserved when its job is created; a succeeded job is
 * charged exactly its quote; a failed or timed-out job and a request blocked by moderation are
 * charged nothing; a search priced per request is charged each time. The jobs run at once; where
 * the balance moves by something else than expected, the quotes that explain the difference are
 * named, and where none do, every job that ran is measured again alone and those charged otherwise
 * than their quote are named (route, example, quote).
 */
import { needing, type Check } from "../check.ts";
import type { Client } from "../client.ts";
import type { ContractOperation } from "../../contract/contract.ts";
import { priceOf, quotedBody, type PlannedSpend } from "../cost.ts";
import { accepted, type Exchange, type RequestSpec } from "../http.ts";
import type { MeasuredCharge } from "../coordination.ts";
import { createJob, type Job } from "../jobs.ts";
import { balanceOf, creditsOp, hasPrompt, marked, pricedCreates, validRequests } from "../requests.ts";
import type { Session } from "../session.ts";

const GROUP = "billing";

interface Role {
  readonly name: string;
  readonly op: ContractOperation;
  readonly spec: RequestSpec;
  readonly credits: number | null;
  /** The terminal status the job must end in (null: the request is refused before any job). */
  readonly ends: string | null;
  /** Whether the balance must move by the role's credits. */
  readonly charged: boolean;
}

/** What a check that predicts the balance needs declared: the account pays standard prices. */
export const STANDARD_PRICES = {
  field: "standardPrices",
  gives: "the account pays standard prices, so that its balance can be predicted",
} as const;

export const billing: Check = {
  group: GROUP,
  rules: {
    "the balance can be read": ["routes.account-credits", "resources.credits.integer-fields"],
    "a held price is reserved when the job is created": [
      "states.lip-sync-reserves-quote",
      "states.3d-credits-held",
      "resources.create-response.3d-credits",
    ],
    "a held price is charged when its job succeeds": [
      "states.lip-sync-reserves-quote",
      "states.3d-credits-held",
      "3d.charged-on-success",
    ],
    "{role}: the job is created": [],
    "{role}: the job ends {status}": [],
    "{role}: the request is blocked": [
      "errors.400-moderation",
      "auth.moderation-is-400",
      "resources.moderation-body.shape",
      "errors.moderation-reasons",
    ],
    "a succeeded job is charged exactly its quote": [
      "service.standard-prices",
      "service.charged-only-on-success",
      "service.metered-in-credits",
      "states.charged-on-succeeded",
      "states.succeeded",
    ],
    "a failed job is charged nothing": ["service.charged-only-on-success", "states.failed"],
    "a timed-out job is charged nothing": ["service.charged-only-on-success", "states.timeout"],
    "a request blocked by moderation is charged nothing": ["service.charged-only-on-success"],
    "a job run beside the billing check is charged its quote": ["states.charged-on-succeeded"],
    "the balance falls by the quotes of the jobs that ran": ["states.charged-on-succeeded"],
    "a search priced per request is charged its price": ["route:routes.stock-*"],
  },
  summary:
    "With standardPrices: the credits route moves by exactly the quote of a succeeded job, by nothing for failed or timed-out jobs and moderation blocks (with outcomeMarkers), and a held price is reserved at creation.",
  blockedBy: needing(
    {
      stateful: true,
      declared: [STANDARD_PRICES],
    },
    (session) => {
      if (!creditsOp(session)) return "the target does not implement the credits route";
      return pricedCreates(session, false).some((request) => request.price.credits !== null && !request.price.atMost)
        ? null
        : "no implemented create request has an exact standard price";
    },
  ),
  spend(session) {
    const spends: PlannedSpend[] = [];
    const success = pricedCreates(session, false)[0];
    const held = pricedCreates(session, true)[0];
    for (const request of [success, held])
      if (request) spends.push({ key: session.main.name, what: `${request.op.route} (billing)`, price: request.price });
    const search = perRequest(session);
    if (search) spends.push({ key: session.main.name, what: `${search.op.route} (billing)`, price: search.price });
    return spends;
  },
  async run({ session, status }) {
    const client = session.main;
    // Only charges this check can add up run meanwhile: the balance moves by what it expects.
    await client.charges.measure(async (window) => {
      status("reading the balance");
      const before = await balanceOf(session, client);
      if (typeof before === "string") return void session.results.fail(GROUP, "*", "the balance can be read", before);
      const roles = chooseRoles(session);
      const outcome = new Map<Role, Exchange>();
      const jobs: Array<Promise<void>> = [];
      const strays: Role[] = [];
      const held = pricedCreates(session, true)[0];
      if (held) {
        status("creating a job whose price is held");
        const created = await createJob(client, held.op, held.spec, "accept");
        const credits = (created.exchange.json as Record<string, unknown> | undefined)?.[
          session.contract.model.account.priceField
        ];
        const name = "a held price is reserved when the job is created";
        if (!created.job || typeof credits !== "number") {
          session.results.fail(
            GROUP,
            held.op.route,
            name,
            `the create answered ${created.exchange.status} without ${created.job ? "" : "a job and "}its credits: ${created.exchange.text.slice(0, 200)}`,
            session.curl(held.spec),
          );
          // Its job runs all the same: charged on success, at its quote, like a job beside the check,
          // lest that charge be blamed on the roles.
          const { job } = created;
          if (job) {
            const stray = {
              ...held,
              name,
              credits: held.price.atMost ? null : held.price.credits,
              ends: null,
              // Stryker disable next-line BooleanLiteral: a stray is counted by its credits alone (others, in run); its charged is never read
              charged: true,
            };
            jobs.push(
              job.done.then(() => {
                if (job.terminal === session.contract.model.jobStatus.success) strays.push(stray);
              }),
            );
          }
        } else {
          const after = await balanceOf(session, client);
          if (typeof after === "string") session.results.fail(GROUP, held.op.route, name, after);
          else
            session.results.expect(
              GROUP,
              held.op.route,
              name,
              before - after === credits
                ? []
                : [
                    `${session.contract.model.account.availableField} fell by ${before - after} when the job was created; its held price is ${credits}`,
                  ],
              session.curl(held.spec),
            );
          const role: Role = {
            name: "a held price is charged when its job succeeds",
            op: held.op,
            spec: held.spec,
            credits,
            ends: session.contract.model.jobStatus.success,
            charged: true,
          };
          roles.push(role);
          outcome.set(role, created.exchange);
          jobs.push(watch(session, role, created.job, outcome, strays));
        }
      }
      const own = roles.filter((role) => role.ends !== null).length;
      // The other checks' jobs of exact price may fill the cap's other slots meanwhile.
      window.open({ cap: client.slots.cap, own });
      status(`following ${own} jobs`);
      for (const role of roles.filter((candidate) => !outcome.has(candidate))) {
        jobs.push(
          createJob(client, role.op, role.spec, role.ends === null ? "reject" : "accept").then((created) => {
            if (created.job) {
              outcome.set(role, created.exchange);
              return watch(session, role, created.job, outcome, strays);
            }
            if (role.ends === null) return void outcome.set(role, created.exchange);
            session.results.fail(
              GROUP,
              role.op.route,
              `${role.name}: the job is created`,
              `the create answered ${created.exchange.status}: ${created.exchange.text.slice(0, 200)}`,
              session.curl(role.spec),
            );
          }),
        );
      }
      await Promise.all(jobs);
      const beside = await window.settled();
      const after = await balanceOf(session, client);
      if (typeof after === "string") return void session.results.fail(GROUP, "*", "the balance can be read", after);
      const others =
        beside.filter((charge) => charge.charged()).reduce((sum, charge) => sum + charge.credits, 0) +
        strays.reduce((sum, role) => sum + (role.credits ?? 0), 0);
      const judged = roles.filter((role) => outcome.has(role));
      const quoted = others + judged.filter((role) => role.charged).reduce((sum, role) => sum + (role.credits ?? 0), 0);
      // Charges pledged by another check are its to judge: told whether the balance agreed with every quote.
      const pledged = beside.filter((charge) => charge.verdict !== undefined);
      for (const charge of pledged) charge.verdict?.(before - after === quoted);
      // Where a pledged charge may be the one charged otherwise, no set of this check's quotes explains the fall.
      const explained =
        pledged.length > 0 && before - after !== quoted
          ? false
          : judge(session, judged, before - after - others, outcome);
      if (explained) await searchCharge(session, client, after);
      else
        await blame(
          session,
          client,
          judged,
          beside.filter((charge) => charge.verdict === undefined),
          { fell: before - after, quoted },
          pledged.length,
        );
    });
  },
};

/**
 * Records whether a role's job ended as its marker asked; drops the role from the verdict if not.
 * A dropped job that succeeded all the same is charged its quote, like a job beside the check
 * (`strays`): else that charge would be blamed on the roles whose quotes happen to add up to it.
 */
async function watch(
  session: Session,
  role: Role,
  job: Job,
  outcome: Map<Role, Exchange>,
  strays: Role[],
): Promise<void> {
  await job.done;
  if (job.terminal !== role.ends) {
    outcome.delete(role);
    if (job.terminal === session.contract.model.jobStatus.success) strays.push(role);
    session.results.fail(
      GROUP,
      role.op.route,
      // A request that should have been blocked started a job instead.
      role.ends === null ? `${role.name}: the request is blocked` : `${role.name}: the job ends ${role.ends}`,
      `the job ended ${job.terminal ?? `without a terminal status (${job.stoppedBy})`}, so its charge cannot be judged`,
      session.curl(role.spec),
    );
  }
}

/** The roles beside the held job: a succeeded job, and the declared failure outcomes. */
function chooseRoles(session: Session): Role[] {
  const { config, contract } = session;
  const success = pricedCreates(session, false).find(
    (request) => request.price.credits !== null && !request.price.atMost,
  );
  if (!success) return [];
  const { jobStatus, errors } = contract.model;
  const roles: Role[] = [
    {
      name: "a succeeded job is charged exactly its quote",
      op: success.op,
      spec: success.spec,
      credits: success.price.credits,
      ends: jobStatus.success,
      charged: true,
    },
  ];
  // Failures go to a model outside any family, whose failures could start a cooldown.
  const prompted = pricedCreates(session, false).filter(
    (request) =>
      hasPrompt(request.op) &&
      request.op.create?.family === null &&
      request.price.credits !== null &&
      !request.price.atMost,
  );
  const { failed, timeout, moderation } = config.outcomeMarkers;
  const failure = (name: string, marker: string | undefined, ends: string | null): void => {
    // Each price above the sum of those before it: then one set of roles alone adds up to any fall.
    const sum = roles.reduce((total, role) => total + (role.credits ?? 0), 0);
    const unused = prompted.filter((request) => !roles.some((role) => role.op === request.op));
    const request = unused.find((candidate) => (candidate.price.credits ?? 0) > sum) ?? unused[0];
    if (!marker || !request)
      return void session.results.skip(
        GROUP,
        "*",
        name,
        marker
          ? "no implemented create route takes a prompt for the marker"
          : "the declaration gives no outcomeMarkers for it",
      );
    roles.push({
      name,
      op: request.op,
      spec: marked(request.spec, marker),
      credits: request.price.credits,
      ends,
      charged: false,
    });
  };
  failure(
    "a failed job is charged nothing",
    failed,
    // Stryker disable next-line ConditionalExpression: the description lists the failed status before the timeout among the failure statuses, so the first of them is the failed one either way
    jobStatus.failure.find((status) => status !== jobStatus.timeout) ?? null,
  );
  failure("a timed-out job is charged nothing", timeout, jobStatus.timeout);
  failure(
    "a request blocked by moderation is charged nothing",
    // Stryker disable next-line StringLiteral: the description lists restriction reasons, so the first is always there
    moderation?.replace("{reason}", errors.moderation.reasons[0] ?? ""),
    null,
  );
  return roles;
}

/**
 * Compares the fall of the balance with what the roles should have charged. Where they disagree,
 * the one set of roles whose quotes add up to the fall says which were charged; where no set does,
 * it returns false and leaves the verdicts to `blame`.
 */
function judge(session: Session, roles: Role[], fell: number, outcome: Map<Role, Exchange>): boolean {
  const expected = roles.filter((role) => role.charged).reduce((sum, role) => sum + (role.credits ?? 0), 0);
  const explaining = subsets(roles).filter(
    (subset) => subset.reduce((sum, role) => sum + (role.credits ?? 0), 0) === fell,
  );
  const charged =
    fell === expected
      ? new Set(roles.filter((role) => role.charged))
      : explaining.length === 1
        ? new Set(explaining[0])
        : undefined;
  if (!charged) return false;
  for (const role of roles) {
    const curl = session.curl(outcome.get(role)?.request ?? role.spec);
    if (role.ends === null) {
      const exchange = outcome.get(role) as Exchange;
      const reason = session.contract.model.errors.moderation;
      const body = exchange.json as Record<string, unknown> | undefined;
      const blocked = exchange.status === reason.status && typeof body?.[reason.reasonField] === "string";
      if (!blocked) {
        session.results.fail(
          GROUP,
          role.op.route,
          `${role.name}: the request is blocked`,
          `answered ${exchange.status}, not the moderation block: ${exchange.text.slice(0, 200)}`,
          curl,
        );
        continue;
      }
    }
    const was = charged.has(role);
    session.results.expect(
      GROUP,
      role.op.route,
      role.name,
      was === role.charged
        ? []
        : [
            `${session.contract.model.account.availableField} fell by ${fell} for this check's requests, which is ${was ? "" : "not "}explained by charging its ${role.credits} credits`,
          ],
      curl,
    );
  }
  return true;
}

/** A request that ran in the measurement, to be measured again alone. */
interface Suspect {
  readonly name: string;
  readonly op: ContractOperation;
  readonly spec: RequestSpec;
  /** Its quote, charged only when its job succeeds. */
  readonly credits: number;
  /** The description holds it refused (the moderation block): no job starts. */
  readonly refused: boolean;
}

/** `POST /v1/videos/v-b "text-to-video"`: the route and the named example the body is, else the body. */
function describeRequest(op: ContractOperation, spec: RequestSpec): string {
  const body = JSON.stringify(spec.body ?? {});
  const example = op.requestExamples.find((candidate) => JSON.stringify(candidate.value) === body);
  return `${op.route} ${example ? `"${example.name}"` : body.slice(0, 120)}`;
}

/**
 * The balance fell by what no set of quotes explains. Each request that ran in the measurement, the
 * check's own and the jobs beside it, is sent again alone with the balance read around it (nothing
 * else is charged meanwhile), so that the report names the requests whose charge disagrees with
 * their quote, rather than blaming the check's own routes.
 */
async function blame(
  session: Session,
  client: Client,
  roles: Role[],
  beside: MeasuredCharge[],
  total: { fell: number; quoted: number },
  /** Charges of other checks that ran in the measurement, which those checks measure again themselves. */
  handedBack: number,
): Promise<void> {
  const { jobStatus, account } = session.contract.model;
  const suspects = new Map<string, Suspect>();
  for (const role of roles) {
    suspects.set(describeRequest(role.op, role.spec), {
      name: role.name,
      op: role.op,
      spec: role.spec,
      credits: role.charged ? (role.credits ?? 0) : 0,
      refused: role.ends === null,
    });
  }
  for (const charge of beside.filter((candidate) => candidate.charged())) {
    const what = describeRequest(charge.op, charge.spec);
    if (!suspects.has(what))
      suspects.set(what, {
        name: "a job run beside the billing check is charged its quote",
        op: charge.op,
        spec: charge.spec,
        credits: charge.credits,
        refused: false,
      });
  }
  let unexplained = 0;
  for (const [what, suspect] of suspects) {
    const before = await balanceOf(session, client);
    const created = await createJob(client, suspect.op, suspect.spec, suspect.refused ? "reject" : "accept");
    await created.job?.done;
    const after = await balanceOf(session, client);
    if (typeof before === "string" || typeof after === "string")
      return void session.results.fail(
        GROUP,
        "*",
        "the balance can be read",
        typeof before === "string" ? before : (after as string),
      );
    const quote = created.job?.terminal === jobStatus.success ? suspect.credits : 0;
    const ended = created.job
      ? `ended ${created.job.terminal ?? created.job.stoppedBy}`
      : `answered ${created.exchange.status}`;
    const problems =
      before - after === quote
        ? []
        : [
            `measured alone, ${what} (${ended}) made ${account.availableField} fall by ${before - after}; its quote is ${quote}`,
          ];
    // Stryker disable next-line UpdateOperator: the count is only compared with 0 below, which one more and one less alike are not
    if (problems.length) unexplained++;
    session.results.expect(GROUP, suspect.op.route, suspect.name, problems, session.curl(suspect.spec));
  }
  if (unexplained === 0 && handedBack === 0) {
    session.results.fail(
      GROUP,
      "*",
      "the balance falls by the quotes of the jobs that ran",
      `${account.availableField} fell by ${total.fell} while jobs quoted ${total.quoted} ran together, yet each, measured alone, was charged its quote`,
    );
  }
}

function subsets<T>(items: readonly T[]): T[][] {
  const all: T[][] = [[]];
  for (const item of items) for (const subset of all.slice()) all.push([...subset, item]);
  return all;
}

/** The first implemented route charged per request, with its price. */
function perRequest(session: Session) {
  const op = session
    .selected()
    .find((candidate) => session.contract.model.priceTables[candidate.path]?.pricing?.charged === "per-request");
  const request = op ? validRequests(session, op, session.main)[0] : undefined;
  return op && request ? { op, request, price: priceOf(session.contract, op, quotedBody(request.spec)) } : undefined;
}

async function searchCharge(session: Session, client: Client, before: number): Promise<void> {
  const search = perRequest(session);
  // Stryker disable next-line ConditionalExpression: every route priced per request in the description is priced exactly (stock searches, 10 credits per search), so its credits are never null
  if (!search || search.price.credits === null) return;
  const exchange = await client.send(search.op, search.request.spec, { positive: true });
  const after = await balanceOf(session, client);
  const name = "a search priced per request is charged its price";
  if (!accepted(exchange) || typeof after === "string") {
    session.results.fail(
      GROUP,
      search.op.route,
      name,
      typeof after === "string" ? after : `the search answered ${exchange.status}`,
      session.curl(search.request.spec),
    );
    return;
  }
  session.results.expect(
    GROUP,
    search.op.route,
    name,
    before - after === search.price.credits
      ? []
      : [
          `${session.contract.model.account.availableField} fell by ${before - after}; the search costs ${search.price.credits}`,
        ],
    session.curl(search.request.spec),
  );
}
