/**
 * What a target declares about itself: which areas and models it implements, how its jobs are
 * polled, its concurrency cap, the run's limits, and what the stateful checks need from it (more
 * keys, a retired model, a way to make a job fail). Read from a JSON file (CONFORMANCE_CONFIG) and
 * environment variables; anything left out means "all" or the default. DECLARATION_FIELDS is the
 * one list of fields: the file is checked against it, and `--help` and conformance/README.md show it.
 */
import { existsSync, readFileSync } from "node:fs";
import { JsonSyntaxError, parseJsonText } from "../tools/json-text.ts";
import type { Contract } from "./contract.ts";
import type { GeneratedSettings } from "./generation/generated.ts";

export interface OutcomeMarkers {
  /** Text that, added to a request's prompt, makes its job end `failed`. */
  failed?: string;
  /** ... end `timeout`. */
  timeout?: string;
  /** ... be refused with the moderation block; `{reason}` stands for the restriction reason. */
  moderation?: string;
}

export interface TargetConfig {
  stateful: boolean;
  selectableExamples: boolean;
  checksApiKey: boolean;
  apiKey?: string;
  areas?: string[];
  models?: string[];
  skipGroups: string[];
  poll: { intervalMs: number | null; timeoutSeconds: number; stablePolls: number };
  /** Undefined: unknown (the suite then keeps at most the description's Ultra cap in flight). */
  concurrency?: number;
  parallelRequests: number;
  createExamples: "one" | "all";
  timeoutSeconds: number;
  budgetCredits: number | null;
  standardPrices: boolean;
  outcomeMarkers: OutcomeMarkers;
  freePlanKey?: string;
  retiredModel?: { model: string; apiKey?: string };
  cooldownApiKey?: string;
  /** The pause the target's cooldown starts with, shortened for testing; undefined: the description's. */
  cooldownPauseSeconds?: number;
  spendLimit?: { apiKey: string; credits: number };
  uploadRequest?: Record<string, unknown>;
  rateLimitBurst: boolean;
  /** The generated requests' seed and count: command-line options, not a declaration field. */
  generated?: GeneratedSettings;
}

/**
 * The keys a declaration gives besides the main one, each its own account: how reports name it, and
 * the environment variable curl lines name it by (the main key is $CONFORMANCE_API_KEY).
 */
export const DECLARED_KEYS: ReadonlyArray<{ readonly name: string; readonly variable: string; readonly of: (config: TargetConfig) => string | undefined }> = [
  { name: "free plan", variable: "CONFORMANCE_FREE_PLAN_KEY", of: (config) => config.freePlanKey },
  { name: "cooldown", variable: "CONFORMANCE_COOLDOWN_KEY", of: (config) => config.cooldownApiKey },
  { name: "retired model", variable: "CONFORMANCE_RETIRED_MODEL_KEY", of: (config) => config.retiredModel?.apiKey },
  { name: "spend limit", variable: "CONFORMANCE_SPEND_LIMIT_KEY", of: (config) => config.spendLimit?.apiKey },
];

/** A mistake in the target's declaration: reported by its message alone, it names the field and the rule. */
export class DeclarationError extends Error {}

type Check = (value: unknown) => string | null;

interface FieldSpec {
  readonly field: string;
  readonly type: string;
  /** The default against an implementation (`npm run conformance` against the mock has its own). */
  readonly default: string;
  readonly meaning: string;
  readonly check: Check;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const boolean: Check = (value) => (typeof value === "boolean" ? null : "must be true or false");
const text: Check = (value) => (typeof value === "string" && value !== "" ? null : "must be a non-empty string");
const strings: Check = (value) => (Array.isArray(value) && value.every((item) => typeof item === "string") ? null : "must be an array of strings");
const integer = (minimum: number): Check => (value) => (Number.isInteger(value) && (value as number) >= minimum ? null : `must be an integer of at least ${minimum}`);
const oneOf = (...allowed: string[]): Check => (value) => (allowed.includes(value as string) ? null : `must be one of ${allowed.map((item) => `"${item}"`).join(", ")}`);
const nullable = (inner: Check): Check => (value) => (value === null ? null : inner(value));
/** An object whose keys are among `fields`, each checked. */
const record = (fields: Record<string, Check>, required: string[] = []): Check => (value) => {
  if (!isObject(value)) return "must be an object";
  for (const name of required) if (!(name in value)) return `must have ${name}`;
  for (const [name, item] of Object.entries(value)) {
    const check = fields[name];
    if (!check) return `has no setting ${name} (settings: ${Object.keys(fields).join(", ")})`;
    const problem = check(item);
    if (problem) return `.${name} ${problem}`;
  }
  return null;
};

export const DECLARATION_FIELDS: readonly FieldSpec[] = [
  { field: "stateful", type: "boolean", default: "true", meaning: "Keeps state: created jobs can be polled and progress to a terminal status. The mock is stateless.", check: boolean },
  { field: "selectableExamples", type: "boolean", default: "false", meaning: "Honours Prism's `Prefer: code=..., example=...` header (only the mock does).", check: boolean },
  { field: "checksApiKey", type: "boolean", default: "true", meaning: "Refuses unknown API keys with 401 (the mock accepts any bearer token).", check: boolean },
  { field: "apiKey", type: "string", default: "`CONFORMANCE_API_KEY`", meaning: "The key of the account the suite runs on (the environment variable wins).", check: text },
  { field: "areas", type: "string[]", default: "all", meaning: "Areas implemented, by path segment after `/v1` (`images`, `stock`, ...); `CONFORMANCE_AREAS` wins.", check: strings },
  { field: "models", type: "string[]", default: "all", meaning: "Model labels implemented (`I-A`, `V-B`, ...); `CONFORMANCE_MODELS` wins.", check: strings },
  { field: "skipGroups", type: "string[]", default: "none", meaning: "Check groups to skip, reported as skipped; `CONFORMANCE_SKIP` wins.", check: strings },
  {
    field: "poll",
    type: "object",
    default: "see below",
    meaning: "How jobs are polled: `intervalMs` (default: the area's cadence from the description, else 5000), `timeoutSeconds` per job (default 900), `stablePolls` after the terminal status (default 1).",
    check: record({ intervalMs: nullable(integer(0)), timeoutSeconds: integer(1), stablePolls: integer(0) }),
  },
  {
    field: "concurrency",
    type: "integer",
    default: "unknown",
    meaning: "The account's cap on jobs in flight: enables the cap's checks. The suite never has more in flight (undeclared: the description's Ultra cap). The cap starts at the plan's limit and rises with usage, so an undeclared one is not assumed.",
    check: integer(1),
  },
  { field: "parallelRequests", type: "integer", default: "4", meaning: "Requests the suite has in flight at once (it also paces itself by `X-RateLimit-*`).", check: integer(1) },
  { field: "createExamples", type: "\"one\" \\| \"all\"", default: "\"one\"", meaning: "Create requests per model: the cheapest named example, or every one. Each is a real job.", check: oneOf("one", "all") },
  { field: "timeoutSeconds", type: "integer", default: "1800", meaning: "Time limit of the whole run; reports are written when it passes. `--timeout` wins.", check: integer(1) },
  { field: "budgetCredits", type: "number \\| null", default: "null", meaning: "The run refuses to start when its quoted spend could pass this. `--budget` wins.", check: nullable((value) => (typeof value === "number" && value >= 0 ? null : "must be a non-negative number")) },
  { field: "standardPrices", type: "boolean", default: "false", meaning: "The account pays the description's standard prices (no plan discount, promotion or free allowance): enables the billing checks and the price figures of create responses.", check: boolean },
  {
    field: "outcomeMarkers",
    type: "object",
    default: "{}",
    meaning: "Text that, added to a prompt, makes a job end `failed` or `timeout`, or be refused by moderation (`moderation`, with `{reason}`): enables the billing checks of those outcomes and the cooldown.",
    check: record({ failed: text, timeout: text, moderation: text }),
  },
  { field: "freePlanKey", type: "string", default: "none", meaning: "A key of an account on the Free plan: enables the plan-gate check and is the key the rate-limit burst spends.", check: text },
  { field: "retiredModel", type: "object", default: "none", meaning: "`{model, apiKey?}`: a model label the target answers 410 to (for `apiKey`, default the main key).", check: record({ model: text, apiKey: text }, ["model"]) },
  { field: "cooldownApiKey", type: "string", default: "none", meaning: "A key of an account the suite may pause: the cooldown check ends with that account's content-filtered family paused for the description's cooldown pause (or cooldownPauseSeconds grown by one step).", check: text },
  {
    field: "cooldownPauseSeconds",
    type: "integer",
    default: "none",
    meaning: "The cooldown's first pause in seconds, where the target shortens the description's for testing (each further failure then adds a step shortened alike): the cooldown check expects it, waits it out, and checks that one more failure pauses the family one step longer. Undeclared: the description's pause, not waited out.",
    check: integer(1),
  },
  {
    field: "spendLimit",
    type: "object",
    default: "none",
    meaning: "`{apiKey, credits}`: a key of an account whose monthly spend limit lets it spend at most `credits` more: enables the spend-limit check (a create quoted above `credits` must be refused, and stay refused).",
    check: record({ apiKey: text, credits: (value) => (typeof value === "number" && value >= 0 ? null : "must be a non-negative number") }, ["apiKey", "credits"]),
  },
  { field: "uploadRequest", type: "object", default: "none", meaning: "A body the target accepts for `POST /v1/uploads` (its shape is not shown): enables the uploads-window check.", check: (value) => (isObject(value) ? null : "must be an object") },
  { field: "rateLimitBurst", type: "boolean", default: "false", meaning: "Spends the rest of a rate-limit window (on `freePlanKey` if given) to see the 429, as the run's last requests.", check: boolean },
];

export const TARGET_DEFAULTS: TargetConfig = {
  stateful: true,
  selectableExamples: false,
  checksApiKey: true,
  skipGroups: [],
  poll: { intervalMs: null, timeoutSeconds: 900, stablePolls: 1 },
  parallelRequests: 4,
  createExamples: "one",
  timeoutSeconds: 1800,
  budgetCredits: null,
  standardPrices: false,
  outcomeMarkers: {},
  rateLimitBurst: false,
};

export const MOCK_CONFIG: TargetConfig = {
  ...TARGET_DEFAULTS,
  stateful: false,
  selectableExamples: true,
  checksApiKey: false,
  poll: { intervalMs: 0, timeoutSeconds: 60, stablePolls: 0 },
  parallelRequests: 16,
  createExamples: "all",
  timeoutSeconds: 120,
};

const list = (value: string | undefined): string[] | undefined =>
  value ? value.split(",").map((item) => item.trim()).filter(Boolean) : undefined;

/**
 * The target's declaration: defaults, then the JSON file, then CONFORMANCE_AREAS / _MODELS / _SKIP.
 * Every name is checked against the description and the registry of checks: a misspelt area or
 * model would otherwise skip everything and pass.
 */
export function readTargetConfig(env: NodeJS.ProcessEnv, defaults: TargetConfig, contract: Contract, groups: readonly string[], configFile?: string): TargetConfig {
  const source = configFile ?? env.CONFORMANCE_CONFIG;
  const named = configFile !== undefined ? "--config" : "CONFORMANCE_CONFIG";
  if (source !== undefined && !existsSync(source)) throw new DeclarationError(`${named} ${source}: no such file`);
  const file = source ? checkFile(readJson(source, named), source) : {};
  const config: TargetConfig = { ...defaults, ...file, poll: { ...defaults.poll, ...file.poll } };
  const areas = list(env.CONFORMANCE_AREAS) ?? config.areas;
  const models = list(env.CONFORMANCE_MODELS) ?? config.models;
  const skipGroups = list(env.CONFORMANCE_SKIP) ?? config.skipGroups;
  const labels = contract.model.createRoutes.map((route) => route.label);
  const known = (field: string, names: string[] | undefined, allowed: readonly string[]): void => {
    for (const name of names ?? []) {
      if (!allowed.includes(name)) throw new DeclarationError(`${field}: unknown "${name}"; the description has: ${allowed.join(", ")}`);
    }
  };
  known("areas (CONFORMANCE_AREAS)", areas, [...new Set(contract.operations.map((op) => op.area))]);
  known("models (CONFORMANCE_MODELS)", models, labels);
  known("skipGroups (CONFORMANCE_SKIP)", skipGroups, groups);
  known("retiredModel.model", config.retiredModel ? [config.retiredModel.model] : [], labels);
  if (config.outcomeMarkers.moderation !== undefined && !config.outcomeMarkers.moderation.includes("{reason}")) {
    throw new DeclarationError(`${source}: outcomeMarkers.moderation must contain {reason}, where the restriction reason goes`);
  }
  return { ...config, skipGroups, ...(areas ? { areas } : {}), ...(models ? { models } : {}) };
}

function readJson(source: string, named: string): unknown {
  try {
    return parseJsonText(readFileSync(source, "utf8"), source);
  } catch (error) {
    // A syntax error's message names the file already, with its line and column.
    throw new DeclarationError(error instanceof JsonSyntaxError ? `${named} ${error.message}` : `${named} ${source}: ${(error as Error).message}`);
  }
}

/** The JSON declaration's shape: each field of DECLARATION_FIELDS with its type, nothing else. */
function checkFile(value: unknown, source: string): Partial<TargetConfig> {
  if (!isObject(value)) throw new DeclarationError(`${source}: (the whole file) must be a JSON object`);
  for (const [key, field] of Object.entries(value)) {
    const spec = DECLARATION_FIELDS.find((candidate) => candidate.field === key);
    if (!spec) throw new DeclarationError(`${source}: ${key} is not a setting (settings: ${DECLARATION_FIELDS.map((candidate) => candidate.field).join(", ")})`);
    const problem = spec.check(field);
    if (problem) throw new DeclarationError(`${source}: ${key}${problem.startsWith(".") ? "" : " "}${problem}`);
  }
  return value as Partial<TargetConfig>;
}
