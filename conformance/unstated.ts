/**
 * What the description leaves unstated about a request, and so cannot promise a real implementation
 * accepts or rejects: a path that is not shown, a request shape that is not shown, fields beyond
 * the shown ones that may be required, and property names the specification only implies. A
 * request such a reason applies to is still sent; the suite demands nothing of the answer but a
 * documented status with a valid body, and reports the reason when the target refuses it. A target
 * that declares it takes requests as the description shapes them (`describedShapes`) has no such
 * reason: every function here then answers null.
 */
import type { JsonSchema } from "../model/document.ts";
import type { ContractOperation } from "../contract/contract.ts";

type NotShown = Record<string, string | undefined>;

const notShown = (node: object | undefined): NotShown =>
  ((node as Record<string, unknown> | undefined)?.["x-not-shown"] ?? {}) as NotShown;

/** The path is the operation's own: a target may serve the route elsewhere. */
function pathReason(op: ContractOperation): string | null {
  const path = notShown(op.operation).path;
  return path ? `the description does not show this route's path (${path})` : null;
}

/** Properties of the request schema whose names the specification only implies. */
function impliedNames(schema: JsonSchema | undefined): string[] {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties)
    .filter(([, property]) => typeof property["x-implied-name"] === "string")
    .map(([name]) => name);
}

/** Why a target may refuse `body`, a request the description holds valid; null where it must accept it. */
export function unstatedAcceptance(op: ContractOperation, body: unknown, described: boolean): string | null {
  if (described) return null;
  const path = pathReason(op);
  if (path) return path;
  const marks = notShown(op.requestSchema);
  if (marks["request-schema"]) return `the request's shape is not shown (${marks["request-schema"]})`;
  if (marks["request-fields"] && marks.requiredness)
    return `fields beyond the shown ones may be required (${marks["request-fields"]})`;
  const used =
    typeof body === "object" && body !== null ? impliedNames(op.requestSchema).filter((name) => name in body) : [];
  return used.length ? `it uses ${used.join(", ")}, whose names the specification only implies` : null;
}

/** Keywords the description adds to close a schema: the specification lists the fields, but never says a field beyond them is refused. */
const CLOSING_KEYWORDS = new Set(["additionalProperties", "unevaluatedProperties"]);

/**
 * Why a target may accept a body breaking a rule (`keyword`) on `field` (undefined: a rule of the
 * whole body); null where it must refuse it.
 */
export function unstatedRejection(
  op: ContractOperation,
  described: boolean,
  field: string | undefined,
  keyword?: string,
): string | null {
  if (described) return null;
  const path = pathReason(op);
  if (path) return path;
  if (keyword !== undefined && CLOSING_KEYWORDS.has(keyword)) {
    return "the specification lists this body's fields but does not say that a field beyond them is refused (an implementation may ignore it)";
  }
  return field !== undefined && impliedNames(op.requestSchema).includes(field)
    ? `the rule is on ${field}, whose name the specification only implies`
    : null;
}

/** Why a target may not answer this route at all (its path is not shown); null where it must. */
export function unstatedRoute(op: ContractOperation, described: boolean): string | null {
  return described ? null : pathReason(op);
}
