/** Compares two descriptions: the changes for client code and the changelog for readers. */
import type { OpenApiDocument } from "../model/document.ts";
import { ChangeCollector, type Change } from "./change.ts";
import { hasCounterpart } from "./counterpart.ts";
import { domainChangelog, type ChangelogEntry } from "./domain-changelog.ts";
import { domainFacts, type DomainFacts } from "./domain-facts.ts";
import { InputError } from "./input-error.ts";
import { compareRoutes } from "./operation-diff.ts";

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
}

/** The side's domain facts; a description the service model cannot read is bad input, named by its side. */
function factsOf(side: Side): DomainFacts {
  try {
    return domainFacts(side.doc);
  } catch (error) {
    throw new InputError(`${side.source}: the service model cannot read it: ${(error as Error).message}`);
  }
}

export function compareDescriptions(before: Side, after: Side): Comparison {
  const facts = { before: factsOf(before), after: factsOf(after) };
  const models = new Map([...facts.before.models, ...facts.after.models].map((model) => [model.route, model.label]));
  const collector = new ChangeCollector();
  compareRoutes({ before: before.doc, after: after.doc }, collector, (route) => models.get(route));
  return {
    before: { source: before.source, version: facts.before.version },
    after: { source: after.source, version: facts.after.version },
    changes: collector.changes(),
    changelog: domainChangelog(facts.before, facts.after, (pointer, side) =>
      side === "before" ? hasCounterpart(before.doc, after.doc, pointer) : hasCounterpart(after.doc, before.doc, pointer),
    ),
  };
}
