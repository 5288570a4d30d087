/**
 * The generated requests of one operation, seeded and reproducible: near-miss negatives (a valid
 * body drawn across the schema with one near miss applied, near-misses.ts) and positives (valid
 * bodies drawn across the schema). The run's seed is mixed with the operation's id, so its cases
 * do not depend on which other operations run; the same seed and count give the same requests.
 */
import { randomInt } from "node:crypto";
import fc from "fast-check";
import { DEFAULT_CASES, type GeneratedSettings } from "../config.ts";
import type { Contract, ContractOperation } from "../../contract/contract.ts";
import { validBodies } from "../../contract/bodies/arbitraries.ts";
import { nearMisses, type Body, type NearMiss } from "../../contract/bodies/near-misses.ts";

export interface NegativeCase {
  readonly miss: NearMiss;
  readonly body: Body;
}

/** The settings with the seed and count chosen. */
export function resolveSettings(
  settings: GeneratedSettings | undefined,
): Required<Pick<GeneratedSettings, "seed" | "cases">> {
  return { seed: settings?.seed ?? randomInt(2 ** 31), cases: settings?.cases ?? DEFAULT_CASES };
}

/**
 * The seed of one operation's cases: the run's seed mixed with the operationId (FNV-1a), which
 * unlike the path does not change with the real slugs.
 */
export function operationSeed(seed: number, op: ContractOperation): number {
  let hash = 0x811c9dc5 ^ seed;
  for (const char of op.facts.operationId) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash >>> 0;
}

interface Bodies {
  valid: (body: unknown) => boolean;
  arbitrary: fc.Arbitrary<Body>;
}
const compiled = new WeakMap<ContractOperation, Bodies>();

/** The operation's request schema's validator and its valid bodies, made once. */
function bodies(contract: Contract, op: ContractOperation): Bodies | undefined {
  if (!op.requestSchema) return undefined;
  let found = compiled.get(op);
  if (!found) {
    const valid = (body: unknown): boolean => contract.validBody(op, body);
    found = {
      valid,
      arbitrary: validBodies(
        op.requestSchema,
        op.requestExamples.map((example) => example.value),
        valid,
      ),
    };
    compiled.set(op, found);
  }
  return found;
}

/** Valid bodies drawn across the operation's request schema. */
export function positiveArbitrary(contract: Contract, op: ContractOperation): fc.Arbitrary<Body> | undefined {
  return bodies(contract, op)?.arbitrary;
}

/**
 * Near-miss negatives of the operation: a kind of near miss drawn first (so every kind the schema
 * has is as likely), then one of that kind, then a valid body it is applied to. Shrinking keeps
 * the near miss and makes the body smaller. Only near misses that make some drawn body invalid
 * are kept, and of the bodies only invalid ones.
 */
export function negativeArbitrary(
  contract: Contract,
  op: ContractOperation,
  misses: readonly NearMiss[],
): fc.Arbitrary<NegativeCase> | undefined {
  const source = bodies(contract, op);
  if (!source || misses.length === 0) return undefined;
  const { valid, arbitrary } = source;
  const groups = [...new Set(misses.map((miss) => miss.kind))].map((kind) =>
    misses.filter((miss) => miss.kind === kind),
  );
  const miss = fc.noShrink(fc.constantFrom(...groups).chain((group) => fc.constantFrom(...group)));
  return fc
    .tuple(miss, arbitrary)
    .map(([chosen, base]) => ({ miss: chosen, body: chosen.apply(base) }))
    .filter((negative) => !valid(negative.body));
}

/** The bodies near misses are applied to outside the seeded cases: the named examples, then a few drawn with a fixed seed. */
function fixedBases(op: ContractOperation, source: Bodies): Body[] {
  return [
    ...op.requestExamples.map((example) => example.value as Body),
    ...fc.sample(source.arbitrary, { seed: 1, numRuns: 8 }),
  ];
}

/** The near misses of the operation that make at least one of a few drawn bodies invalid. */
export function effectiveNearMisses(contract: Contract, op: ContractOperation): NearMiss[] {
  const source = bodies(contract, op);
  if (!source) return [];
  const bases = fixedBases(op, source);
  return nearMisses(contract.operations, op).filter((miss) => bases.some((base) => !source.valid(miss.apply(base))));
}

/**
 * The coverage cases of the operation, sent before the seeded ones: each near-miss kind once per
 * field (or fields it sets together), the first of `misses` of that kind there, applied to the first
 * fixed base it makes invalid. No seed changes them.
 */
export function coverageCases(contract: Contract, op: ContractOperation, misses: readonly NearMiss[]): NegativeCase[] {
  const source = bodies(contract, op);
  if (!source) return [];
  const bases = fixedBases(op, source);
  const covered = new Map<string, NegativeCase>();
  for (const miss of misses) {
    const key = `${miss.kind} ${miss.fields.join(" ")}`;
    const base = covered.has(key) ? undefined : bases.find((candidate) => !source.valid(miss.apply(candidate)));
    if (base) covered.set(key, { miss, body: miss.apply(base) });
  }
  return [...covered.values()];
}

/** The first `cases` values a property run with `seed` draws (fc.check draws the same, in order). */
export function drawn<T>(arbitrary: fc.Arbitrary<T>, seed: number, cases: number): T[] {
  return fc.sample(arbitrary, { seed, numRuns: cases });
}
