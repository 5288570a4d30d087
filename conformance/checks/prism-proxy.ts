/** Prism's own findings as a validation proxy (the `sl-violations` header), reported beside ours. */
import type { ContractOperation } from "../contract.ts";
import type { Exchange } from "../http.ts";
import type { Session } from "../session.ts";

export const GROUP = "prism-proxy";

export function recordProxyViolations(session: Session, op: ContractOperation, exchange: Exchange, positive: boolean): void {
  if (!session.runs(GROUP)) return;
  // Request violations are expected for the suite's deliberately invalid requests.
  const relevant = exchange.violations.filter((violation) => violation.location[0] === "response" || positive);
  const name = `Prism proxy: ${exchange.request.method.toUpperCase()} ${exchange.request.path} -> ${exchange.status}`;
  session.results.expect(
    GROUP,
    op.route,
    name,
    relevant.map((violation) => `${violation.location.join(".")}: ${violation.message} [${violation.code}]`),
    session.curl(exchange.request),
  );
}

export function finishProxy(session: Session): void {
  if (!session.proxied) {
    session.results.skip(GROUP, "*", "Prism validation proxy", "no proxy runs in front of this target (the mock is Prism itself, or CONFORMANCE_PROXY=off)");
  } else if (!session.runs(GROUP)) {
    session.results.skip(GROUP, "*", "Prism validation proxy", "skipped by the target's declaration");
  }
}
