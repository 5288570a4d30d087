/**
 * Injected faults: each one a plausible bug of an implementation of the description, for proving
 * that the conformance suite catches it (tests/conformance/mutation-*.conformance-test.ts). A fault changes the
 * config, the rules, or an answer before it is sent, through startSandbox's hooks:
 * `startSandbox({ hooks: hooksFor(["wrong-id-prefix"]) })` serves the description with that bug.
 * Test code only: the sandbox that ships knows nothing of it (faults-not-shipped.test.ts).
 */
import type { SandboxHooks } from "../../../sandbox/server.ts";
import { BILLING_FAULTS } from "./billing.ts";
import { CREATE_CATCHES, CREATE_FAULTS, ENVELOPED_RESPONSES } from "./creates.ts";
import { ERROR_CATCHES, ERROR_FAULTS } from "./errors.ts";
import { FIELD_FAULTS, type FieldFaultName } from "./fields.ts";
import { LIMIT_FAULTS } from "./limits.ts";
import { PLAN_FAULTS } from "./plans.ts";
import { MISSHAPEN_RESULTS, POLL_CATCHES, POLL_FAULTS, UNMOUNTED_POLLS } from "./polls.ts";
import { PRICE_FAULTS, STALE_PRICES } from "./prices.ts";
import { RESPONSE_FAULTS } from "./responses.ts";
import { SEQUENCE_CATCHES, SEQUENCE_FAULTS } from "./sequences.ts";
import { ROUTE_CATCHES, ROUTE_FAULTS, UNMOUNTED_ROUTES } from "./routes.ts";
import { STATE_CATCHES, STATE_FAULTS, STUCK_STATES } from "./states.ts";
import type { CheckName, Family, Fault, FamilyFaultName } from "./support.ts";
import { VALIDATION_FAULTS } from "./validation.ts";

/** The hand-written faults: each names its own check in CAUGHT_BY (support/mutation.ts). */
const WRITTEN_FAULTS = {
  ...LIMIT_FAULTS,
  ...BILLING_FAULTS,
  ...RESPONSE_FAULTS,
  ...VALIDATION_FAULTS,
  ...PLAN_FAULTS,
  ...PRICE_FAULTS,
};

export type WrittenFaultName = keyof typeof WRITTEN_FAULTS;

/** The faults generated per area, model, state or route, each with the check that must catch it. */
const FAMILIES: readonly Family[] = [
  ENVELOPED_RESPONSES,
  UNMOUNTED_POLLS,
  MISSHAPEN_RESULTS,
  STUCK_STATES,
  UNMOUNTED_ROUTES,
  STALE_PRICES,
];

/** The faults of creates, polls, job states, the other routes, errors and model prices, which name their checks in CATCHES. */
const FILE_CAUGHT = {
  ...SEQUENCE_FAULTS,
  ...CREATE_FAULTS,
  ...POLL_FAULTS,
  ...STATE_FAULTS,
  ...ROUTE_FAULTS,
  ...ERROR_FAULTS,
};

export type CaughtInFilesName = keyof typeof FILE_CAUGHT | FamilyFaultName;

export const CAUGHT_IN_FILES: Readonly<Record<CaughtInFilesName, Fault>> = {
  ...FILE_CAUGHT,
  ...Object.assign({}, ...FAMILIES.map((generated) => generated.faults)),
};

/** The checks that must catch CAUGHT_IN_FILES's faults, named in the faults' own files. */
export const CATCHES: Readonly<Record<CaughtInFilesName, CheckName>> = {
  ...SEQUENCE_CATCHES,
  ...CREATE_CATCHES,
  ...POLL_CATCHES,
  ...STATE_CATCHES,
  ...ROUTE_CATCHES,
  ...ERROR_CATCHES,
  ...Object.assign({}, ...FAMILIES.map((generated) => generated.caughtBy)),
};

/** Every fault: the hand-written ones, those generated from the rule catalogue (fields.ts, `field:<rule id>`), and those whose files name their checks. */
export const FAULTS: Readonly<Record<WrittenFaultName, Fault>> &
  Readonly<Record<FieldFaultName, Fault>> &
  Readonly<Record<CaughtInFilesName, Fault>> = {
  ...WRITTEN_FAULTS,
  ...FIELD_FAULTS,
  ...CAUGHT_IN_FILES,
};

export type FaultName = WrittenFaultName | FieldFaultName | CaughtInFilesName;

export class UnknownFaultError extends Error {}

/** The fault named `name`; throws naming the faults it knows for any other name. */
export function faultNamed(name: string): Fault {
  const fault = (FAULTS as Readonly<Record<string, Fault>>)[name];
  if (!fault) throw new UnknownFaultError(`unknown fault "${name}"; the faults are: ${Object.keys(FAULTS).join(", ")}`);
  return fault;
}

/** The sandbox hooks that make the named faults; throws naming the faults it knows for any other name. */
export function hooksFor(names: readonly string[]): Required<SandboxHooks> {
  const faults = names.map(faultNamed);
  const answers = faults.flatMap((fault) => (fault.answer ? [fault.answer()] : []));
  return {
    config: (config) => faults.reduce((changed, fault) => fault.config?.(changed) ?? changed, config),
    rules: (rules) => faults.reduce((changed, fault) => fault.rules?.(changed) ?? changed, rules),
    answer: (answer, call, state) => answers.reduce((changed, hook) => hook(changed, call, state), answer),
  };
}
