/**
 * What one comparison finds: the changes for client code, each classified by a rule of rules.ts,
 * and the collector the comparers report them to.
 */
import { RULES, severityOf, type RuleName } from "./rules.ts";
import type { Direction, Severity } from "./severity.ts";

export type { Severity } from "./severity.ts";

export interface Change {
  /** Stable name of this change, used by the acknowledgements file: `rule@location`, `=detail` when there is one. */
  readonly id: string;
  /** The rule that classified it; schema rules carry their direction (`request-enum-value-removed`). */
  readonly rule: string;
  readonly severity: Severity;
  /** Where: a route (`POST /v1/images/i-a request body.size`) or a shared component (`schema JobStatus`). */
  readonly location: string;
  /** The value concerned, where the location does not say it (an enum value, a status, a bound). */
  readonly detail?: string;
  /** What changed, in plain text (the Markdown renderer formats it). */
  readonly message: string;
  /** The routes that reach the change; a change in a shared component lists every route using it. */
  readonly routes: string[];
}

export interface Finding {
  rule: RuleName;
  location: string;
  detail?: string;
  before?: unknown;
  after?: unknown;
  /** Schema rules only: which way data flows, and whether the change sits under an odd number of `not`s. */
  direction?: Direction;
  negated?: boolean;
}

function build(finding: Finding): Omit<Change, "routes"> {
  const spec = RULES[finding.rule];
  const rule = finding.direction ? `${finding.direction}-${finding.rule}` : finding.rule;
  const detail = finding.detail;
  const says = spec.says({ detail, before: finding.before, after: finding.after });
  const negated = finding.negated ? " (inside not, so the effect is reversed)" : "";
  return {
    id: `${rule}@${finding.location}${detail === undefined ? "" : `=${detail}`}`,
    rule,
    severity: severityOf(spec, finding.direction, finding.negated ?? false),
    location: finding.location,
    ...(detail === undefined ? {} : { detail }),
    message: `${finding.location}: ${says}${negated}`,
  };
}

/**
 * Collects changes. A shared component (a `$ref`'d schema, response or parameter) is compared
 * once per way of reaching it: the first route computes its changes, every later route only adds
 * itself to their `routes`, so a change to JobStatus is one change used by many routes.
 */
export class ChangeCollector {
  readonly #changes = new Map<string, Change>();
  readonly #memo = new Map<string, Change[] | "in progress">();
  readonly #open: Change[][] = [];
  #route = "";

  /** Runs `compare` with `route` as the route that reaches what it reports. */
  forRoute(route: string, compare: () => void): void {
    const previous = this.#route;
    this.#route = route;
    try {
      compare();
    } finally {
      this.#route = previous;
    }
  }

  report(finding: Finding): void {
    const built = build(finding);
    const existing = this.#changes.get(built.id);
    const change = existing ?? { ...built, routes: [] };
    if (!existing) this.#changes.set(built.id, change);
    // One id met twice (a component used both as is and under `not`): the breaking reading stands, in either order.
    else if (built.severity === "breaking" && existing.severity !== "breaking")
      Object.assign(existing, { ...built, routes: existing.routes });
    this.#reach(change);
  }

  /** Compares a shared component once under `key`; later calls only mark the current route as reaching its changes. */
  once(key: string, compare: () => void): void {
    const done = this.#memo.get(key);
    if (done === "in progress") return; // a recursive schema: the outer comparison covers it
    if (done) {
      for (const change of done) this.#reach(change);
      return;
    }
    this.#memo.set(key, "in progress");
    const reached: Change[] = [];
    this.#open.push(reached);
    try {
      compare();
    } finally {
      this.#open.pop();
    }
    this.#memo.set(key, reached);
  }

  #reach(change: Change): void {
    if (this.#route && !change.routes.includes(this.#route)) change.routes.push(this.#route);
    for (const reached of this.#open) if (!reached.includes(change)) reached.push(change);
  }

  /** Breaking first, then by location and rule, so the output is the same on every run. */
  changes(): Change[] {
    const rank = (change: Change): number => (change.severity === "breaking" ? 0 : 1);
    return [...this.#changes.values()]
      .map((change) => ({ ...change, routes: [...change.routes].sort() }))
      .sort((a, b) => rank(a) - rank(b) || a.location.localeCompare(b.location) || a.id.localeCompare(b.id));
  }
}
