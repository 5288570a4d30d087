/**
 * Injected faults: each one a plausible bug of an implementation of the description, for proving
 * that the conformance suite catches it (tests/conformance/mutation.test.ts). A fault changes the
 * config, the rules, or an answer before it is sent, through startSandbox's hooks:
 * `startSandbox({ hooks: hooksFor(["wrong-id-prefix"]) })` serves the description with that bug.
 * Test code only: the sandbox that ships knows nothing of it (faults-not-shipped.test.ts).
 */
import type { SandboxHooks } from "../../../sandbox/server.ts";
import { BILLING_FAULTS } from "./billing.ts";
import { CREATE_CATCHES, CREATE_FAULTS, ENVELOPED_RESPONSES } from "./creates.ts";
import { ERROR_CATCHES, ERROR_FAULTS } from "./errors.ts";
import { LIMIT_FAULTS } from "./limits.ts";
import { PLAN_FAULTS } from "./plans.ts";
import { MISSHAPEN_RESULTS, POLL_CATCHES, POLL_FAULTS, UNMOUNTED_POLLS } from "./polls.ts";
import { PRICE_FAULTS, STALE_PRICES } from "./prices.ts";
import { RESPONSE_FAULTS } from "./responses.ts";
import { ROUTE_CATCHES, ROUTE_FAULTS, UNMOUNTED_ROUTES } from "./routes.ts";
import { STATE_CATCHES, STATE_FAULTS, STUCK_STATES } from "./states.ts";
import type { CheckName, Family, Fault } from "./support.ts";
import { VALIDATION_FAULTS } from "./validation.ts";

/** The faults generated per area, model, state or route, each with the check that must catch it. */
export const FAMILIES: readonly Family[] = [
  ENVELOPED_RESPONSES,
  UNMOUNTED_POLLS,
  MISSHAPEN_RESULTS,
  STUCK_STATES,
  UNMOUNTED_ROUTES,
  STALE_PRICES,
];

/** The checks that must catch the faults below, named in the faults' own files (support/mutation.ts's CAUGHT_BY names the others'). */
export const CATCHES: Record<string, CheckName> = {
  ...CREATE_CATCHES,
  ...POLL_CATCHES,
  ...STATE_CATCHES,
  ...ROUTE_CATCHES,
  ...ERROR_CATCHES,
  ...Object.assign({}, ...FAMILIES.map((generated) => generated.caughtBy)),
};

/** The faults of creates, polls, job states, the other routes, errors and model prices: those CATCHES names the checks of. */
export const CAUGHT_IN_FILES: Record<string, Fault> = {
  ...CREATE_FAULTS,
  ...POLL_FAULTS,
  ...STATE_FAULTS,
  ...ROUTE_FAULTS,
  ...ERROR_FAULTS,
  ...Object.assign({}, ...FAMILIES.map((generated) => generated.faults)),
};

export const FAULTS: Record<string, Fault> = {
  ...LIMIT_FAULTS,
  ...BILLING_FAULTS,
  ...RESPONSE_FAULTS,
  ...VALIDATION_FAULTS,
  ...PLAN_FAULTS,
  ...PRICE_FAULTS,
  ...CAUGHT_IN_FILES,
};

export type FaultName = keyof typeof FAULTS;

export class UnknownFaultError extends Error {}

/** The sandbox hooks that make the named faults; throws naming the faults it knows for any other name. */
export function hooksFor(names: readonly string[]): Required<SandboxHooks> {
  const faults: Fault[] = names.map((name) => {
    if (!(name in FAULTS))
      throw new UnknownFaultError(`unknown fault "${name}"; the faults are: ${Object.keys(FAULTS).join(", ")}`);
    return FAULTS[name]!;
  });
  const answers = faults.flatMap((fault) => (fault.answer ? [fault.answer()] : []));
  return {
    config: (config) => faults.reduce((changed, fault) => fault.config?.(changed) ?? changed, config),
    rules: (rules) => faults.reduce((changed, fault) => fault.rules?.(changed) ?? changed, rules),
    answer: (answer, call, state) => answers.reduce((changed, hook) => hook(changed, call, state), answer),
  };
}
