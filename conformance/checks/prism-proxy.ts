/** Prism's own findings as a validation proxy (the `sl-violations` header), reported beside the suite's. */
import type { Check } from "../check.ts";

const GROUP = "prism-proxy";

export const prismProxy: Check = {
  group: GROUP,
  // Prism's verdicts are about the description's schemas as a whole, each rule of which others name.
  rules: { "Prism proxy: {exchange}": [] },
  summary:
    "With CONFORMANCE_PROXY=on: Prism, as a validation proxy in front of the target, finds no violation in the requests the description holds valid and their responses.",
  blockedBy: (session) =>
    session.proxied
      ? null
      : "no proxy runs in front of this target (the mock is Prism itself; CONFORMANCE_PROXY=on starts one before a target)",
  observe(session, { op, exchange, options }) {
    // Only requests the description holds valid go through the proxy.
    if (!session.proxied || !options.positive) return;
    const name = `Prism proxy: ${exchange.request.method.toUpperCase()} ${exchange.request.path} -> ${exchange.status}`;
    session.results.expect(
      GROUP,
      op.route,
      name,
      exchange.violations.map(
        (violation) => `${violation.location.join(".")}: ${violation.message} [${violation.code}]`,
      ),
      session.curl(exchange.request),
    );
  },
};
