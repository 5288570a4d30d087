/** Negative cases: a body breaking exactly one constraint of the request schema must get 400 and the error body. */
import { requestPath } from "../contract.ts";
import { negativeCases } from "../negative-cases.ts";
import { responseProblems } from "../response-check.ts";
import type { Session } from "../session.ts";

export const GROUP = "request-validation";

export async function checkRequestValidation(session: Session): Promise<void> {
  for (const op of session.selected()) {
    if (!op.requestSchema) continue;
    if (!op.responses["400"]) {
      session.results.skip(GROUP, op.route, "invalid bodies rejected", "the description documents no 400 response for this operation");
      continue;
    }
    const set = negativeCases(op.requestSchema, op.requestExamples.map((example) => example.value), session.contract.registry);
    for (const { rule } of set.uncovered) {
      session.results.skip(GROUP, op.route, `rejects a body breaking ${rule}`, "no small edit of the examples breaks this constraint alone (it overlaps with other rules)");
    }
    const path = requestPath(session.contract, op);
    for (const negative of set.cases) {
      const spec = { method: op.method, path, headers: session.authorized(), body: negative.body };
      const exchange = await session.call(op, spec, false);
      const problems = exchange.status === 400 ? responseProblems(session.contract, op, exchange) : [`answered ${exchange.status}, not 400, to a body breaking this rule`];
      session.results.expect(GROUP, op.route, `rejects a body breaking ${negative.rule}`, problems, session.curl(spec));
    }
  }
}
