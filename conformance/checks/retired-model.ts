/** A retired model, named by the declaration, answers 410 with the code the description gives (`model_retired`). */
import { needing, type Check } from "../check.ts";
import { sendInvalid, validRequests } from "../requests.ts";
import { responseProblems } from "../response-check.ts";
import type { Session } from "../session.ts";

const GROUP = "retired-model";

const retiredOp = (session: Session) =>
  session.selected().find((op) => op.create?.label === session.config.retiredModel?.model);

export const retiredModel: Check = {
  group: GROUP,
  rules: { "a retired model answers {status} {code}": ["errors.410-model-retired", "versioning.retired-410"] },
  summary: "With retiredModel: a create of that model answers 410 with the description's code.",
  blockedBy: needing({ declared: ["retiredModel"] }, (session) =>
    retiredOp(session) ? null : `the target does not implement ${session.config.retiredModel!.model}`,
  ),
  async run({ session }) {
    const op = retiredOp(session)!;
    const apiKey = session.config.retiredModel?.apiKey;
    const client = apiKey ? session.client(apiKey) : session.main;
    const request = validRequests(session, op, client)[0];
    if (!request) return;
    const exchange = await sendInvalid(session, client, op, request.spec);
    const { status, code } = session.contract.model.errors.retired;
    const actual = (exchange.json as { error?: { code?: unknown } } | undefined)?.error?.code;
    const problems =
      exchange.status === status
        ? [
            ...responseProblems(session.contract, op, exchange),
            ...(actual === code ? [] : [`error.code is ${JSON.stringify(actual)}, not ${code}`]),
          ]
        : [`answered ${exchange.status}, not ${status}: ${exchange.text.slice(0, 200)}`];
    session.results.expect(
      GROUP,
      op.route,
      `a retired model answers ${status} ${code}`,
      problems,
      session.curl(request.spec),
    );
  },
};
