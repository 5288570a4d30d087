/**
 * Negative cases: a body breaking a constraint of the request schema must get 400 and the error
 * body. Each body breaks its constraint alone where a small edit of the examples can; otherwise it
 * breaks others too, and must be refused all the same.
 */
import type { Check } from "../check.ts";
import { requestPath, type ContractOperation } from "../../contract/contract.ts";
import type { NegativeCase } from "../../contract/bodies/negative-cases.ts";
import { sendInvalid } from "../requests.ts";
import { responseProblems } from "../response-check.ts";
import { unstatedRejection } from "../unstated.ts";

const GROUP = "request-validation";

/** A negative case's result: its name, and why a target may accept the body (null: it must refuse it). */
export function negativeResult(
  op: ContractOperation,
  negative: NegativeCase,
  described: boolean,
): { name: string; unstated: string | null } {
  return {
    name: `rejects a body breaking ${negative.rule}${negative.alsoBreaks ? ` (the body also breaks ${negative.alsoBreaks})` : ""}`,
    unstated: unstatedRejection(op, described, negative.constraint.instancePath[0], negative.constraint.keyword),
  };
}

export const requestValidation: Check = {
  group: GROUP,
  rules: {
    "invalid bodies rejected": ["route:*.body.*"],
    "rejects a body breaking {constraint}": [
      "route:*.body.*",
      "route:images.further.*",
      "route:videos.further.*",
      "route:audios.body",
      "route:video-upscales.body",
      "route:videos.v-b.length-limits",
      "route:images.i-b.no-high-tier",
      "route:videos.v-c.no-4k-video-edit",
      "route:images.i-c.no-sequences",
      "endpoints.enums-ranges-exact",
      "errors.400-model-not-available",
      "errors.error-body",
    ],
  },
  summary:
    "A body breaking each constraint of a request schema (alone where possible) is refused with 400 and the error body.",
  prepare(session) {
    for (const op of session.selected()) session.contract.negativeCases(op);
  },
  async run({ session }) {
    const client = session.negatives;
    const sends = session.selected().flatMap((op) => {
      if (!op.requestSchema) return [];
      if (!op.responses["400"]) {
        session.results.skip(
          GROUP,
          op.route,
          "invalid bodies rejected",
          "the description documents no 400 response for this operation",
        );
        return [];
      }
      const set = session.contract.negativeCases(op);
      for (const { rule } of set.uncovered)
        session.results.skip(
          GROUP,
          op.route,
          `rejects a body breaking ${rule}`,
          "no small edit of the examples breaks this constraint",
        );
      const path = requestPath(session.contract, op);
      return set.cases.map(async (negative) => {
        const spec = { method: op.method, path, headers: client.authorized(), body: negative.body };
        const exchange = await sendInvalid(session, client, op, spec);
        const { name, unstated } = negativeResult(op, negative, session.config.describedShapes);
        if (exchange.status !== 400 && unstated) {
          session.results.skip(
            GROUP,
            op.route,
            name,
            `the target answered ${exchange.status}, which the description allows: ${unstated}`,
          );
          return;
        }
        const problems =
          exchange.status === 400
            ? responseProblems(session.contract, op, exchange)
            : [`answered ${exchange.status}, not 400, to a body breaking this rule`];
        session.results.expect(GROUP, op.route, name, problems, session.curl(spec));
      });
    });
    await Promise.all(sends);
  },
};
