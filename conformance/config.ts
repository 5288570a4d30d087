/**
 * What a target declares about itself: which areas and models it implements, which check groups
 * apply, and how its jobs are polled. Read from a JSON file (CONFORMANCE_CONFIG) and environment
 * variables; anything left out means "all" or the default.
 */
import { readFileSync } from "node:fs";

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

const list = (value: string | undefined): string[] | undefined =>
  value ? value.split(",").map((item) => item.trim()).filter(Boolean) : undefined;

/** The target's declaration: defaults, then the JSON file, then CONFORMANCE_AREAS / _MODELS / _SKIP. */
export function readTargetConfig(env: NodeJS.ProcessEnv, defaults: TargetConfig): TargetConfig {
  const file = env.CONFORMANCE_CONFIG ? (JSON.parse(readFileSync(env.CONFORMANCE_CONFIG, "utf8")) as Partial<TargetConfig>) : {};
  const config: TargetConfig = { ...defaults, ...file, poll: { ...defaults.poll, ...file.poll } };
  const areas = list(env.CONFORMANCE_AREAS) ?? config.areas;
  const models = list(env.CONFORMANCE_MODELS) ?? config.models;
  const skipGroups = (list(env.CONFORMANCE_SKIP) as CheckGroup[] | undefined) ?? config.skipGroups;
  for (const group of skipGroups) {
    if (!CHECK_GROUPS.includes(group)) throw new Error(`unknown check group "${group}"; groups: ${CHECK_GROUPS.join(", ")}`);
  }
  return { ...config, skipGroups, ...(areas ? { areas } : {}), ...(models ? { models } : {}) };
}
