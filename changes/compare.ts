/** Compares two descriptions: the changes for client code and the changelog for readers. */
import { HTTP_METHODS, type OpenApiDocument } from "../model/document.ts";
import { ChangeCollector, type Change } from "./change.ts";
import { hasCounterpart } from "./counterpart.ts";
import { domainChangelog, type ChangelogEntry } from "./domain-changelog.ts";
import { domainFacts, type DomainFacts } from "./domain-facts.ts";
import { compareRoutes, templateKey } from "./operation-diff.ts";

/** One side of a comparison: a description and where it came from (a file, `REF:path`, a release). */
export interface Side {
  readonly source: string;
  readonly doc: OpenApiDocument;
}

export interface Comparison {
  readonly before: { readonly source: string; readonly version: string };
  readonly after: { readonly source: string; readonly version: string };
  readonly changes: readonly Change[];
  readonly changelog: readonly ChangelogEntry[];
  /** Each route of either side (`POST /v1/images/i-a`) with its area and title as the reference docs name them (its tag and summary). */
  readonly routeTitles?: Readonly<Record<string, RouteTitle>>;
}

export interface RouteTitle {
  readonly area: string;
  readonly title: string;
}

/** The reference docs' words for every route: the tag is its section, the summary its heading; the newer side wins. */
function routeTitles(...docs: OpenApiDocument[]): Record<string, RouteTitle> {
  const titles: Record<string, RouteTitle> = {};
  for (const doc of docs) {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of HTTP_METHODS) {
        const operation = item[method] as { tags?: string[]; summary?: string } | undefined;
        if (operation)
          titles[`${method.toUpperCase()} ${path}`] = {
            area: operation.tags?.[0] ?? "Other routes",
            title: operation.summary ?? "",
          };
      }
    }
  }
  return titles;
}

/** The side's domain facts, or why the service model cannot read it. */
function factsOf(side: Side): DomainFacts | { unreadable: string } {
  try {
    return domainFacts(side.doc);
  } catch (error) {
    return { unreadable: ((error as Error).message.trim().split("\n")[0] ?? "").replace(/^service model:\s*/, "") };
  }
}

/** Facts with the version alone: where one side cannot be read, its models and prices are not known, so none are compared. */
const versionOnly = (doc: Side["doc"]): DomainFacts => ({
  version: doc.info.version,
  models: [],
  prices: {},
  limits: {} as DomainFacts["limits"],
  polling: {},
  freePlan: [],
  notShown: [],
});

/** `doc` with each path spelled as `like` spells the same URLs: `/v1/images/{job_id}` → `/v1/images/{id}`. */
function withTemplatesOf(doc: OpenApiDocument, like: OpenApiDocument): OpenApiDocument {
  const spelled = new Map(Object.keys(like.paths).map((path) => [templateKey(path), path]));
  return {
    ...doc,
    paths: Object.fromEntries(
      Object.entries(doc.paths).map(([path, item]) => [spelled.get(templateKey(path)) ?? path, item]),
    ),
  };
}

/**
 * Compares two valid OpenAPI 3.1 descriptions. What the service model cannot read (a 429 without
 * Retry-After, a limit without its variant) is itself a change for clients, reported beside what
 * the routes show, never a refusal: it is the change a client most needs to hear about.
 */
export function compareDescriptions(before: Side, after: Side): Comparison {
  const read = { before: factsOf(before), after: factsOf(after) };
  // A renamed path parameter leaves the URLs as they were (path-template-changed says what it does to
  // typed code); the service model reads only the templates it knows, so read the newer side as the
  // older one spells its paths before calling it unreadable.
  if ("unreadable" in read.after && !("unreadable" in read.before)) {
    const respelled = factsOf({ ...after, doc: withTemplatesOf(after.doc, before.doc) });
    if (!("unreadable" in respelled)) read.after = respelled;
  }
  const readable = !("unreadable" in read.before) && !("unreadable" in read.after);
  const facts = readable
    ? (read as { before: DomainFacts; after: DomainFacts })
    : { before: versionOnly(before.doc), after: versionOnly(after.doc) };
  const models = new Map(
    [read.before, read.after]
      .flatMap((side) => ("unreadable" in side ? [] : side.models))
      .map((model) => [model.route, model.label]),
  );
  const collector = new ChangeCollector();
  compareRoutes({ before: before.doc, after: after.doc }, collector, (route) => models.get(route));
  if (
    "unreadable" in read.after &&
    !("unreadable" in read.before && read.before.unreadable === read.after.unreadable)
  ) {
    collector.report({ rule: "service-model-unreadable", location: "description", detail: read.after.unreadable });
  } else if ("unreadable" in read.before && !("unreadable" in read.after)) {
    collector.report({ rule: "service-model-readable", location: "description", detail: read.before.unreadable });
  }
  return {
    before: { source: before.source, version: facts.before.version },
    after: { source: after.source, version: facts.after.version },
    changes: collector.changes(),
    changelog: domainChangelog(facts.before, facts.after, (pointer, side) =>
      side === "before"
        ? hasCounterpart(before.doc, after.doc, pointer)
        : hasCounterpart(after.doc, before.doc, pointer),
    ),
    routeTitles: routeTitles(before.doc, after.doc),
  };
}
