/**
 * The changelog for readers: what changed in the service's facts, as opposed to its shapes.
 * The interface version, new and retired models, each price per model and per rate, the service
 * limits, polling, the routes the Free plan may call, and the facts that moved from "not shown" to
 * stated (or back).
 */
import type {
  PricingComponent,
  PricingExtension,
  Quantity,
  RateTable,
  RoutePricing,
} from "../runtime/costs/pricing.ts";
import type { DomainFacts } from "./domain-facts.ts";
import { canonical, isObject } from "./schema-shape.ts";

export type Topic = "version" | "models" | "prices" | "limits" | "polling" | "plans" | "not-shown";

export interface ChangelogEntry {
  readonly topic: Topic;
  /** What the entry is about: a model label, a route, a limit, a marker. */
  readonly subject: string;
  readonly line: string;
}

export const TOPIC_TITLES: Record<Topic, string> = {
  version: "Version",
  models: "Models",
  prices: "Prices",
  limits: "Limits",
  polling: "Polling",
  plans: "Plans",
  "not-shown": "Not shown and stated",
};

/** Plain text: the JSON report is data, and the Markdown renderer formats it. */
const code = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

/**
 * Whether the object that carries a marker of one side (at `pointer`) is on the other side too.
 * A marker whose field or route went away is not a fact now stated; those changes are reported
 * with the field or route.
 */
export type Carried = (pointer: string, side: "before" | "after") => boolean;

export function domainChangelog(before: DomainFacts, after: DomainFacts, carried: Carried): ChangelogEntry[] {
  return [
    ...(before.version === after.version
      ? []
      : [
          {
            topic: "version" as const,
            subject: "version",
            line: `Interface version ${code(before.version)} → ${code(after.version)}.`,
          },
        ]),
    ...modelEntries(before, after),
    ...priceEntries(before, after),
    ...statedEntries("limits", "Limit", before.limits, after.limits),
    ...statedEntries("polling", "Polling", before.polling, after.polling),
    ...freePlanEntries(before.freePlan, after.freePlan),
    ...notShownEntries(before, after, carried),
  ];
}

function modelEntries(before: DomainFacts, after: DomainFacts): ChangelogEntry[] {
  const routeOf = (facts: DomainFacts): Map<string, string> =>
    new Map(facts.models.map((model) => [model.label, model.route]));
  const [from, to] = [routeOf(before), routeOf(after)];
  const entries: ChangelogEntry[] = [];
  for (const [label, route] of to) {
    const was = from.get(label);
    if (was === undefined)
      entries.push({
        topic: "models",
        subject: label,
        line: `New model ${label}: ${code(route)}; ${priceSummary(after.prices[pathOf(route)])}.`,
      });
    else if (was !== route)
      entries.push({
        topic: "models",
        subject: label,
        line: `Model ${label} moved from ${code(was)} to ${code(route)}.`,
      });
  }
  for (const [label, route] of from) {
    if (!to.has(label))
      entries.push({
        topic: "models",
        subject: label,
        line: `Model ${label} retired: ${code(route)} is gone; calls answer 410 model_retired.`,
      });
  }
  return entries;
}

const pathOf = (route: string): string => route.slice(route.indexOf(" ") + 1);

interface Rate {
  /** The billed item and the case of its rate: `output image, size 2K`. */
  name: string;
  credits: number;
  per: string;
}

function quantity(per: Quantity | undefined): string {
  if (per === undefined) return "per request";
  if ("field" in per) return `× ${per.field}`;
  if ("itemsBeyond" in per) return `per ${per.itemsBeyond.field} item beyond ${per.itemsBeyond.free}`;
  const rules = [
    per.rounding === "up" ? "rounded up" : "",
    per.minimum !== undefined ? `at least ${per.minimum}` : "",
    per.maximum !== undefined ? `at most ${per.maximum}` : "",
  ].filter(Boolean);
  return `per second of ${per.mediaSeconds}${rules.length ? ` (${rules.join(", ")})` : ""}`;
}

/** Every rate of a pricing: a fixed rate once, a rate table once per cell, each named by its item, case and conditions. */
function rates(pricing: PricingExtension | null): Map<string, Rate> {
  const found = new Map<string, Rate>();
  for (const component of pricing?.components ?? []) {
    const when = (component.when ?? []).map((condition) =>
      "fact" in condition
        ? `${condition.fact} ${condition.equals}`
        : "present" in condition
          ? `${condition.field} ${condition.present ? "given" : "not given"}`
          : `${condition.field} ${String(condition.equals)}`,
    );
    const add = (cases: string[], credits: number): void => {
      const name = [component.label, ...cases, ...when].join(", ");
      found.set(name, { name, credits, per: quantity(component.per) });
    };
    if (component.rate !== undefined) add([], component.rate);
    if (component.rateBy) walkTable(component, component.rateBy.table, [], add);
  }
  return found;
}

function walkTable(
  component: PricingComponent,
  table: RateTable,
  cases: string[],
  add: (cases: string[], credits: number) => void,
): void {
  const field = component.rateBy!.fields[cases.length];
  for (const [value, node] of Object.entries(table)) {
    const here = [...cases, `${field} ${value}`];
    if (typeof node === "number") add(here, node);
    else walkTable(component, node, here, add);
  }
}

const CHARGED: Record<PricingExtension["charged"], string> = {
  "on-success": "only when the job succeeds",
  "per-request": "on every request",
  free: "never (free)",
};

/** The components whose rate is not shown, or follows one that is not: their form without a figure. */
const formsOnly = (pricing: PricingExtension): string[] =>
  pricing.components.flatMap((component) => {
    const by = component.rateNotShown?.by.length ? ` by ${component.rateNotShown.by.join(" and ")}` : "";
    if (component.rateNotShown) return [`${component.label} at a rate not shown${by} ${quantity(component.per)}`];
    if (component.rateTimes)
      return [
        `${component.label} at ${component.rateTimes.factor} times the rate of ${component.rateTimes.component} ${quantity(component.per)}`,
      ];
    return [];
  });

function priceSummary(route: RoutePricing | undefined): string {
  if (!route?.pricing) return "price not shown";
  if (route.pricing.charged === "free") return "free";
  const shown = [
    ...[...rates(route.pricing).values()].map((rate) => `${rate.name} ${rate.credits} credits ${rate.per}`),
    ...formsOnly(route.pricing),
  ].join("; ");
  return `${shown}${route.notShown ? " (partly shown)" : ""}`;
}

function percent(from: number, to: number): string {
  if (from === 0) return "";
  const change = ((to - from) / from) * 100;
  return ` (${change > 0 ? "+" : ""}${Number(change.toFixed(1))}%)`;
}

function priceEntries(before: DomainFacts, after: DomainFacts): ChangelogEntry[] {
  const entries: ChangelogEntry[] = [];
  for (const [path, to] of Object.entries(after.prices)) {
    const from = before.prices[path];
    if (!from) continue; // a new route: its price is in its Models line
    const subject = to.model ?? `${to.method.toUpperCase()} ${path}`;
    const entry = (line: string): void => void entries.push({ topic: "prices", subject, line: `${subject}: ${line}` });
    if (!from.pricing && to.pricing) {
      entry(`${rates(to.pricing).size > 0 ? "price now stated" : "the price's form now stated"}: ${priceSummary(to)}.`);
      continue;
    }
    if (from.pricing && !to.pricing) {
      entry(`price no longer stated (was ${priceSummary(from)}).`);
      continue;
    }
    if (from.pricing && to.pricing && from.pricing.charged !== to.pricing.charged) {
      entry(`now charged ${CHARGED[to.pricing.charged]} (was ${CHARGED[from.pricing.charged]}).`);
    }
    if (from.pricing && to.pricing && Boolean(from.pricing.held) !== Boolean(to.pricing.held)) {
      entry(
        to.pricing.held
          ? "the price is now reserved when the job is created and held until it ends."
          : "the price is no longer held when the job is created.",
      );
    }
    const [was, now] = [rates(from.pricing), rates(to.pricing)];
    for (const [name, rate] of now) {
      const old = was.get(name);
      if (!old) entry(`new rate ${name}: ${rate.credits} credits ${rate.per}.`);
      else if (old.credits !== rate.credits)
        entry(`${name}: ${old.credits} → ${rate.credits} credits ${rate.per}${percent(old.credits, rate.credits)}.`);
      else if (old.per !== rate.per) entry(`${name}: now billed ${rate.per} (was ${old.per}).`);
    }
    for (const [name, rate] of was)
      if (!now.has(name)) entry(`rate ${name} removed (was ${rate.credits} credits ${rate.per}).`);
  }
  return entries;
}

/** Nested facts as `a.b.c` paths to their values, so they compare one by one. */
function flatten(value: unknown, prefix = ""): Map<string, unknown> {
  if (!isObject(value)) return new Map(prefix ? [[prefix, value]] : []);
  return new Map(
    Object.entries(value).flatMap(([key, inner]) => [...flatten(inner, prefix ? `${prefix}.${key}` : key)]),
  );
}

/** What a counted limit counts, by its key; a rate is per its group's window. */
const COUNTS: Record<string, string> = {
  perKey: "requests per API key",
  perSourceIp: "requests per source IP",
  perAccount: "requests per account",
  maxOnUltra: "jobs in flight",
  consecutiveFailures: "consecutive failed generations",
  maxResultsPerPage: "results per page",
};

/** The unit a stated number reads with (`seconds`, `requests per API key per 60 seconds`), or "" for words and flags. */
function unitOf(name: string, value: unknown, facts: Map<string, unknown>): string {
  if (typeof value !== "number") return "";
  const keys = name.split(".");
  const key = keys.at(-1)!;
  if (/seconds$/i.test(key) || /Seconds$/.test(keys.at(-2) ?? "")) return value === 1 ? " second" : " seconds";
  if (key === "hours") return value === 1 ? " hour" : " hours";
  const counts = COUNTS[key];
  if (counts === undefined) return "";
  const window = facts.get([...keys.slice(0, -1), "windowSeconds"].join("."));
  return ` ${counts}${typeof window === "number" ? ` per ${window} seconds` : ""}`;
}

/** Stated values (limits, polling) added, changed or dropped, one line per value, each number with its unit. */
function statedEntries(topic: Topic, noun: string, before: unknown, after: unknown): ChangelogEntry[] {
  const [from, to] = [flatten(before), flatten(after)];
  const entries: ChangelogEntry[] = [];
  const entry = (subject: string, line: string): void =>
    void entries.push({ topic, subject, line: `${noun} ${subject}: ${line}` });
  const shown = (name: string, value: unknown, facts: Map<string, unknown>): string =>
    `${code(value)}${unitOf(name, value, facts)}`;
  for (const [name, value] of to) {
    const old = from.get(name);
    if (!from.has(name)) entry(name, `now ${shown(name, value, to)}.`);
    else if (canonical(old) !== canonical(value))
      entry(
        name,
        `${typeof old === "number" && typeof value === "number" ? code(old) : shown(name, old, from)} → ${shown(name, value, to)}.`,
      );
  }
  for (const [name, value] of from)
    if (!to.has(name)) entry(name, `no longer stated (was ${shown(name, value, from)}).`);
  return entries;
}

function freePlanEntries(before: readonly string[], after: readonly string[]): ChangelogEntry[] {
  return [
    ...after
      .filter((route) => !before.includes(route))
      .map((route) => ({
        topic: "plans" as const,
        subject: route,
        line: `The Free plan may now call ${code(route)}.`,
      })),
    ...before
      .filter((route) => !after.includes(route))
      .map((route) => ({
        topic: "plans" as const,
        subject: route,
        line: `The Free plan may no longer call ${code(route)}.`,
      })),
  ];
}

function notShownEntries(before: DomainFacts, after: DomainFacts, carried: Carried): ChangelogEntry[] {
  const keyed = (facts: DomainFacts): Map<string, DomainFacts["notShown"][number]> =>
    new Map(
      facts.notShown.map((marker) => [
        `${marker.owner}${marker.where ? ` › ${marker.where}` : ""} (${marker.key})`,
        marker,
      ]),
    );
  const [from, to] = [keyed(before), keyed(after)];
  const entries: ChangelogEntry[] = [];
  for (const [subject, marker] of from) {
    if (!to.has(subject) && carried(marker.pointer, "before"))
      entries.push({
        topic: "not-shown",
        subject,
        line: `Now stated: ${subject}; was not shown ("${marker.sentence}").`,
      });
  }
  for (const [subject, marker] of to) {
    if (!from.has(subject) && carried(marker.pointer, "after"))
      entries.push({ topic: "not-shown", subject, line: `Now marked not shown: ${subject}: "${marker.sentence}"` });
  }
  return entries;
}
