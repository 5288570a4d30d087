/**
 * What a target declares about itself: which areas and models it implements, which check groups
 * apply, and how its jobs are polled. Read from a JSON file (CONFORMANCE_CONFIG) and environment
 * variables; anything left out means "all" or the default.
 */
import { readFileSync } from "node:fs";
import type { Contract } from "./contract.ts";

export const CHECK_GROUPS = [
  "operations",
  "request-validation",
  "auth",
  "error-examples",
  "lifecycle",
  "rate-limits",
  "prism-proxy",
] as const;
export type CheckGroup = (typeof CHECK_GROUPS)[number];

export interface TargetConfig {
  /** Keeps state: created jobs can be polled and progress. False for the Prism mock. */
  stateful: boolean;
  /** Honours Prism's `Prefer: code=..., example=...` header (only the mock does). */
  selectableExamples: boolean;
  /** Accepts only its own API keys (the mock accepts any bearer token). */
  checksApiKey: boolean;
  /** Areas implemented (first path segment after /v1: images, videos, stock, ...); undefined: all. */
  areas?: string[];
  /** Model labels implemented (x-model-label: I-A, V-B, ...); undefined: all. */
  models?: string[];
  /** Check groups to skip, reported as skipped. */
  skipGroups: CheckGroup[];
  poll: {
    intervalMs: number;
    /** Polls before giving up on reaching a terminal state. */
    maxPolls: number;
    /** Extra polls after a terminal state, to see that it stays. */
    stablePolls: number;
  };
  /** Sends X-RateLimit-Limit + 1 cheap requests to provoke a rate-limit 429 (opt-in). */
  rateLimitBurst: boolean;
}

export const MOCK_CONFIG: TargetConfig = {
  stateful: false,
  selectableExamples: true,
  checksApiKey: false,
  skipGroups: [],
  poll: { intervalMs: 0, maxPolls: 1, stablePolls: 0 },
  rateLimitBurst: false,
};

export const TARGET_DEFAULTS: TargetConfig = {
  stateful: true,
  selectableExamples: false,
  checksApiKey: true,
  skipGroups: [],
  poll: { intervalMs: 5_000, maxPolls: 120, stablePolls: 2 },
  rateLimitBurst: false,
};

/** A mistake in the target's declaration: reported by its message alone, it names the field and the rule. */
export class DeclarationError extends Error {}

const list = (value: string | undefined): string[] | undefined =>
  value ? value.split(",").map((item) => item.trim()).filter(Boolean) : undefined;

/**
 * The target's declaration: defaults, then the JSON file, then CONFORMANCE_AREAS / _MODELS / _SKIP.
 * Every name is checked against the description: a misspelt area or model would otherwise skip
 * everything and pass.
 */
export function readTargetConfig(env: NodeJS.ProcessEnv, defaults: TargetConfig, contract: Contract): TargetConfig {
  const source = env.CONFORMANCE_CONFIG;
  const file = source ? checkFile(readJson(source), source) : {};
  const config: TargetConfig = { ...defaults, ...file, poll: { ...defaults.poll, ...file.poll } };
  const areas = list(env.CONFORMANCE_AREAS) ?? config.areas;
  const models = list(env.CONFORMANCE_MODELS) ?? config.models;
  const skipGroups = (list(env.CONFORMANCE_SKIP) as CheckGroup[] | undefined) ?? config.skipGroups;
  const known = (field: string, names: string[] | undefined, allowed: readonly string[]): void => {
    for (const name of names ?? []) {
      if (!allowed.includes(name)) throw new DeclarationError(`${field}: unknown "${name}"; the description has: ${allowed.join(", ")}`);
    }
  };
  known("areas (CONFORMANCE_AREAS)", areas, [...new Set(contract.operations.map((op) => op.area))]);
  known("models (CONFORMANCE_MODELS)", models, contract.operations.flatMap((op) => (op.model ? [op.model] : [])));
  known("skipGroups (CONFORMANCE_SKIP)", skipGroups, CHECK_GROUPS);
  return { ...config, skipGroups, ...(areas ? { areas } : {}), ...(models ? { models } : {}) };
}

function readJson(source: string): unknown {
  try {
    return JSON.parse(readFileSync(source, "utf8"));
  } catch (error) {
    throw new DeclarationError(`CONFORMANCE_CONFIG ${source}: ${(error as Error).message}`);
  }
}

const FLAGS = ["stateful", "selectableExamples", "checksApiKey", "rateLimitBurst"] as const;
const LISTS = ["areas", "models", "skipGroups"] as const;
const POLL_COUNTS = ["intervalMs", "maxPolls", "stablePolls"] as const;

/** The JSON declaration's shape: each field of TargetConfig with its type, nothing else. */
function checkFile(value: unknown, source: string): Partial<TargetConfig> {
  const fail = (field: string, rule: string): never => {
    throw new DeclarationError(`${source}: ${field} ${rule}`);
  };
  if (typeof value !== "object" || value === null || Array.isArray(value)) return fail("(the whole file)", "must be a JSON object");
  const record = value as Record<string, unknown>;
  for (const [key, field] of Object.entries(record)) {
    if ((FLAGS as readonly string[]).includes(key)) {
      if (typeof field !== "boolean") fail(key, "must be true or false");
    } else if ((LISTS as readonly string[]).includes(key)) {
      if (!Array.isArray(field) || !field.every((item) => typeof item === "string")) fail(key, "must be an array of strings");
    } else if (key === "poll") {
      if (typeof field !== "object" || field === null || Array.isArray(field)) fail(key, "must be an object");
      for (const [name, count] of Object.entries(field as Record<string, unknown>)) {
        if (!(POLL_COUNTS as readonly string[]).includes(name)) fail(`poll.${name}`, `is not a setting (settings: ${POLL_COUNTS.join(", ")})`);
        if (!Number.isInteger(count) || (count as number) < 0) fail(`poll.${name}`, "must be a non-negative integer");
      }
    } else {
      fail(key, `is not a setting (settings: ${[...FLAGS, ...LISTS, "poll"].join(", ")})`);
    }
  }
  return record as Partial<TargetConfig>;
}
