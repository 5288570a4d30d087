/**
 * The plan gate, with a key on the Free plan: the operations the description opens to the Free
 * plan (x-free-plan, the stock searches) answer it; every other one answers 403 with the error body.
 */
import type { Check } from "../check.ts";
import { priceOf, quotedBody } from "../cost.ts";
import { accepted } from "../http.ts";
import { expectAccepted, sendInvalid, validRequests } from "../requests.ts";
import { responseProblems } from "../response-check.ts";
import type { Session } from "../session.ts";

const GROUP = "plan-gate";

/** The operations tried: polls need a job of the Free-plan account, which cannot create one. */
const gated = (session: Session) => session.selected().filter((op) => op.facts.kind !== "poll");

const freeClient = (session: Session) => session.client(session.config.freePlanKey as string);

export const planGate: Check = {
  group: GROUP,
  summary: "With freePlanKey: the Free plan's operations answer that key, every other operation answers it 403 with the error body.",
  blockedBy: (session) => (session.config.freePlanKey ? null : "the declaration gives no freePlanKey"),
  spend: (session) =>
    gated(session)
      .filter((op) => op.facts.freePlan)
      .flatMap((op) => validRequests(session, op, freeClient(session)).slice(0, 1).map((request) => ({ key: freeClient(session).name, what: `${op.route} (plan gate)`, price: priceOf(session.contract, op, quotedBody(request.spec)) })))
      .filter((spend) => spend.price.credits !== 0),
  async run({ session }) {
    const client = freeClient(session);
    for (const op of session.selected().filter((candidate) => !gated(session).includes(candidate))) {
      session.results.skip(GROUP, op.route, "403 for a Free-plan key", "polling needs a job of the Free-plan account, which cannot create one");
    }
    await Promise.all(
      gated(session).map(async (op) => {
        const request = validRequests(session, op, client)[0];
        if (!request) return;
        if (op.facts.freePlan) {
          expectAccepted(session, GROUP, op.route, op, { ...request, name: `${request.name} with a Free-plan key` }, await client.send(op, request.spec, { positive: true }));
          return;
        }
        const exchange = await sendInvalid(session, client, op, request.spec);
        const problems = exchange.status === 403 ? responseProblems(session.contract, op, exchange) : [`answered ${exchange.status}, not 403${accepted(exchange) ? ": a Free-plan key may call only the Free plan's operations" : ""}`];
        session.results.expect(GROUP, op.route, "403 for a Free-plan key", problems, session.curl(request.spec));
      }),
    );
  },
};
