/**
 * The coverage phase of the near-miss negatives: before the seeded cases, every near-miss kind
 * once per field (plan.ts, `coverage`), each sent as the static negatives are (sendInvalid) and
 * required to be refused with 400 and the error body. Each one accepted is a failure of its own,
 * naming the kind, the field and the value; no seed is needed to repeat them.
 */
import { requestPath } from "../../contract/contract.ts";
import type { RequestSpec } from "../http.ts";
import { sendInvalid } from "../requests.ts";
import type { Session } from "../session.ts";
import type { OperationPlan } from "./plan.ts";
import { negativeProblems } from "./verdicts.ts";

/** Sends the operation's coverage cases one after another; records a failure for each one not refused, or one pass. */
export async function sendCoverage(session: Session, group: string, operation: OperationPlan): Promise<void> {
  const { op, coverage } = operation;
  if (coverage.length === 0) return;
  const client = session.negatives;
  const path = requestPath(session.contract, op);
  let failed = 0;
  for (const negative of coverage) {
    const spec: RequestSpec = { method: op.method, path, headers: client.authorized(), body: negative.body };
    const exchange = await sendInvalid(session, client, op, spec);
    const problems = negativeProblems(session, op, exchange);
    if (problems.length === 0) continue;
    failed++;
    session.results.fail(
      group,
      op.route,
      `near-miss negative refused: ${negative.miss.kind} (${negative.miss.fields.join(", ")})`,
      `${negative.miss.kind} ${negative.miss.rule}: ${problems.join("; ")}`,
      session.curl(exchange.request),
    );
  }
  if (failed === 0)
    session.results.pass(
      group,
      op.route,
      `near-miss negatives refused with 400: every kind once per field (${coverage.length} cases)`,
    );
}
