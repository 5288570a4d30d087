/**
 * The uploads window, with the body the declaration gives for an upload (its shape is not shown):
 * the description's number of uploads per window is accepted, counting the run's earlier uploads,
 * and the next one is refused with the rate-limited 429 and Retry-After. That 429 stops the key
 * for the window, so the check sends the main key's last requests.
 */
import { needing, STAGE, type Check } from "../check.ts";
import { accepted } from "../http.ts";
import { validRequests } from "../requests.ts";
import { conditionsOf } from "../../contract/retry-after.ts";
import type { Session } from "../session.ts";

const GROUP = "uploads-window";

const uploadsOp = (session: Session) =>
  session.selected().find((op) => op.facts.operationId === session.contract.model.limits.uploads.operationId);

/** When each accepted upload of a run was sent and answered. */
const acceptedAt = new WeakMap<Session, Array<{ sentAt: number; receivedAt: number }>>();

export const uploadsWindow: Check = {
  group: GROUP,
  rules: {
    "{count} uploads per {seconds} s are accepted, the next is refused": ["limits.uploads", "routes.uploads"],
    "the uploads 429 carries Retry-After": ["limits.uploads"],
  },
  summary:
    "With uploadRequest: the description's number of uploads per window is accepted, and the next is refused with the rate-limited 429 and Retry-After.",
  blockedBy: needing(
    {
      stateful: true,
      declared: [{ field: "uploadRequest", gives: "the body of an upload, whose shape is not shown" }],
    },
    (session) => (uploadsOp(session) ? null : "the target does not implement the uploads route"),
  ),
  observe(session, { client, op, exchange }) {
    // The window is the account's: only the main key's uploads count (every other declared key is another account's).
    if (op === uploadsOp(session) && accepted(exchange) && client === session.main)
      acceptedAt.set(session, [
        ...(acceptedAt.get(session) ?? []),
        { sentAt: exchange.sentAt, receivedAt: exchange.receivedAt },
      ]);
  },
  async run({ session, stage, status }) {
    await stage(STAGE.final);
    const op = uploadsOp(session)!;
    const { perAccount, windowSeconds } = session.contract.model.limits.uploads;
    const request = validRequests(session, op, session.main)[0]!;
    const windowMs = windowSeconds * 1000;
    // The run's uploads before this check's (its own are recorded too as they are answered).
    const before = [...(acceptedAt.get(session) ?? [])];
    const allowed = perAccount - before.filter((upload) => upload.receivedAt > Date.now() - windowMs).length;
    let sent = 0;
    for (;;) {
      status(`upload ${sent + 1} of ${allowed + 1}`);
      const exchange = await session.main.send(op, request.spec, { positive: true, expectTooMany: true });
      sent++;
      // An earlier upload may leave the rolling window while the check sends: the target counts at
      // most those answered within a window of this one's sending, and at least those also sent
      // within a window of its answer.
      const most = before.filter((upload) => upload.receivedAt > exchange.sentAt - windowMs);
      const least = most.filter((upload) => upload.sentAt > exchange.receivedAt - windowMs).length;
      const earlier = least === most.length ? `${least}` : `${least} to ${most.length}`;
      const curl = session.curl(request.spec);
      if (accepted(exchange) && sent <= perAccount - least) continue;
      const refused = exchange.status === 429 && conditionsOf(session.contract, exchange.json).has("rate-limited");
      const name = `${perAccount} uploads per ${windowSeconds} s are accepted, the next is refused`;
      const problems =
        !accepted(exchange) && sent <= perAccount - most.length
          ? [
              `upload ${sent} (with ${earlier} earlier in the window) answered ${exchange.status}: ${exchange.text.slice(0, 200)}`,
            ]
          : refused
            ? []
            : [
                `upload ${sent} (with ${earlier} earlier in the window) answered ${exchange.status}, not the rate-limited 429`,
              ];
      session.results.expect(GROUP, op.route, name, problems, curl);
      if (refused) {
        const retryAfter = exchange.headers.get(session.contract.model.retryAfterHeader);
        session.results.expect(
          GROUP,
          op.route,
          "the uploads 429 carries Retry-After",
          retryAfter === null ? ["no Retry-After"] : [],
          curl,
        );
      }
      return;
    }
  },
};
