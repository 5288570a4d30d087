/**
 * The acknowledgements file: each breaking change a release accepts, named by its id, with the
 * reason. Read strictly, so a typo cannot acknowledge nothing silently: every entry must name a
 * breaking change of the comparison it is applied to.
 *
 *   { "acknowledged": [ { "id": "response-enum-value-added@schema JobStatus=\"queued\"", "reason": "..." } ] }
 */
import { readFileSync } from "node:fs";
import type { Change } from "./change.ts";
import type { Comparison } from "./compare.ts";
import { JsonSyntaxError, parseJsonText } from "../tools/json-text.ts";
import { UsageError } from "../tools/command.ts";
import { isObject } from "./schema-shape.ts";
import { readSlugMap, slugMapFile } from "../model/slug-map.ts";

export interface Acknowledgement {
  readonly id: string;
  readonly reason: string;
}

export type ReportedChange = Change & { readonly acknowledged?: string };

export interface Report extends Comparison {
  readonly changes: readonly ReportedChange[];
  readonly summary: {
    readonly breaking: number;
    readonly acknowledged: number;
    readonly unacknowledged: number;
    readonly compatible: number;
  };
}

export const EMPTY_ACKNOWLEDGEMENTS = `${JSON.stringify({ acknowledged: [] }, null, 2)}\n`;

const KEYS = ["id", "reason"];

/** Reads and checks an acknowledgements file; errors name it as `label`. */
export function readAcknowledgements(file: string, label = file): Acknowledgement[] {
  let parsed: unknown;
  try {
    parsed = parseJsonText(readFileSync(file, "utf8"), label);
  } catch (error) {
    throw new UsageError(
      error instanceof JsonSyntaxError ? error.message : `${label}: not readable (${(error as Error).message})`,
    );
  }
  return parseAcknowledgements(parsed, label);
}

function parseAcknowledgements(parsed: unknown, file: string): Acknowledgement[] {
  if (!isObject(parsed) || !Array.isArray(parsed.acknowledged))
    throw new UsageError(`${file}: must be an object with an "acknowledged" array`);
  const extra = Object.keys(parsed).filter((key) => key !== "acknowledged");
  if (extra.length) throw new UsageError(`${file}: unknown key "${extra[0]}"; the file holds only "acknowledged"`);
  const seen = new Map<string, number>();
  return parsed.acknowledged.map((entry: unknown, index: number) => {
    const at = `${file}: acknowledged[${index}]`;
    if (!isObject(entry)) throw new UsageError(`${at} must be an object with "id" and "reason"`);
    const unknown = Object.keys(entry).find((key) => !KEYS.includes(key));
    if (unknown) throw new UsageError(`${at} has unknown key "${unknown}" (allowed: ${KEYS.join(", ")})`);
    if (typeof entry.id !== "string" || entry.id.trim() === "")
      throw new UsageError(`${at}.id must be a non-empty string, the id of a breaking change as the diff prints it`);
    if (typeof entry.reason !== "string" || entry.reason.trim() === "")
      throw new UsageError(`${at}.reason must be a non-empty string saying why the break is accepted`);
    const twice = seen.get(entry.id);
    if (twice !== undefined) throw new UsageError(`${at}.id repeats acknowledged[${twice}].id "${entry.id}"`);
    seen.set(entry.id, index);
    return { id: entry.id, reason: entry.reason };
  });
}

/**
 * An acknowledgement's id as this build names its change: acknowledgements are written against the
 * placeholder slugs, as releases are kept (changes/baseline.ts), and both sides of a comparison carry
 * the slug map in effect, so each route an id names goes through the same map.
 */
function slugMappedIds(): (id: string) => string {
  const map = readSlugMap(slugMapFile());
  if (Object.keys(map).length === 0) return (id) => id;
  // A route's last segment is its slug: the placeholder the map names becomes the real one.
  return (id) =>
    id.replace(
      /\b((?:GET|POST|PUT|PATCH|DELETE) \/[^\s"=]*\/)([a-z0-9][a-z0-9._-]*)(?=[\s"=]|$)/g,
      (whole, route: string, slug: string) => (map[slug] === undefined ? whole : `${route}${map[slug]}`),
    );
}

/** Marks the acknowledged breaking changes; an entry that names no breaking change of this comparison is an error. */
export function applyAcknowledgements(
  comparison: Comparison,
  acknowledgements: readonly Acknowledgement[],
  file = "acknowledgements",
): Report {
  const byId = new Map(comparison.changes.map((change) => [change.id, change]));
  const mapped = slugMappedIds();
  acknowledgements.forEach((entry, index) => {
    const change = byId.get(mapped(entry.id));
    const at = `${file}: acknowledged[${index}].id "${entry.id}"`;
    const between = `${comparison.before.source} and ${comparison.after.source}`;
    if (!change)
      throw new UsageError(`${at} names no change between ${between}; remove it or copy the id the diff prints`);
    if (change.severity !== "breaking")
      throw new UsageError(`${at} names a compatible change; only breaking changes are acknowledged`);
  });
  const reasons = new Map(acknowledgements.map((entry) => [mapped(entry.id), entry.reason]));
  const changes: ReportedChange[] = comparison.changes.map((change) => {
    const reason = reasons.get(change.id);
    return reason === undefined ? change : { ...change, acknowledged: reason };
  });
  const breaking = changes.filter((change) => change.severity === "breaking");
  const acknowledged = breaking.filter((change) => change.acknowledged !== undefined).length;
  return {
    ...comparison,
    changes,
    summary: {
      breaking: breaking.length,
      acknowledged,
      unacknowledged: breaking.length - acknowledged,
      compatible: changes.length - breaking.length,
    },
  };
}
