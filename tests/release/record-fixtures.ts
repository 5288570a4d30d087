/** Release records for the release tests, as a release writes them (release/records.ts). */
import type { ReleaseRecord } from "../../release/records.ts";

/** The record of a description released before the packages (`releases/<interface version>/`): nothing compared, nothing to tell. */
export const releasedBefore = (interfaceVersion: string): ReleaseRecord => ({
  version: null,
  interfaceVersion,
  bump: null,
  comparedWith: null,
  changes: [],
  changelog: [],
  routeTitles: {},
});
