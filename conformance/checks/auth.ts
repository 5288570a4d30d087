/** No credentials, a malformed Authorization header, or (where the target checks keys) an unknown key must give 401 and the error body. */
import type { Check } from "../check.ts";
import type { ContractOperation } from "../../contract/contract.ts";
import { sendInvalid, validRequests } from "../requests.ts";
import { responseProblems } from "../response-check.ts";
import type { Session } from "../session.ts";
import { unstatedRoute } from "../unstated.ts";

const GROUP = "auth";

const CASES: Array<{ name: string; headers: Record<string, string>; needsKeyCheck: boolean }> = [
  { name: "no Authorization header", headers: {}, needsKeyCheck: false },
  {
    name: "malformed Authorization header (Basic scheme)",
    headers: { authorization: "Basic dXNlcjpwYXNz" },
    needsKeyCheck: false,
  },
  {
    name: "malformed Authorization header (Bearer without a token)",
    headers: { authorization: "Bearer" },
    needsKeyCheck: false,
  },
  { name: "unknown bearer key", headers: { authorization: "Bearer conformance-unknown-key" }, needsKeyCheck: true },
];

/**
 * The operation demands credentials: its security (else the document's) lists alternatives, and
 * none of them is the empty requirement `{}`, which makes credentials optional (OpenAPI's Security
 * Requirement Object); an empty list, or none, demands nothing.
 */
function secured(session: Session, op: ContractOperation): boolean {
  const security = op.operation.security ?? session.contract.doc.security;
  return (
    Array.isArray(security) &&
    security.length > 0 &&
    security.every((requirement) => Object.keys(requirement).length > 0)
  );
}

export const auth: Check = {
  group: GROUP,
  rules: {
    "401 for {case}": [
      "auth.401",
      "errors.401",
      "auth.bearer-on-every-request",
      "auth.http-bearer",
      "resources.error-body.shape",
      "errors.error-body",
    ],
  },
  summary:
    "No key, a malformed Authorization header and (where the target checks keys) an unknown key get 401 with the error body, on every operation.",
  async run({ session }) {
    const client = session.main;
    const sends = session.selected().flatMap((op) => {
      const valid = validRequests(session, op, client)[0];
      if (!secured(session, op) || !valid) return [];
      return CASES.map(async (testCase) => {
        const name = `401 for ${testCase.name}`;
        if (testCase.needsKeyCheck && !session.config.checksApiKey) {
          session.results.skip(
            GROUP,
            op.route,
            name,
            "the target accepts any bearer token (Prism checks only the scheme)",
          );
          return;
        }
        const spec = { ...valid.spec, headers: testCase.headers };
        const exchange = await sendInvalid(session, client, op, spec);
        const unstated = unstatedRoute(op, session.config.describedShapes);
        if (exchange.status === 404 && unstated) {
          session.results.skip(
            GROUP,
            op.route,
            name,
            `the target answered 404, which the description allows: ${unstated}`,
          );
          return;
        }
        const problems =
          exchange.status === 401
            ? responseProblems(session.contract, op, exchange)
            : [`answered ${exchange.status}, not 401`];
        session.results.expect(GROUP, op.route, name, problems, session.curl(spec));
      });
    });
    await Promise.all(sends);
  },
};
