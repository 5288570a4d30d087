/**
 * What a check is. Each check is one file under checks/ exporting a `Check`, registered in
 * checks/index.ts; its `group` names it in reports and in a declaration's `skipGroups`.
 */
import type { Observed } from "./client.ts";
import type { TargetConfig } from "./config.ts";
import type { PlannedSpend } from "./cost.ts";
import type { Session } from "./session.ts";

/**
 * When a check may go on (CheckContext.stage). Checks start together at `main`. A check that needs
 * the main account to itself runs `alone`, once every check of `main` is done (the sequence phase
 * where no second account is declared). The late stages hold the requests that change what may be
 * sent afterwards: creates whose jobs the suite cannot
 * follow hold their slot to the end (`late`), and a 429 with Retry-After stops a key for its wait
 * (`final`, one such request per key; `keyWindow`, the rate-limit burst, which spends one key's
 * window; `addressWindow`, the per-IP burst, which spends the window of every key at once).
 */
export const STAGE = { main: 0, alone: 1, late: 2, final: 3, keyWindow: 4, addressWindow: 5 } as const;

export interface CheckContext {
  readonly session: Session;
  /** Resolves once every other check has finished or waits for `stage` or a later one. */
  stage(stage: number): Promise<void>;
  /** What the check is doing now, for the progress lines. */
  status(text: string): void;
}

export interface Check {
  readonly group: string;
  /** One line for `--help` and conformance/README.md. */
  readonly summary: string;
  /**
   * The rules of spec/rules.yaml each of its results observes, by result name: the name as the check
   * writes it, `{…}` standing for what it puts in ("401 for {case}"). A rule is named by its id, a
   * pattern with `*`, or `route:` and either: those under the result's own operation
   * (conformance/rules.ts). A name with no rules is a precondition of others ("the job is created").
   * Every registered check has it (tests/rules/bindings.test.ts); the run's own steps need none.
   */
  readonly rules?: Readonly<Record<string, readonly string[]>>;
  /** Why it cannot run against this target (what the declaration lacks), or null. */
  blockedBy?(session: Session): string | null;
  /** Work that needs no target (computing request bodies), done while the mock or proxy starts. */
  prepare?(session: Session): void;
  /** The priced requests it will send, for the estimate stated before the run. */
  spend?(session: Session): PlannedSpend[];
  /**
   * Its spend is what the budget leaves after every other check's (the sequence phase): a check
   * that sizes its own spend by the others' leaves it out, so that neither waits on the other.
   */
  readonly spendsWhatIsLeft?: boolean;
  run?(context: CheckContext): Promise<void>;
  /** Sees every response of the run, whichever check sent the request. */
  observe?(session: Session, seen: Observed): void;
  /** After every check has run: conclusions over the whole run. */
  finish?(session: Session): void;
}

/** What a check cannot run without: a stateful target, declaration fields. */
export interface Needs {
  /** A target that keeps accounts and jobs (not the mock, which answers each request with an example). */
  readonly stateful?: true;
  /** Declaration fields, dotted for a nested one, each with what it gives where its name does not say. */
  readonly declared?: ReadonlyArray<string | { readonly field: string; readonly gives: string }>;
}

/** The value of a dotted declaration field (`outcomeMarkers.failed`). */
const declaredValue = (config: TargetConfig, field: string): unknown =>
  field
    .split(".")
    .reduce<unknown>(
      (value, part) =>
        typeof value === "object" && value !== null ? (value as Record<string, unknown>)[part] : undefined,
      config,
    );

/**
 * A `blockedBy` made of what the check declares it needs, in order, and then `further` (what only
 * the check can judge, such as a route the target must implement): the first unmet, as the skip's reason.
 */
export function needing(
  needs: Needs,
  further?: (session: Session) => string | null,
): (session: Session) => string | null {
  return (session) => {
    if (needs.stateful && !session.config.stateful) return "the target is stateless";
    for (const need of needs.declared ?? []) {
      const { field, gives } = typeof need === "string" ? { field: need, gives: undefined } : need;
      const value = declaredValue(session.config, field);
      if (value === undefined || value === null || value === false || value === "")
        return gives ? `not declared: ${gives} (${field})` : `the declaration gives no ${field}`;
    }
    return further?.(session) ?? null;
  };
}
