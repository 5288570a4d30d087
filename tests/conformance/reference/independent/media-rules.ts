/**
 * The media rules of a create request that a schema cannot hold: the input forms each field takes
 * (x-media.forms), and the durations the server measures (each item within its range, lists within
 * their combined limit, limits that a mode tightens, an input plus an output length). A broken rule
 * is a 400 naming the field.
 */
import { measuredSeconds } from "./media.ts";

type Body = Record<string, unknown>;

interface MediaSpec {
  readonly kind: string;
  readonly forms?: readonly string[];
  readonly minDurationSeconds?: number;
  readonly maxDurationSeconds?: number;
  readonly maxCombinedDurationSeconds?: number;
  readonly maxTotalWithField?: { field: string; maxSeconds: number };
  readonly conditionalLimits?: readonly {
    when: { field: string; equals: unknown };
    limits: { maxDurationSeconds?: number };
  }[];
}

/** Seconds measured per media field: a number, or one per item of a list. */
export type Measured = Record<string, number | number[]>;

const TIMED_KINDS = new Set(["video", "audio"]);

function formOf(value: string): string[] {
  if (/^data:/i.test(value)) return ["data-uri"];
  if (/^https?:\/\//i.test(value)) return ["public-url", "uploaded-file-url"];
  return ["raw-base64"];
}

/** The media fields of a request schema, by name. */
export function mediaFields(schema: {
  properties?: Record<string, { "x-media"?: MediaSpec }>;
}): Record<string, MediaSpec> {
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).flatMap(([name, property]) =>
      property["x-media"] ? [[name, property["x-media"]]] : [],
    ),
  );
}

/** Measures the body's timed media, or names the rule a media field breaks. */
export function checkMedia(
  fields: Record<string, MediaSpec>,
  body: Body,
): { measured: Measured } | { problem: string } {
  const measured: Measured = {};
  for (const [name, spec] of Object.entries(fields)) {
    const value = body[name];
    if (value === undefined) continue;
    const items = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string");
    if (spec.forms) {
      const wrong = items.find((item) => !formOf(item).some((form) => spec.forms!.includes(form)));
      if (wrong !== undefined)
        return { problem: `${name} takes ${spec.forms.join(" or ")}, not a ${formOf(wrong).join("/")}` };
    }
    if (!TIMED_KINDS.has(spec.kind)) continue;
    const range = {
      minSeconds: Math.ceil(spec.minDurationSeconds ?? 1),
      maxSeconds: Math.floor(spec.maxDurationSeconds ?? 60),
    };
    const seconds = items.map((item) => measuredSeconds(item, range));
    const tightened = (spec.conditionalLimits ?? []).find((rule) => body[rule.when.field] === rule.when.equals)?.limits
      .maxDurationSeconds;
    const over = seconds.findIndex((length) => tightened !== undefined && length > tightened);
    if (over >= 0)
      return { problem: `${name} measures ${seconds[over]} s, above the ${tightened} s allowed with this mode` };
    const total = seconds.reduce((sum, length) => sum + length, 0);
    if (spec.maxCombinedDurationSeconds !== undefined && total > spec.maxCombinedDurationSeconds) {
      return {
        problem: `${name} measure ${total} s together, above the ${spec.maxCombinedDurationSeconds} s combined limit`,
      };
    }
    const other = spec.maxTotalWithField;
    const added = other ? body[other.field] : undefined;
    if (other && typeof added === "number" && total + added > other.maxSeconds)
      return { problem: `${name} (${total} s) and ${other.field} (${added} s) exceed ${other.maxSeconds} s together` };
    measured[name] = Array.isArray(value) ? seconds : seconds[0]!;
  }
  return { measured };
}
