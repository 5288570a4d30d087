/**
 * Injected faults: each one a plausible bug of an implementation of the description, for proving
 * that the conformance suite catches it (tests/conformance/mutation.test.ts). A fault changes the
 * config, the rules, or an answer before it is sent, through startSandbox's hooks:
 * `startSandbox({ hooks: hooksFor(["wrong-id-prefix"]) })` serves the description with that bug.
 * Test code only: the sandbox that ships knows nothing of it (faults-not-shipped.test.ts).
 */
import type { SandboxHooks } from "../../../sandbox/server.ts";
import { BILLING_FAULTS } from "./billing.ts";
import { FIELD_FAULTS, type FieldFaultName } from "./fields.ts";
import { LIMIT_FAULTS } from "./limits.ts";
import { PLAN_FAULTS } from "./plans.ts";
import { PRICE_FAULTS } from "./prices.ts";
import { RESPONSE_FAULTS } from "./responses.ts";
import type { Fault } from "./support.ts";
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

/** Every fault: the hand-written ones, and those generated from the rule catalogue (fields.ts, `field:<rule id>`). */
export const FAULTS: Readonly<Record<WrittenFaultName, Fault>> & Readonly<Record<FieldFaultName, Fault>> = {
  ...WRITTEN_FAULTS,
  ...FIELD_FAULTS,
};

export type FaultName = WrittenFaultName | FieldFaultName;

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
