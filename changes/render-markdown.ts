/**
 * The diff's report in Markdown, for whoever reviews a change of the description: breaking changes
 * first, each with what a client must do, then compatible changes, both grouped by area and route
 * as the reference docs name them (tag and summary); then the changelog by topic. Each model is
 * named once; ids are left to the JSON report; sources are named by their file, not a local path.
 * (A release's notes, for client developers, are rendered from its record: release/notes.ts.)
 */
import { basename, isAbsolute } from "node:path";
import type { Report, ReportedChange } from "./acknowledgements.ts";
import type { RouteTitle } from "./compare.ts";
import { TOPIC_TITLES, type Topic } from "./domain-changelog.ts";
import { whatToDo } from "./what-to-do.ts";

const SHOWN_ROUTES = 3;
export const ACROSS_AREAS = "Across areas";
export const WHOLE_DESCRIPTION = "The whole description";

/** A side's source as a reader knows it: a file by its name (a local path means nothing to them), a release or git ref as given. */
const sourceName = (source: string): string => (isAbsolute(source) ? basename(source) : source);

/** The area of a change: the one area of all its routes, several areas, or none (the description as a whole). */
export function areaOf(change: ReportedChange, titles: Readonly<Record<string, RouteTitle>>): string {
  const areas = new Set(change.routes.map((route) => titles[route]?.area ?? "Other routes"));
  if (areas.size === 0) return WHOLE_DESCRIPTION;
  return areas.size === 1 ? [...areas][0]! : ACROSS_AREAS;
}

/** One bullet: where (without the route its heading already names), what changed, and for a breaking change what to do. */
function bullet(change: ReportedChange, route: string | undefined): string {
  const says = change.message.slice(change.location.length + 2);
  const where =
    route !== undefined && change.location.startsWith(route)
      ? change.location.slice(route.length).trim()
      : change.location;
  const routes =
    route !== undefined || change.routes.length === 0
      ? ""
      : ` (used by ${change.routes.length === 1 ? "" : `${change.routes.length} routes: `}${change.routes
          .slice(0, SHOWN_ROUTES)
          .map((used) => `\`${used}\``)
          .join(
            ", ",
          )}${change.routes.length > SHOWN_ROUTES ? ` and ${change.routes.length - SHOWN_ROUTES} more` : ""})`;
  const lead = where ? `\`${where}\`${routes}: ` : "";
  const must = change.severity === "breaking" ? ` **What to do:** ${whatToDo(change)}` : "";
  const acknowledged = change.acknowledged !== undefined ? ` *Accepted:* ${change.acknowledged}` : "";
  return `- ${lead}${says.endsWith(".") ? says : `${says}.`}${must}${acknowledged}`;
}

/** Changes grouped by area, then by route where a change reaches one route only. */
function grouped(
  changes: readonly ReportedChange[],
  titles: Readonly<Record<string, RouteTitle>>,
  heading: (depth: number, text: string) => string,
): string[] {
  const byArea = new Map<string, ReportedChange[]>();
  for (const change of changes) {
    const area = areaOf(change, titles);
    byArea.set(area, [...(byArea.get(area) ?? []), change]);
  }
  const order = (area: string): number => (area === WHOLE_DESCRIPTION ? 0 : area === ACROSS_AREAS ? 1 : 2);
  const lines: string[] = [];
  for (const area of [...byArea.keys()].sort((a, b) => order(a) - order(b) || a.localeCompare(b))) {
    lines.push(heading(2, area), "");
    const list = byArea.get(area)!;
    const shared = list.filter((change) => change.routes.length !== 1);
    if (shared.length) lines.push(...shared.map((change) => bullet(change, undefined)), "");
    const routes = [
      ...new Set(list.filter((change) => change.routes.length === 1).map((change) => change.routes[0]!)),
    ].sort();
    for (const route of routes) {
      const title = titles[route]?.title;
      lines.push(heading(3, `\`${route}\`${title ? ` — ${title}` : ""}`), "");
      lines.push(
        ...list
          .filter((change) => change.routes.length === 1 && change.routes[0] === route)
          .map((change) => bullet(change, route)),
        "",
      );
    }
  }
  return lines;
}

/** The report as Markdown; `level` is the heading level of its title, so a page can nest several reports. */
export function renderMarkdown(report: Report, level = 1): string {
  const heading = (depth: number, text: string): string => `${"#".repeat(level + depth)} ${text}`;
  const { summary, before, after } = report;
  const titles = report.routeTitles ?? {};
  const breaking = report.changes.filter((change) => change.severity === "breaking");
  // A new model is told once, by its changelog line (route and price); a retired one by its breaking change.
  const retired = new Set(
    breaking.filter((change) => change.rule === "route-removed" && change.detail).map((change) => change.detail),
  );
  const newModels = new Set(report.changelog.filter((entry) => entry.topic === "models").map((entry) => entry.subject));
  const compatible = report.changes.filter(
    (change) =>
      change.severity === "compatible" && !(change.rule === "route-added" && newModels.has(change.detail ?? "")),
  );
  const changelog = report.changelog.filter((entry) => !(entry.topic === "models" && retired.has(entry.subject)));
  const acknowledged = summary.acknowledged ? ` (${summary.acknowledged} accepted)` : "";
  const lines = [
    heading(
      0,
      before.version === after.version
        ? `Changes to version ${after.version}`
        : `Changes from ${before.version} to ${after.version}`,
    ),
    "",
    `Compared ${sourceName(before.source)} (version ${before.version}) with ${sourceName(after.source)} (version ${after.version}): ` +
      `**${summary.breaking} breaking**${acknowledged}, ${summary.compatible} compatible, ${report.changelog.length} changelog ${report.changelog.length === 1 ? "entry" : "entries"}.`,
    "",
  ];
  if (breaking.length) lines.push(heading(1, "Breaking changes"), "", ...grouped(breaking, titles, heading));
  if (compatible.length) lines.push(heading(1, "Compatible changes"), "", ...grouped(compatible, titles, heading));
  if (changelog.length) {
    lines.push(heading(1, "Changelog"), "");
    for (const topic of Object.keys(TOPIC_TITLES) as Topic[]) {
      const entries = changelog.filter((entry) => entry.topic === topic);
      if (entries.length)
        lines.push(heading(2, TOPIC_TITLES[topic]), "", ...entries.map((entry) => `- ${entry.line}`), "");
    }
  }
  if (!report.changes.length && !report.changelog.length) lines.push("No changes.", "");
  return lines.join("\n");
}
