/**
 * Compares how each route is authenticated: the security schemes (a bearer token, an API key in a
 * header, ...) and each route's requirements (the operation's `security`, else the document's).
 * A client holds what one alternative of the old requirement asked for; the change breaks it when
 * no alternative of the new requirement is satisfied by that, or when a scheme it uses now works
 * differently.
 */
import type { OpenApiDocument, Operation } from "../model/document.ts";
import type { ChangeCollector } from "./change.ts";
import { canonical, isObject } from "./schema-shape.ts";

type Requirement = ReadonlyArray<ReadonlySet<string>>;

/** The alternatives of a route's requirement, each the set of scheme names it needs together; none: no authentication. */
function requirement(doc: OpenApiDocument, operation: Operation): Requirement {
  const own = (operation as { security?: unknown }).security;
  const listed = Array.isArray(own)
    ? own
    : Array.isArray((doc as { security?: unknown }).security)
      ? ((doc as { security?: unknown[] }).security as unknown[])
      : [];
  return listed.filter(isObject).map((alternative) => new Set(Object.keys(alternative)));
}

const shown = (required: Requirement): string =>
  required.length === 0
    ? "none"
    : required
        .map((alternative) => (alternative.size === 0 ? "none" : [...alternative].sort().join(" + ")))
        .join(" or ");

/** A scheme as a reader knows it: `HTTP bearer`, `API key in header X-API-Key`. */
function describeScheme(scheme: unknown): string {
  if (!isObject(scheme)) return "not defined";
  if (scheme.type === "http") return `HTTP ${String(scheme.scheme ?? "")}`.trim();
  if (scheme.type === "apiKey") return `API key in ${String(scheme.in)} ${String(scheme.name)}`;
  return String(scheme.type);
}

/** What makes a scheme work for a client: its descriptions and extensions are for readers. */
function mechanism(scheme: unknown): string {
  if (!isObject(scheme)) return "undefined";
  return canonical(
    Object.fromEntries(Object.entries(scheme).filter(([key]) => key !== "description" && !key.startsWith("x-"))),
  );
}

const schemes = (doc: OpenApiDocument): Record<string, unknown> => {
  const found = (doc.components as { securitySchemes?: unknown }).securitySchemes;
  return isObject(found) ? found : {};
};

/** Every scheme whose mechanism changed, by name, compared once. */
export function changedSchemes(before: OpenApiDocument, after: OpenApiDocument): Set<string> {
  const [from, to] = [schemes(before), schemes(after)];
  return new Set(Object.keys(from).filter((name) => name in to && mechanism(from[name]) !== mechanism(to[name])));
}

/**
 * Compares the route's authentication. Requirements inherited from the document on both sides are
 * reported once at `security`, with every route; an operation's own at its route.
 */
export function compareSecurity(
  sides: { before: OpenApiDocument; after: OpenApiDocument },
  collector: ChangeCollector,
  label: string,
  before: Operation,
  after: Operation,
  changed: ReadonlySet<string>,
): void {
  const [from, to] = [requirement(sides.before, before), requirement(sides.after, after)];
  const inherited = (operation: Operation): boolean => !Array.isArray((operation as { security?: unknown }).security);
  const location = inherited(before) && inherited(after) ? "security" : `${label} security`;
  // A client that satisfies an old alternative keeps working if some new alternative needs no more than it holds.
  const satisfiable = (held: ReadonlySet<string>): boolean =>
    to.length === 0 || to.some((alternative) => [...alternative].every((name) => held.has(name)));
  const stillWorks =
    from.length === 0 ? to.length === 0 || to.some((alternative) => alternative.size === 0) : from.every(satisfiable);
  if (shown(from) !== shown(to)) {
    collector.report({
      rule: stillWorks ? "security-requirement-relaxed" : "security-requirement-tightened",
      location,
      before: shown(from),
      after: shown(to),
    });
  }
  const used = new Set(
    to.flatMap((alternative) => [...alternative]).filter((name) => from.some((old) => old.has(name))),
  );
  for (const name of [...used].filter((scheme) => changed.has(scheme)).sort()) {
    collector.report({
      rule: "security-scheme-changed",
      location: `security scheme ${name}`,
      before: describeScheme(schemes(sides.before)[name]),
      after: describeScheme(schemes(sides.after)[name]),
    });
  }
}
