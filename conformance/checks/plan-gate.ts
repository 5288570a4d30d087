/**
 * The plan gate, with a key on the Free plan: the operations the description opens to the Free
 * plan (x-free-plan, the stock searches) answer it; every other one answers 403 with the error body.
 * A poll route is tried with the id of a job the main account started (the Free-plan account cannot
 * start one): the specification answers 403 both for the plan gate and for another account's job
 * (ownership), so that 403 is certain whichever rule the target applies first.
 */
import { needing, STAGE, type Check } from "../check.ts";
import { requestPath, type ContractOperation } from "../../contract/contract.ts";
import { priceOf, quotedBody } from "../cost.ts";
import { accepted } from "../http.ts";
import { expectAccepted, sendInvalid, validRequests } from "../requests.ts";
import { idFieldOf } from "../jobs.ts";
import { responseProblems } from "../response-check.ts";
import type { Session } from "../session.ts";

const GROUP = "plan-gate";

/** The operations tried at once: polls wait for a job of the main account. */
const gated = (session: Session) => session.selected().filter((op) => op.facts.kind !== "poll");

/** Per run: for each poll route, the id of a job the main account started. */
const mainJobs = new WeakMap<Session, Map<ContractOperation, string>>();

const freeClient = (session: Session) => session.client(session.config.freePlanKey as string);

export const planGate: Check = {
  group: GROUP,
  rules: {
    "403 for a Free-plan key": ["auth.403", "errors.403", "service.free-plan-stock-only", "auth.free-plan-gate"],
    "valid request {name} accepted": ["service.free-plan-stock-only", "auth.free-plan-gate"],
  },
  summary:
    "With freePlanKey: the Free plan's operations answer that key, every other operation answers it 403 with the error body.",
  blockedBy: needing({ declared: ["freePlanKey"] }),
  spend: (session) =>
    gated(session)
      .filter((op) => op.facts.freePlan)
      .flatMap((op) =>
        validRequests(session, op, freeClient(session))
          .slice(0, 1)
          .map((request) => ({
            key: freeClient(session).name,
            what: `${op.route} (plan gate)`,
            price: priceOf(session.contract, op, quotedBody(request.spec)),
          })),
      )
      .filter((spend) => spend.price.credits !== 0),
  observe(session, { client, op, exchange }) {
    const poll = session.contract.pollOf(op);
    const idField = idFieldOf(session.config, op);
    if (client !== session.main || !poll || !idField || !accepted(exchange)) return;
    const id = (exchange.json as Record<string, unknown> | undefined)?.[idField];
    const ids = mainJobs.get(session) ?? new Map<ContractOperation, string>();
    mainJobs.set(session, ids);
    if ((typeof id === "string" && id !== "") || typeof id === "number") ids.set(poll, ids.get(poll) ?? String(id));
  },
  async run({ session, stage }) {
    const client = freeClient(session);
    await Promise.all(
      gated(session).map(async (op) => {
        const request = validRequests(session, op, client)[0];
        if (!request) return;
        if (op.facts.freePlan) {
          expectAccepted(
            session,
            GROUP,
            op.route,
            op,
            { ...request, name: `${request.name} with a Free-plan key` },
            await client.send(op, request.spec, { positive: true }),
          );
          return;
        }
        const exchange = await sendInvalid(session, client, op, request.spec);
        const problems =
          exchange.status === 403
            ? responseProblems(session.contract, op, exchange)
            : [
                `answered ${exchange.status}, not 403${accepted(exchange) ? ": a Free-plan key may call only the Free plan's operations" : ""}`,
              ];
        session.results.expect(GROUP, op.route, "403 for a Free-plan key", problems, session.curl(request.spec));
      }),
    );
    // The other checks' creates name the main account's jobs by then.
    await stage(STAGE.late);
    for (const poll of session.selected().filter((op) => op.facts.kind === "poll"))
      await pollAnotherAccountsJob(session, poll);
  },
};

/** Polls a job of the main account with the Free-plan key: 403 by the plan gate and by ownership alike. */
async function pollAnotherAccountsJob(session: Session, poll: ContractOperation): Promise<void> {
  const client = freeClient(session);
  const id = mainJobs.get(session)?.get(poll);
  const name = "403 for a Free-plan key";
  if (client === session.main)
    return void session.results.skip(
      GROUP,
      poll.route,
      name,
      "freePlanKey is the main key, so the main account's jobs are its own",
    );
  if (!session.config.stateful)
    return void session.results.skip(
      GROUP,
      poll.route,
      name,
      "the target is stateless: its job ids name no job of an account",
    );
  if (id === undefined)
    return void session.results.skip(
      GROUP,
      poll.route,
      name,
      "no create of the main account named a job id for this route, and the Free-plan account cannot create one",
    );
  const spec = { method: poll.method, path: requestPath(session.contract, poll, { id }), headers: client.authorized() };
  const exchange = await client.send(poll, spec);
  const problems =
    exchange.status === 403
      ? responseProblems(session.contract, poll, exchange)
      : [
          `answered ${exchange.status}, not 403, to a Free-plan key polling a job of another account (the main account's ${id}): the plan gate and ownership both answer 403`,
        ];
  session.results.expect(GROUP, poll.route, name, problems, session.curl(spec));
}
