/** What every check reports: one entry per rule tried, passed, failed or openly skipped. */
export type Outcome = "pass" | "fail" | "skip";

export interface CheckResult {
  /** The check group (`operations`, `request-validation`, ...), which a target can switch off. */
  group: string;
  /** `METHOD /path` of the operation, or `*` for checks over the whole run. */
  route: string;
  /** What was checked, in a few words. */
  name: string;
  outcome: Outcome;
  /** For a failure: the rule broken and what was seen; for a skip: why. */
  detail?: string;
  /** A command reproducing the failing request. */
  curl?: string;
  /** The ids of the rules of spec/rules.yaml it observes (conformance/rules.ts). */
  rules?: string[];
}

/**
 * The results of a run. What they say may quote the target, so names and details are recorded as
 * `shown` makes them (keys redacted, the target's text escaped), and curl lines as `redact` does.
 */
export class Results {
  readonly all: CheckResult[] = [];

  constructor(
    private readonly shown: (text: string) => string = (text) => text,
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  pass(group: string, route: string, name: string): void {
    this.all.push({ group, route, name: this.shown(name), outcome: "pass" });
  }

  fail(group: string, route: string, name: string, detail: string, curl?: string): void {
    this.all.push({
      group,
      route,
      name: this.shown(name),
      outcome: "fail",
      detail: this.shown(detail),
      ...(curl ? { curl: this.redact(curl) } : {}),
    });
  }

  skip(group: string, route: string, name: string, reason: string): void {
    this.all.push({ group, route, name: this.shown(name), outcome: "skip", detail: this.shown(reason) });
  }

  /** Records a pass when `problems` is empty, otherwise one failure listing them. */
  expect(group: string, route: string, name: string, problems: string[], curl?: string): void {
    if (problems.length === 0) this.pass(group, route, name);
    else this.fail(group, route, name, problems.join("; "), curl);
  }

  get failures(): CheckResult[] {
    return this.all.filter((result) => result.outcome === "fail");
  }
}
