/**
 * The mock's selectable error cases: every named example of every documented error response is
 * served when asked for with Prism's `Prefer: code=..., example=...` header, and the description's
 * examples agree with each other (a 429 that names its seconds in the body sends the same
 * Retry-After).
 */
import { isDeepStrictEqual } from "node:util";
import { preferSelection } from "../../model/prefer-selections.ts";
import { needing, type Check } from "../check.ts";
import { numericHeader } from "../client.ts";
import { validRequests } from "../requests.ts";
import { responseProblems } from "../response-check.ts";
import { retryAfterFor } from "../../contract/retry-after.ts";

const GROUP = "error-examples";

export const errorExamples: Check = {
  group: GROUP,
  // The description's own examples, served by the mock: no rule of the specification is at stake.
  rules: { '{status} example "{name}" selectable': [] },
  summary:
    "Only where Prism's `Prefer` header is honoured (the mock): every named error example is served as it is, and the examples agree with each other.",
  blockedBy: needing({
    declared: [
      { field: "selectableExamples", gives: "the target honours Prism's Prefer header, as only the mock does" },
    ],
  }),
  async run({ session }) {
    const { contract } = session;
    const sends = session.selected().flatMap((op) => {
      const valid = validRequests(session, op, session.main)[0];
      if (!valid) return [];
      return Object.entries(op.responses)
        .filter(([status]) => !status.startsWith("2"))
        .flatMap(([status, response]) =>
          contract.responseExamples(response).map(async (example) => {
            const spec = {
              ...valid.spec,
              headers: { ...valid.spec.headers, prefer: preferSelection(status, example.name) },
            };
            const exchange = await session.main.send(op, spec, {
              positive: true,
              // Stryker disable next-line BooleanLiteral: a request with a Prefer header is never resent (Client.send returns a selected 429 as it is), so false is the same
              expectTooMany: true,
            });
            const seconds = retryAfterFor(contract, example.value).matching.find(
              (variant) => variant.secondsField,
            )?.secondsField;
            const inBody = seconds ? (example.value as Record<string, unknown>)[seconds] : undefined;
            const header = numericHeader(exchange, contract.model.retryAfterHeader);
            const problems = [
              ...(String(exchange.status) === status ? [] : [`answered ${exchange.status}, not ${status}`]),
              ...(isDeepStrictEqual(exchange.json, example.value)
                ? []
                : [`body is not the example "${example.name}": ${exchange.text.slice(0, 200)}`]),
              ...(inBody === undefined || header === null || header === inBody
                ? []
                : [`Retry-After is ${header} beside ${seconds}: ${String(inBody)} in the example`]),
              ...responseProblems(contract, op, exchange),
            ];
            session.results.expect(
              GROUP,
              op.route,
              `${status} example "${example.name}" selectable`,
              problems,
              session.curl(spec),
            );
          }),
        );
    });
    await Promise.all(sends);
  },
};
