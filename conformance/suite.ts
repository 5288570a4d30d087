/** Runs the check groups against one target, in order, and reports skipped groups and operations openly. */
import { CHECK_GROUPS, type CheckGroup, type TargetConfig } from "./config.ts";
import type { Contract } from "./contract.ts";
import type { Transport } from "./http.ts";
import type { Results } from "./results.ts";
import { Session } from "./session.ts";
import { checkAuth } from "./checks/auth.ts";
import { checkErrorExamples } from "./checks/error-examples.ts";
import { checkLifecycle } from "./checks/lifecycle.ts";
import { checkOperations } from "./checks/operations.ts";
import { finishProxy } from "./checks/prism-proxy.ts";
import { rateLimitBurst } from "./checks/rate-limits.ts";
import { checkRequestValidation } from "./checks/request-validation.ts";

const RUNNERS: Partial<Record<CheckGroup, (session: Session) => Promise<void>>> = {
  operations: checkOperations,
  "request-validation": checkRequestValidation,
  auth: checkAuth,
  "error-examples": checkErrorExamples,
  lifecycle: checkLifecycle,
};

export async function runSuite(contract: Contract, config: TargetConfig, transport: Transport, proxied: boolean): Promise<Results> {
  const session = new Session(contract, config, transport, proxied);
  for (const op of contract.operations.filter((candidate) => !session.implements(candidate))) {
    session.results.skip("*", op.route, "all checks", `not implemented by the target (areas: ${config.areas?.join(", ") ?? "all"}; models: ${config.models?.join(", ") ?? "all"})`);
  }
  for (const group of CHECK_GROUPS) {
    if (!session.runs(group)) {
      session.results.skip(group, "*", `group ${group}`, "skipped by the target's declaration");
      continue;
    }
    await RUNNERS[group]?.(session);
  }
  // These two observe the whole run: 429s and proxy violations seen by every group.
  await rateLimitBurst(session);
  finishProxy(session);
  return session.results;
}
