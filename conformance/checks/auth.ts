/** No credentials, a malformed Authorization header, or (where the target checks keys) an unknown key must give 401 and the error body. */
import type { ContractOperation } from "../contract.ts";
import { responseProblems } from "../response-check.ts";
import type { Session } from "../session.ts";
import { validRequests } from "./operations.ts";

export const GROUP = "auth";

const CASES: Array<{ name: string; headers: Record<string, string>; needsKeyCheck: boolean }> = [
  { name: "no Authorization header", headers: {}, needsKeyCheck: false },
  { name: "malformed Authorization header (Basic scheme)", headers: { authorization: "Basic dXNlcjpwYXNz" }, needsKeyCheck: false },
  { name: "malformed Authorization header (Bearer without a token)", headers: { authorization: "Bearer" }, needsKeyCheck: false },
  { name: "unknown bearer key", headers: { authorization: "Bearer conformance-unknown-key" }, needsKeyCheck: true },
];

function secured(session: Session, op: ContractOperation): boolean {
  const security = op.operation.security ?? session.contract.doc.security;
  return Array.isArray(security) && security.some((requirement) => Object.keys(requirement).length > 0);
}

export async function checkAuth(session: Session): Promise<void> {
  for (const op of session.selected()) {
    if (!secured(session, op)) continue;
    const valid = validRequests(session, op)[0];
    if (!valid) continue;
    for (const testCase of CASES) {
      if (testCase.needsKeyCheck && !session.config.checksApiKey) {
        session.results.skip(GROUP, op.route, `401 for ${testCase.name}`, "the target accepts any bearer token (Prism checks only the scheme)");
        continue;
      }
      const spec = { ...valid.spec, headers: testCase.headers };
      const exchange = await session.call(op, spec, false);
      const problems = exchange.status === 401 ? responseProblems(session.contract, op, exchange) : [`answered ${exchange.status}, not 401`];
      session.results.expect(GROUP, op.route, `401 for ${testCase.name}`, problems, session.curl(spec));
    }
  }
}
