/** The report as JSON for CI: the sides, the counts, every change with its id and routes, and the changelog. */
import type { Report } from "./acknowledgements.ts";

/** Bumped when a field's meaning changes, so CI scripts can tell. */
const JSON_FORMAT_VERSION = 1;

export function renderJson(report: Report): string {
  const { before, after, summary, changes, changelog } = report;
  return `${JSON.stringify({ format: JSON_FORMAT_VERSION, before, after, summary, changes, changelog }, null, 2)}\n`;
}
