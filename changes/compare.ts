/** Compares two descriptions: the changes for client code and the changelog for readers. */
import type { OpenApiDocument } from "../model/document.ts";
import { ChangeCollector, type Change } from "./change.ts";
import { domainChangelog, type ChangelogEntry } from "./domain-changelog.ts";
import { domainFacts } from "./domain-facts.ts";
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

export function compareDescriptions(before: Side, after: Side): Comparison {
  const collector = new ChangeCollector();
  compareRoutes({ before: before.doc, after: after.doc }, collector);
  return {
    before: { source: before.source, version: before.doc.info.version },
    after: { source: after.source, version: after.doc.info.version },
    changes: collector.changes(),
    changelog: domainChangelog(domainFacts(before.doc), domainFacts(after.doc)),
  };
}
