/**
 * Every answered stock search holds at most the page size the description states, and each of its
 * results carries its credit line (`attribution.text` and `attribution.html`). The page's envelope
 * is not shown, so a result is known by what the specification says each carries: the results are
 * the objects with an `attribution`, wherever the page holds them. Sends nothing of its own: it reads
 * the searches the other checks send. The stock searches are the Free plan's operations (the
 * specification's words: "keys may call only the stock searches").
 */
import type { Check } from "../check.ts";
import type { ContractOperation } from "../../contract/contract.ts";
import type { Exchange } from "../http.ts";
import type { Session } from "../session.ts";

const GROUP = "stock-results";

/** The arrays of a JSON value whose items are objects, each with an `attribution`. */
function resultLists(value: unknown): unknown[][] {
  if (Array.isArray(value)) {
    const own =
      value.length > 0 && value.every((item) => typeof item === "object" && item !== null && "attribution" in item)
        ? [value]
        : [];
    return [...own, ...value.flatMap(resultLists)];
  }
  return typeof value === "object" && value !== null ? Object.values(value).flatMap(resultLists) : [];
}

/**
 * Per run and route: the problems seen on the answered pages that held results, none where every
 * such page kept the rules; a route none of whose pages held results is absent.
 */
const seen = new WeakMap<Session, Map<ContractOperation, string[]>>();

/** The problems of one answered page, or undefined when it holds no results to judge (an empty page is lawful). */
function judge(session: Session, exchange: Exchange): string[] | undefined {
  const perPage = session.contract.model.limits.stockResultsPerPage;
  const lists = resultLists(exchange.json);
  if (lists.length === 0) return undefined;
  return lists.flatMap((list) => [
    ...(list.length > perPage ? [`a page of ${list.length} results, more than ${perPage}`] : []),
    ...list.flatMap((result, index) => {
      const attribution = (result as { attribution?: unknown }).attribution as Record<string, unknown> | null;
      const missing = ["text", "html"].filter((part) => typeof attribution?.[part] !== "string");
      return missing.length ? [`result ${index + 1} has no attribution.${missing.join(" or attribution.")}`] : [];
    }),
  ]);
}

export const stockResults: Check = {
  group: GROUP,
  summary:
    "Every answered stock search holds at most the description's page size of results, each carrying attribution.text and attribution.html.",
  rules: {
    "a page holds at most {count} results, each with its credit line": [
      "limits.stock-page-size",
      "resources.stock-result.attribution",
      "route:routes.stock-*",
    ],
    "stock searches answered": [],
  },
  observe(session, { op, exchange }) {
    if (!op.facts.freePlan || exchange.status !== 200) return;
    const byRoute = seen.get(session) ?? new Map<ContractOperation, string[]>();
    seen.set(session, byRoute);
    const problems = judge(session, exchange);
    if (problems) byRoute.set(op, [...(byRoute.get(op) ?? []), ...problems]);
  },
  finish(session) {
    const byRoute = seen.get(session);
    if (!byRoute)
      return void session.results.skip(
        GROUP,
        "*",
        "stock searches answered",
        "no stock search was answered 200 in this run",
      );
    const name = `a page holds at most ${session.contract.model.limits.stockResultsPerPage} results, each with its credit line`;
    for (const [op, problems] of byRoute)
      session.results.expect(GROUP, op.route, name, [...new Set(problems)].slice(0, 5));
    for (const op of session.contract.operations.filter(
      (candidate) => candidate.facts.freePlan && !byRoute.has(candidate),
    ))
      session.results.skip(
        GROUP,
        op.route,
        name,
        "no answered page held results: an empty page is lawful, and the result list's shape is not shown",
      );
  },
};
