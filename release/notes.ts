/**
 * A release's notes, written for the developer whose code calls the service: what the release means
 * for their code (its bump), then each breaking change with what to do and why it was accepted, the
 * compatible ones, and the models, prices and limits that changed, all in the terms of the reference
 * docs (area, route and its title, field, value). Rendered from the release's record alone: no
 * repository path, no instruction for the maintainers (those go to the release's terminal output).
 */
import type { ReportedChange } from "../changes/acknowledgements.ts";
import type { RouteTitle } from "../changes/compare.ts";
import { TOPIC_TITLES, type Topic } from "../changes/domain-changelog.ts";
import { ACROSS_AREAS, areaOf, WHOLE_DESCRIPTION } from "../changes/render-markdown.ts";
import { whatToDo } from "../changes/what-to-do.ts";
import type { ReleaseRecord } from "./records.ts";

const SHOWN_ROUTES = 3;

/** `one breaking change`, `2 breaking changes`. */
export const count = (n: number, noun: string, plural = `${noun}s`): string =>
  n === 1 ? `one ${noun}` : `${n} ${plural}`;

const quoted = (text: string): string => `\`${text}\``;

/** Where a change is, in the docs' terms: the field, parameter, header or schema, without the route the bullet names. */
function part(rest: string): string {
  const patterns: Array<[RegExp, (...parts: string[]) => string]> = [
    [
      /^request body(?: (\S+\/\S+))?\.(.+)$/,
      (type, field) => `request field ${quoted(field!)}${type ? ` (${type})` : ""}`,
    ],
    [/^request body(?: (\S+\/\S+))?$/, (type) => `request body${type ? ` (${type})` : ""}`],
    [
      /^response (\S+) body(?: (\S+\/\S+))?\.(.+)$/,
      (status, type, field) => `field ${quoted(field!)} of the ${status} answer${type ? ` (${type})` : ""}`,
    ],
    [
      /^response (\S+) body(?: (\S+\/\S+))?$/,
      (status, type) => `the ${status} answer's body${type ? ` (${type})` : ""}`,
    ],
    [/^response (\S+) header (.+)$/, (status, header) => `header ${quoted(header!)} of the ${status} answer`],
    [/^response (\S+)$/, (status) => `the ${status} answer`],
    [/^(path|query|header|cookie) parameter (\S+)$/, (place, name) => `${place} parameter ${quoted(name!)}`],
    [/^schema ([^.\s]+)\.(.+)$/, (schema, field) => `field ${quoted(field!)} of ${quoted(schema!)}`],
    [/^schema ([^.\s]+)$/, (schema) => `${quoted(schema!)}`],
    [/^description$/, () => "the description as a whole"],
  ];
  for (const [pattern, say] of patterns) {
    const match = pattern.exec(rest);
    if (match) return say(...match.slice(1).map((group) => group ?? ""));
  }
  return quoted(rest);
}

const routeName = (route: string, titles: Readonly<Record<string, RouteTitle>>): string =>
  `${quoted(route)}${titles[route]?.title ? ` — ${titles[route]!.title}` : ""}`;

/** One bullet: the route or the routes using it, the part that changed, what changed; for a breaking change what to do and why. */
function bullet(change: ReportedChange, titles: Readonly<Record<string, RouteTitle>>): string {
  const says = change.message.slice(change.location.length + 2);
  const route = change.routes.find((candidate) => change.location.startsWith(candidate));
  const rest = route === undefined ? change.location : change.location.slice(route.length).trim();
  const shown = change.routes.slice(0, SHOWN_ROUTES).map(quoted).join(", ");
  const more = change.routes.length > SHOWN_ROUTES ? ` and ${change.routes.length - SHOWN_ROUTES} more` : "";
  const only = change.routes.length === 1 ? change.routes[0]! : undefined;
  const lead =
    only !== undefined
      ? `${routeName(only, titles)}${rest ? `; ${part(rest)}` : ""}`
      : `${part(rest)}${change.routes.length ? ` (in ${shown}${more})` : ""}`;
  const must = change.severity === "breaking" ? ` **What to do:** ${whatToDo(change)}` : "";
  const why = change.acknowledged !== undefined ? ` **Why:** ${change.acknowledged}` : "";
  return `- ${lead}: ${says.endsWith(".") ? says : `${says}.`}${must}${why}`;
}

/** Changes under a heading per area, the areas in alphabetical order after the description as a whole and changes across areas. */
function byArea(changes: readonly ReportedChange[], titles: Readonly<Record<string, RouteTitle>>): string[] {
  const groups = new Map<string, string[]>();
  for (const change of changes)
    groups.set(areaOf(change, titles), [...(groups.get(areaOf(change, titles)) ?? []), bullet(change, titles)]);
  const first = [WHOLE_DESCRIPTION, ACROSS_AREAS];
  const order = (area: string): number => (first.includes(area) ? first.indexOf(area) : first.length);
  return [...groups.keys()]
    .sort((a, b) => order(a) - order(b) || a.localeCompare(b))
    .flatMap((area) => [`#### ${area}`, "", ...groups.get(area)!, ""]);
}

/** What the release means for code written against the one before. */
function lead(record: ReleaseRecord, breaking: number): string {
  if (record.version === null) return "The description published before the packages' first release.";
  // A first release has no package release before it: what it is compared with, if anything, is a
  // description released before the packages, named by its interface version (which may look like a semver).
  if (record.bump === "first") {
    const told = record.changes.length > 0 || record.changelog.length > 0;
    if (record.comparedWith === null || !told) return "The first release of the packages.";
    return `The first release of the packages. Since the description published as interface version ${quoted(record.comparedWith)}:`;
  }
  if (record.bump === "major")
    return `**A major release:** ${count(breaking, "breaking change")} for code written against ${record.comparedWith}; each says what to do.`;
  if (record.bump === "minor")
    return `A minor release: additions and compatible changes only; code written against ${record.comparedWith} keeps working.`;
  return `A patch release: descriptions, examples and documentation only; nothing changes for your code.`;
}

/** The notes of one release, as a section of a changelog (`## 2.0.0`). */
export function releaseNotes(record: ReleaseRecord): string {
  const titles = record.routeTitles;
  const breaking = record.changes.filter((change) => change.severity === "breaking");
  // A new model is told once, by its changelog line (route and price); a retired one by its breaking change;
  // a moved one (its old route removed, its new one added) by its changelog line, which says where it went.
  const modelsOf = (rule: string): Array<string | undefined> =>
    record.changes.filter((change) => change.rule === rule && change.detail).map((change) => change.detail);
  const added = new Set(modelsOf("route-added"));
  const retired = new Set(modelsOf("route-removed").filter((model) => !added.has(model)));
  const newModels = new Set(record.changelog.filter((entry) => entry.topic === "models").map((entry) => entry.subject));
  const compatible = record.changes.filter(
    (change) =>
      change.severity === "compatible" && !(change.rule === "route-added" && newModels.has(change.detail ?? "")),
  );
  // The interface version is the section's own line.
  const changelog = record.changelog.filter(
    (entry) => entry.topic !== "version" && !(entry.topic === "models" && retired.has(entry.subject)),
  );
  const was = /^Interface version (.+) → /.exec(
    record.changelog.find((entry) => entry.topic === "version")?.line ?? "",
  )?.[1];
  const lines = [
    record.version === null ? `## Interface version ${record.interfaceVersion}` : `## ${record.version}`,
    "",
    ...(record.version === null
      ? []
      : [
          `Interface version ${was === undefined ? "" : `${quoted(was)} → `}${quoted(record.interfaceVersion)} (the client's \`apiVersion\`).`,
          "",
        ]),
    lead(record, breaking.length),
    "",
  ];
  if (breaking.length) lines.push("### Breaking changes", "", ...byArea(breaking, titles));
  if (compatible.length) lines.push("### Compatible changes", "", ...byArea(compatible, titles));
  if (changelog.length) {
    lines.push("### Models, prices and limits", "");
    for (const topic of Object.keys(TOPIC_TITLES) as Topic[]) {
      const entries = changelog.filter((entry) => entry.topic === topic);
      if (entries.length)
        lines.push(`#### ${TOPIC_TITLES[topic]}`, "", ...entries.map((entry) => `- ${entry.line}`), "");
    }
  }
  return lines.join("\n");
}
