/**
 * Every operation but the creates (the lifecycle check sends those and follows their jobs): each
 * named request example is accepted with a documented 2xx and a valid response. A stateful target's
 * poll routes are called only with ids its create responses gave, so they are left to lifecycle too.
 */
import type { Check } from "../check.ts";
import { priceOf, quotedBody, type PlannedSpend } from "../cost.ts";
import { expectAccepted, validRequests } from "../requests.ts";
import type { Session } from "../session.ts";

const GROUP = "operations";

const sent = (session: Session) =>
  session
    .selected()
    .filter((op) => op.facts.kind === "other" || (op.facts.kind === "poll" && !session.config.stateful));

export const operations: Check = {
  group: GROUP,
  rules: {
    "valid request {name} accepted": [
      "route:routes.*",
      "route:resources.credits.*",
      "route:resources.stock-result.*",
      "!resources.stock-result.cc-by",
      "route:resources.poll.*",
      "route:resources.post.license",
      "limits.headers-on-every-response",
      "conventions.routes-start-v1",
      "versioning.v1-prefix",
    ],
    "valid requests accepted": ["route:routes.*"],
    "valid request accepted": ["route:routes.*"],
  },
  summary:
    "Every operation but the creates answers each named request example with a documented 2xx and a valid response (a stateful target's polls are left to lifecycle).",
  spend: (session) =>
    sent(session)
      .flatMap((op) =>
        validRequests(session, op, session.main).map(
          (request): PlannedSpend => ({
            key: session.main.name,
            what: `${op.route} ${request.name}`,
            price: priceOf(session.contract, op, quotedBody(request.spec)),
          }),
        ),
      )
      .filter((spend) => spend.price.credits !== 0),
  async run({ session }) {
    for (const op of session.selected().filter((candidate) => !sent(session).includes(candidate))) {
      const reason =
        op.facts.kind === "create"
          ? "sent and followed by the lifecycle check"
          : "polled by the lifecycle check, with the ids of jobs the target created";
      session.results.skip(GROUP, op.route, "valid requests accepted", reason);
    }
    const client = session.main;
    await Promise.all(
      sent(session).flatMap((op) => {
        if (op.requestSchema && op.requestExamples.length === 0)
          session.results.skip(
            GROUP,
            op.route,
            "valid request accepted",
            "the description gives no named request example",
          );
        return validRequests(session, op, client).map(async (request) => {
          const { credits } = priceOf(session.contract, op, quotedBody(request.spec));
          const send = () => client.send(op, request.spec, { positive: true });
          // A priced search changes the balance: it waits until the billing check has measured it.
          const exchange = await (credits === 0 ? send() : client.charges.charge(null, send));
          expectAccepted(session, GROUP, op.route, op, request, exchange);
        });
      }),
    );
  },
};
