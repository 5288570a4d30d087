/**
 * Rule × condition coverage: for each rule of spec/rules.yaml the phase observes, the conditions it
 * was observed in (the model, whose account and which key, the plan, the input, the outcome asked
 * for, the moment), against those that apply to it given what the target declares. A rule seen in
 * fewer conditions than apply is listed in the reports, with the conditions it was not seen in.
 */
import type { Condition } from "./steps.ts";

export interface RuleCoverage {
  readonly rule: string;
  readonly seen: readonly Condition[];
  readonly unseen: readonly Condition[];
}

export class Coverage {
  private readonly seen = new Map<string, Set<Condition>>();

  /** `applicable`: for each rule, the conditions the phase's steps can observe it in. */
  constructor(readonly applicable: ReadonlyMap<string, ReadonlySet<Condition>>) {}

  observed(rules: readonly string[], conditions: readonly Condition[]): void {
    for (const rule of rules) {
      if (!this.applicable.has(rule)) continue;
      let set = this.seen.get(rule);
      if (!set) this.seen.set(rule, (set = new Set()));
      for (const condition of conditions) if (this.applicable.get(rule)!.has(condition)) set.add(condition);
    }
  }

  /** Each applicable rule with the conditions seen and not seen, rules short of theirs first. */
  rules(): RuleCoverage[] {
    return [...this.applicable]
      .map(([rule, conditions]) => {
        const seen = this.seen.get(rule) ?? new Set();
        return {
          rule,
          seen: [...seen].sort(),
          unseen: [...conditions].filter((condition) => !seen.has(condition)).sort(),
        };
      })
      .sort((a, b) => b.unseen.length - a.unseen.length || a.rule.localeCompare(b.rule));
  }

  /** Rule × condition pairs observed, of those that apply. */
  totals(): { observed: number; applicable: number } {
    let observed = 0;
    let applicable = 0;
    for (const [rule, conditions] of this.applicable) {
      applicable += conditions.size;
      observed += this.seen.get(rule)?.size ?? 0;
    }
    return { observed, applicable };
  }
}
