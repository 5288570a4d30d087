/**
 * The mock's selectable error cases: every named example of every documented error response is
 * served when asked for with Prism's `Prefer: code=..., example=...` header.
 */
import { isDeepStrictEqual } from "node:util";
import { responseProblems } from "../response-check.ts";
import type { Session } from "../session.ts";
import { validRequests } from "./operations.ts";

export const GROUP = "error-examples";

export async function checkErrorExamples(session: Session): Promise<void> {
  if (!session.config.selectableExamples) {
    session.results.skip(GROUP, "*", "error examples selectable with Prefer", "the target does not honour Prism's Prefer header (only the mock does)");
    return;
  }
  for (const op of session.selected()) {
    const valid = validRequests(session, op)[0];
    if (!valid) continue;
    for (const [status, response] of Object.entries(op.responses)) {
      if (status.startsWith("2")) continue;
      for (const example of session.contract.responseExamples(response)) {
        const spec = { ...valid.spec, headers: { ...valid.spec.headers, prefer: `code=${status}, example=${example.name}` } };
        const exchange = await session.call(op, spec, true);
        const problems = [
          ...(String(exchange.status) === status ? [] : [`answered ${exchange.status}, not ${status}`]),
          ...(isDeepStrictEqual(exchange.json, example.value) ? [] : [`body is not the example "${example.name}": ${exchange.text.slice(0, 200)}`]),
          ...responseProblems(session.contract, op, exchange),
        ];
        session.results.expect(GROUP, op.route, `${status} example "${example.name}" selectable`, problems, session.curl(spec));
      }
    }
  }
}
