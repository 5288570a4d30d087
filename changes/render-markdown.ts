/** Release notes in Markdown: breaking changes with their ids, compatible changes, then the changelog by topic. */
import type { Report, ReportedChange } from "./acknowledgements.ts";
import { TOPIC_TITLES, type Topic } from "./domain-changelog.ts";

const SHOWN_ROUTES = 3;

/** The routes of a change in a shared component; nothing when the location already names its one route. */
function routesNote(change: ReportedChange): string {
  const { routes } = change;
  if (routes.length === 0 || (routes.length === 1 && change.location.startsWith(routes[0]!))) return "";
  const shown = routes.slice(0, SHOWN_ROUTES).map((route) => `\`${route}\``).join(", ");
  const more = routes.length > SHOWN_ROUTES ? ` and ${routes.length - SHOWN_ROUTES} more` : "";
  return ` — used by ${routes.length === 1 ? "" : `${routes.length} routes: `}${shown}${more}`;
}

function changeLine(change: ReportedChange): string {
  const breaking = change.severity === "breaking";
  const id = breaking ? ` · id \`${change.id}\`` : "";
  const acknowledged = change.acknowledged !== undefined ? ` · **acknowledged**: ${change.acknowledged}` : "";
  return `- ${change.message}${routesNote(change)}${id}${acknowledged}`;
}

/** The report as Markdown; `level` is the heading level of its title, so a page can nest several reports. */
export function renderMarkdown(report: Report, level = 1): string {
  const heading = (depth: number, text: string): string => `${"#".repeat(level + depth)} ${text}`;
  const { summary } = report;
  const breaking = report.changes.filter((change) => change.severity === "breaking");
  const compatible = report.changes.filter((change) => change.severity === "compatible");
  const acknowledged = summary.acknowledged ? ` (${summary.acknowledged} acknowledged)` : "";
  const lines = [
    heading(0, `Changes from ${report.before.version} to ${report.after.version}`),
    "",
    `Compared \`${report.before.source}\` with \`${report.after.source}\`: **${summary.breaking} breaking**${acknowledged}, ` +
      `${summary.compatible} compatible, ${report.changelog.length} changelog ${report.changelog.length === 1 ? "entry" : "entries"}.`,
    "",
  ];
  if (breaking.length) lines.push(heading(1, "Breaking changes"), "", ...breaking.map(changeLine), "");
  if (compatible.length) lines.push(heading(1, "Compatible changes"), "", ...compatible.map(changeLine), "");
  if (report.changelog.length) {
    lines.push(heading(1, "Changelog"), "");
    for (const topic of Object.keys(TOPIC_TITLES) as Topic[]) {
      const entries = report.changelog.filter((entry) => entry.topic === topic);
      if (entries.length) lines.push(heading(2, TOPIC_TITLES[topic]), "", ...entries.map((entry) => `- ${entry.line}`), "");
    }
  }
  if (!report.changes.length && !report.changelog.length) lines.push("No changes.", "");
  return lines.join("\n");
}
