/** Every operation: each named request example is accepted with a documented 2xx and a valid response. */
import { requestPath, type ContractOperation } from "../contract.ts";
import { responseProblems } from "../response-check.ts";
import type { Session } from "../session.ts";
import { linkedParameters } from "./lifecycle.ts";

export const GROUP = "operations";

export async function checkOperations(session: Session): Promise<void> {
  for (const op of session.selected()) {
    // A poll route needs the id of a job the target created: the lifecycle group follows the links.
    if (session.config.stateful && linkedParameters(session.contract, op).length > 0) {
      session.results.skip(GROUP, op.route, "valid request accepted", "needs a created job's id; checked by the lifecycle group through the links");
      continue;
    }
    for (const request of validRequests(session, op)) {
      const exchange = await session.call(op, request.spec, true);
      const problems = exchange.status >= 200 && exchange.status < 300 ? [] : [`a valid request answered ${exchange.status}: ${exchange.text.slice(0, 300)}`];
      session.results.expect(GROUP, op.route, `valid request ${request.name} accepted`, [...problems, ...responseProblems(session.contract, op, exchange)], session.curl(request.spec));
    }
  }
}

/** One request per named example (or one without a body when the operation takes none). */
export function validRequests(session: Session, op: ContractOperation): Array<{ name: string; spec: { method: string; path: string; headers: Record<string, string>; body?: unknown } }> {
  const path = requestPath(session.contract, op);
  const headers = session.authorized();
  if (!op.requestSchema) return [{ name: "(no body)", spec: { method: op.method, path, headers } }];
  if (op.requestExamples.length === 0) {
    session.results.skip(GROUP, op.route, "valid request accepted", "the description gives no named request example");
  }
  return op.requestExamples.map((example) => ({ name: `"${example.name}"`, spec: { method: op.method, path, headers, body: example.value } }));
}
