/**
 * What a target declares about itself, and every setting of a run, in one place: which areas and
 * models it implements, how its jobs are polled, its concurrency cap, the run's limits, and what
 * the stateful checks need from it (more keys, a retired model, a way to make a job fail).
 *
 * DECLARATION_FIELDS is the one list of the declaration's fields: each field's type, check,
 * defaults (against a target and against the mock), meaning, and the environment variable and
 * flag that may give it. A value comes from the defaults < the JSON file (`--config`,
 * CONFORMANCE_CONFIG) < the environment < the flags. RUN_OPTIONS are the flags that are no field
 * (the target, the file, the seed, the reports). `--help` and conformance/README.md's table are
 * rendered from these lists (a test compares the README).
 */
import { existsSync, readFileSync } from "node:fs";
import { JsonSyntaxError, parseJsonText } from "../tools/json-text.ts";
import type { Contract } from "../contract/contract.ts";
import type { RateTable } from "../runtime/costs/pricing.ts";
import { QuoteError } from "../runtime/costs/quote-error.ts";
import { withSuppliedRates, type SuppliedRates } from "../runtime/costs/supplied-rates.ts";

export interface OutcomeMarkers {
  /** Text that, added to a request's prompt, makes its job end `failed`. */
  failed?: string;
  /** ... end `timeout`. */
  timeout?: string;
  /** ... be refused with the moderation block; `{reason}` stands for the restriction reason. */
  moderation?: string;
}

/** Cases per operation and kind when `--cases` is not given: small enough for the suite's time goals. */
export const DEFAULT_CASES = 3;

export interface GeneratedSettings {
  /** The run's seed; random (and printed) when not given. */
  seed?: number;
  /** Generated negatives and positives per operation, each. */
  cases?: number;
  /** Random sequences of the sequence phase, after its tour. */
  sequences?: number;
  /** This run's share of the sequences: the `index`-th (from 1) of `count` runs. */
  shard?: { index: number; count: number };
}

export interface PlanDiscounts {
  apiKey: string;
  /** Percent off the standard price, by model label. */
  models: Record<string, number>;
}

export interface FreePool {
  apiKey: string;
  /** Free generations a day. */
  generations: number;
  /** The qualified image models, by label. */
  models: string[];
}

/** A media input the target can fetch (`x-media` kind `kind`), and what it measures of it. */
export interface MediaInput {
  kind: string;
  url: string;
  seconds?: number;
  width?: number;
  height?: number;
  megabytes?: number;
}

/** A video-upscale create whose result is 1080p, with its mode and its input's measured seconds. */
export interface UpscaleRequest {
  body: Record<string, unknown>;
  mode: string;
  seconds: number;
}

/** A second paid account for the sequence phase: its key, and a second key of the same account. */
export interface OtherAccount {
  apiKey: string;
  secondKey?: string;
  /** Its cap on jobs in flight, where known. */
  concurrency?: number;
}

/** The per-IP burst's keys, and the target's request limits where it tunes the description's. */
export interface SourceIpBurst {
  apiKeys: string[];
  perSourceIp?: number;
  perKey?: number;
  windowSeconds?: number;
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
  /** The longest one request may take, from sending it to the answer's last byte. */
  requestTimeoutSeconds: number;
  /** The largest answer body the suite reads; a longer one fails the request that got it. */
  maxAnswerBytes: number;
  budgetCredits: number | null;
  standardPrices: boolean;
  /** The target takes requests as the description shapes them where the specification does not show or only implies it. */
  describedShapes: boolean;
  outcomeMarkers: OutcomeMarkers;
  freePlanKey?: string;
  retiredModel?: { model: string; apiKey?: string };
  cooldownApiKey?: string;
  /** The pause the target's cooldown starts with, shortened for testing; undefined: the description's. */
  cooldownPauseSeconds?: number;
  spendLimit?: { apiKey: string; credits: number };
  uploadRequest?: Record<string, unknown>;
  rateLimitBurst: boolean;
  /** Keys of the target's own, enough to pass its per-IP limit before any key passes its own; the limits where it tunes them. */
  sourceIpBurst?: SourceIpBurst;
  /** A key whose plan discounts these models (labels) by these percentages. */
  planDiscounts?: PlanDiscounts;
  /** A key of a Pro or Ultra account whose day's free pool is unused, the pool's size and its models (labels). */
  freePool?: FreePool;
  /** The shape of a `POST /v1/cost` body: `"{model}"` and `"{request}"` stand for the model's slug and the request to quote. */
  costRequest?: Record<string, unknown>;
  /** Media inputs the target can fetch, each with the seconds it measures for it. */
  mediaInputs?: MediaInput[];
  /** Upscale creates whose result is 1080p (the only result size whose rates are shown), each with its mode and its input's measured seconds. */
  upscaleRequests?: UpscaleRequest[];
  /** By model label: the target's own rates where the description marks a rate not shown (a number, or a table by resolution). */
  rates?: Record<string, number | RateTable>;
  /** By model label: the create response field holding the job id, where the description shows none. */
  jobIdFields?: Record<string, string>;
  /** A second paid account that nothing else in the run uses, with a second key of it. */
  otherAccount?: OtherAccount;
  /** The generated requests' seed and count: command-line options, not a declaration field. */
  generated?: GeneratedSettings;
}

/**
 * The keys a declaration gives besides the main one, each its own account: how reports name it, and
 * the environment variable curl lines name it by (the main key is $CONFORMANCE_API_KEY).
 */
export const DECLARED_KEYS: ReadonlyArray<{
  readonly name: string;
  readonly variable: string;
  /** The keys it gives (a field may give several: the variable of the n-th gets the suffix _n). */
  readonly of: (config: TargetConfig) => string | readonly string[] | undefined;
}> = [
  { name: "free plan", variable: "CONFORMANCE_FREE_PLAN_KEY", of: (config) => config.freePlanKey },
  { name: "cooldown", variable: "CONFORMANCE_COOLDOWN_KEY", of: (config) => config.cooldownApiKey },
  { name: "retired model", variable: "CONFORMANCE_RETIRED_MODEL_KEY", of: (config) => config.retiredModel?.apiKey },
  { name: "spend limit", variable: "CONFORMANCE_SPEND_LIMIT_KEY", of: (config) => config.spendLimit?.apiKey },
  { name: "plan discounts", variable: "CONFORMANCE_PLAN_DISCOUNTS_KEY", of: (config) => config.planDiscounts?.apiKey },
  { name: "free pool", variable: "CONFORMANCE_FREE_POOL_KEY", of: (config) => config.freePool?.apiKey },
  { name: "source-IP burst", variable: "CONFORMANCE_SOURCE_IP_KEY", of: (config) => config.sourceIpBurst?.apiKeys },
  { name: "other account", variable: "CONFORMANCE_OTHER_ACCOUNT_KEY", of: (config) => config.otherAccount?.apiKey },
  {
    name: "other account's second",
    variable: "CONFORMANCE_OTHER_ACCOUNT_KEY_2",
    of: (config) => config.otherAccount?.secondKey,
  },
];

/** The keys `key` gives in `config`, each with how reports name it and the variable curl lines name it by. */
export function declaredKeys(
  key: (typeof DECLARED_KEYS)[number],
  config: TargetConfig,
): Array<{ readonly name: string; readonly variable: string; readonly value: string }> {
  const given = key.of(config);
  if (typeof given === "string") return [{ name: key.name, variable: key.variable, value: given }];
  return (given ?? []).map((value, index) => ({
    name: `${key.name} ${index + 1}`,
    variable: `${key.variable}_${index + 1}`,
    value,
  }));
}

/** A mistake in the target's declaration or a run's options: reported by its message alone, it names the field and the rule. */
export class DeclarationError extends Error {}

type Check = (value: unknown) => string | null;
type DeclaredField = Exclude<keyof TargetConfig, "generated">;

/** A field of the declaration, with everything said about it once. */
interface Field<T> {
  readonly type: string;
  /** The default against an implementation; absent: none (`shown` says what that means). */
  readonly target?: T;
  /** The default against the mock, where it differs. */
  readonly mock?: T;
  /** The default as the documentation shows it. */
  readonly shown: string;
  readonly meaning: string;
  readonly check: Check;
  /** The environment variable that gives it over the file, read by `parse`. */
  readonly env?: string;
  /** The flag that gives it over the variable (`--timeout`), and what its argument is. */
  readonly flag?: { readonly name: string; readonly argument: string };
  readonly parse?: (text: string, name: string) => T;
}

/** A field as `--help`, the README and the file's check see it. */
export interface FieldSpec extends Pick<Field<unknown>, "type" | "meaning" | "check" | "env" | "flag" | "parse"> {
  readonly field: DeclaredField;
  /** The default against an implementation, as shown (`npm run conformance` against the mock has its own). */
  readonly default: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const boolean: Check = (value) => (typeof value === "boolean" ? null : "must be true or false");
const text: Check = (value) => (typeof value === "string" && value !== "" ? null : "must be a non-empty string");
const strings: Check = (value) =>
  Array.isArray(value) && value.every((item) => typeof item === "string") ? null : "must be an array of strings";
/** Model labels, each to a percentage. */
const percents: Check = (value) =>
  isObject(value) &&
  Object.keys(value).length > 0 &&
  Object.values(value).every((item) => typeof item === "number" && item >= 0 && item <= 100)
    ? null
    : "must map model labels to percentages from 0 to 100";
const integer =
  (minimum: number): Check =>
  (value) =>
    Number.isInteger(value) && (value as number) >= minimum ? null : `must be an integer of at least ${minimum}`;
const oneOf =
  (...allowed: string[]): Check =>
  (value) =>
    allowed.includes(value as string) ? null : `must be one of ${allowed.map((item) => `"${item}"`).join(", ")}`;
const nullable =
  (inner: Check): Check =>
  (value) =>
    value === null ? null : inner(value);
/** An object whose keys are among `fields`, each checked. */
const record =
  (fields: Record<string, Check>, required: string[] = []): Check =>
  (value) => {
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

/** A non-empty array of `shape`, each item passing `item`; a problem names the item's index. */
const listOf =
  (shape: string, item: Check): Check =>
  (value) => {
    if (!Array.isArray(value) || value.length === 0) return `must be a non-empty array of ${shape}`;
    for (const [index, entry] of value.entries()) {
      const problem = item(entry);
      if (problem) return `[${index}]${problem.startsWith(".") ? "" : " "}${problem}`;
    }
    return null;
  };

const list = (text: string): string[] =>
  text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/** A positive number given as text (a flag or a variable). */
function positive(text: string, name: string): number {
  const number = Number(text);
  if (!Number.isFinite(number) || number <= 0)
    throw new DeclarationError(`${name}: "${text}" is not a positive number`);
  return number;
}

/** A whole number from `minimum` up to 2^32 - 1 given as text (a flag or a variable). */
function wholeNumber(text: string, name: string, minimum: number): number {
  const number = Number(text);
  if (!/^\d+$/.test(text.trim()) || number < minimum || number > 2 ** 32 - 1)
    throw new DeclarationError(`${name}: "${text}" is not a whole number from ${minimum} to ${2 ** 32 - 1}`);
  return number;
}

/** What a declared media input may say the target measures of it. */
const MEASURES = ["seconds", "width", "height", "megabytes"] as const;
const measure: Check = (value) => (typeof value === "number" && value > 0 ? null : "must be a positive number");

const FIELDS: { readonly [K in DeclaredField]-?: Field<TargetConfig[K]> } = {
  stateful: {
    type: "boolean",
    target: true,
    mock: false,
    shown: "true",
    meaning: "Keeps state: created jobs can be polled and progress to a terminal status. The mock is stateless.",
    check: boolean,
  },
  selectableExamples: {
    type: "boolean",
    target: false,
    mock: true,
    shown: "false",
    meaning: "Honours Prism's `Prefer: code=..., example=...` header (only the mock does).",
    check: boolean,
  },
  checksApiKey: {
    type: "boolean",
    target: true,
    mock: false,
    shown: "true",
    meaning: "Refuses unknown API keys with 401 (the mock accepts any bearer token).",
    check: boolean,
  },
  apiKey: {
    type: "string",
    shown: "none",
    meaning: "The key of the account the suite runs on.",
    check: text,
    env: "CONFORMANCE_API_KEY",
    parse: (value) => value,
  },
  areas: {
    type: "string[]",
    shown: "all",
    meaning: "Areas implemented, by path segment after `/v1` (`images`, `stock`, ...); the variable is a comma list.",
    check: strings,
    env: "CONFORMANCE_AREAS",
    parse: list,
  },
  models: {
    type: "string[]",
    shown: "all",
    meaning: "Model labels implemented (`I-A`, `V-B`, ...); the variable is a comma list.",
    check: strings,
    env: "CONFORMANCE_MODELS",
    parse: list,
  },
  skipGroups: {
    type: "string[]",
    target: [],
    shown: "none",
    meaning: "Check groups to skip, reported as skipped; the variable is a comma list.",
    check: strings,
    env: "CONFORMANCE_SKIP",
    parse: list,
  },
  poll: {
    type: "object",
    target: { intervalMs: null, timeoutSeconds: 900, stablePolls: 1 },
    mock: { intervalMs: 0, timeoutSeconds: 60, stablePolls: 0 },
    shown: "see meaning",
    meaning:
      "How jobs are polled: `intervalMs` (default: the area's cadence from the description, else 5000), `timeoutSeconds` per job (default 900), `stablePolls` after the terminal status (default 1).",
    check: record({ intervalMs: nullable(integer(0)), timeoutSeconds: integer(1), stablePolls: integer(0) }),
  },
  concurrency: {
    type: "integer",
    shown: "unknown",
    meaning:
      "The account's cap on jobs in flight: enables the cap's checks. The suite never has more in flight (undeclared: the description's Ultra cap). The cap starts at the plan's limit and rises with usage, so an undeclared one is not assumed.",
    check: integer(1),
  },
  parallelRequests: {
    type: "integer",
    target: 4,
    mock: 16,
    shown: "4",
    meaning: "Requests the suite has in flight at once (it also paces itself by `X-RateLimit-*`).",
    check: integer(1),
  },
  createExamples: {
    type: '"one" \\| "all"',
    target: "one",
    mock: "all",
    shown: '"one"',
    meaning: "Create requests per model: the cheapest named example, or every one. Each is a real job.",
    check: oneOf("one", "all"),
  },
  timeoutSeconds: {
    type: "integer",
    target: 1800,
    mock: 120,
    shown: "1800",
    meaning: "Time limit of the whole run; reports are written when it passes.",
    check: integer(1),
    env: "CONFORMANCE_TIMEOUT",
    flag: { name: "timeout", argument: "SECONDS" },
    parse: positive,
  },
  requestTimeoutSeconds: {
    type: "number",
    target: 60,
    shown: "60",
    meaning:
      "The longest one request may take, from sending it to the answer's last byte; past it the request fails, naming its route.",
    check: (value) => (typeof value === "number" && value > 0 ? null : "must be a positive number"),
    env: "CONFORMANCE_REQUEST_TIMEOUT",
    flag: { name: "request-timeout", argument: "SECONDS" },
    parse: positive,
  },
  maxAnswerBytes: {
    type: "integer",
    target: 8 * 1024 * 1024,
    shown: "8388608",
    meaning:
      "The largest answer body the suite reads (8 MiB); a longer one fails the request that got it, naming its route.",
    check: integer(1),
    env: "CONFORMANCE_MAX_ANSWER_BYTES",
    flag: { name: "max-answer-bytes", argument: "BYTES" },
    parse: (value, name) => wholeNumber(value, name, 1),
  },
  budgetCredits: {
    type: "number \\| null",
    target: null,
    shown: "null",
    meaning: "The run refuses to start when its quoted spend could pass this.",
    check: nullable((value) => (typeof value === "number" && value >= 0 ? null : "must be a non-negative number")),
    env: "CONFORMANCE_BUDGET",
    flag: { name: "budget", argument: "CREDITS" },
    parse: positive,
  },
  standardPrices: {
    type: "boolean",
    target: false,
    shown: "false",
    meaning:
      "The account pays the description's standard prices (no plan discount, promotion or free allowance): enables the billing checks and the price figures of create responses.",
    check: boolean,
  },
  describedShapes: {
    type: "boolean",
    target: false,
    shown: "false",
    meaning:
      "The target takes requests exactly as the description shapes them where the specification does not show the shape or only implies it (the paths, request shapes and field names marked `x-not-shown` or `x-implied-name`, and no field beyond the listed ones): a body the description holds valid must then be accepted and one it holds invalid refused, where otherwise the answer is a skip with the reason.",
    check: boolean,
  },
  outcomeMarkers: {
    type: "object",
    target: {},
    shown: "{}",
    meaning:
      "Text that, added to a prompt, makes a job end `failed` or `timeout`, or be refused by moderation (`moderation`, with `{reason}`): enables the billing checks of those outcomes and the cooldown.",
    check: record({ failed: text, timeout: text, moderation: text }),
  },
  freePlanKey: {
    type: "string",
    shown: "none",
    meaning:
      "A key of an account on the Free plan: enables the plan-gate check and is the key the rate-limit burst spends.",
    check: text,
  },
  retiredModel: {
    type: "object",
    shown: "none",
    meaning: "`{model, apiKey?}`: a model label the target answers 410 to (for `apiKey`, default the main key).",
    check: record({ model: text, apiKey: text }, ["model"]),
  },
  cooldownApiKey: {
    type: "string",
    shown: "none",
    meaning:
      "A key of an account the suite may pause: the cooldown check ends with that account's content-filtered family paused for the description's cooldown pause (or cooldownPauseSeconds grown by one step).",
    check: text,
  },
  cooldownPauseSeconds: {
    type: "integer",
    shown: "none",
    meaning:
      "The cooldown's first pause in seconds, where the target shortens the description's for testing (each further failure then adds a step shortened alike): the cooldown check expects it, waits it out, and checks that one more failure pauses the family one step longer. Undeclared: the description's pause, not waited out.",
    check: integer(1),
  },
  spendLimit: {
    type: "object",
    shown: "none",
    meaning:
      "`{apiKey, credits}`: a key of an account whose monthly spend limit lets it spend at most `credits` more: enables the spend-limit check (a create quoted above `credits` must be refused, and stay refused).",
    check: record(
      {
        apiKey: text,
        credits: (value) => (typeof value === "number" && value >= 0 ? null : "must be a non-negative number"),
      },
      ["apiKey", "credits"],
    ),
  },
  uploadRequest: {
    type: "object",
    shown: "none",
    meaning:
      "A body the target accepts for `POST /v1/uploads` (its shape is not shown): enables the uploads-window check.",
    check: (value) => (isObject(value) ? null : "must be an object"),
  },
  rateLimitBurst: {
    type: "boolean",
    target: false,
    shown: "false",
    meaning:
      "Spends the rest of a rate-limit window (on `freePlanKey` if given) to see the 429, as the run's last requests.",
    check: boolean,
  },
  sourceIpBurst: {
    type: "object",
    shown: "none",
    meaning:
      "`{apiKeys, perSourceIp?, perKey?, windowSeconds?}`: keys of the target's own, used by nothing else in the run, enough that twice the per-IP limit plus one requests spread over them stay within each key's own limit (5 at the description's 1200 and 600), and the target's limits where it tunes them (default the description's, at most ten times them; `windowSeconds` where it shortens the one-minute windows for testing): enables the source-ip-limit check, the run's very last requests, which spends this address's whole window (every key, and every other program on this machine, is refused until it resets).",
    check: record(
      {
        apiKeys: listOf("keys", text),
        perSourceIp: integer(1),
        perKey: integer(1),
        windowSeconds: integer(1),
      },
      ["apiKeys"],
    ),
  },
  planDiscounts: {
    type: "object",
    shown: "none",
    meaning:
      "`{apiKey, models}`: a key of an account whose plan discounts each model of `models` (label to percent off the standard price, which the specification does not state) and whose free pool pays none of their creates: enables the plan-prices check of discounts (one job per model, charged its discounted price, rounded either way); the run's refused negatives (request-validation, the near misses) go with this key, sparing the main key's rate-limit window.",
    check: record({ apiKey: text, models: percents }, ["apiKey", "models"]),
  },
  freePool: {
    type: "object",
    shown: "none",
    meaning:
      "`{apiKey, generations, models}`: a key of a Pro or Ultra account whose day's free pool is unused when the run starts, the pool's free generations a day and the image models it covers (labels; the specification states neither): enables the plan-prices check of the pool, which uses it up (one-image jobs across `models`), then sees the next create charged its price.",
    check: record({ apiKey: text, generations: integer(1), models: strings }, ["apiKey", "generations", "models"]),
  },
  costRequest: {
    type: "object",
    shown: "none",
    meaning:
      'The shape of a `POST /v1/cost` body, which is not shown: `"{model}"` stands for the model\'s slug and `"{request}"` for the create request to quote (each a whole JSON value), as in `{"model": "{model}", "body": "{request}"}`; the suite adds `seconds`: enables the cost-quotes check (no job; quotes cost nothing).',
    check: (value) =>
      !isObject(value)
        ? "must be an object"
        : !JSON.stringify(value).includes('"{model}"') || !JSON.stringify(value).includes('"{request}"')
          ? 'must hold "{model}" and "{request}" as values, where the model\'s slug and the request to quote go'
          : null,
  },
  upscaleRequests: {
    type: "array",
    shown: "none",
    meaning:
      "`[{body, mode, seconds}]`: video-upscale creates the target accepts whose result is 1080p (the only result size whose rates the description shows), each `body` holding the mode in the target's own field (its name is not shown) and an input video the target measures at `seconds`, with `mode` `precise` or `creative`: enables the prices check of the upscale rates (188 or 267 credits per second of a 1080p result).",
    check: listOf(
      "{body, mode, seconds}",
      record({ body: (body) => (isObject(body) ? null : "must be an object"), mode: text, seconds: measure }, [
        "body",
        "mode",
        "seconds",
      ]),
    ),
  },
  rates: {
    type: "object",
    shown: "none",
    meaning:
      "By model label, the target's own rates where the description marks a rate as not shown (`rateNotShown`: V-B's and V-C's per second of output by resolution, A-A's per second of its input video): a table by the field the rate differs by, or a number, as in `{\"V-B\": {\"720p\": 40, \"1080p\": 80}, \"A-A\": 12}`. Enables the prices check on those models: their jobs must be charged the description's formula with these rates (V-B's input media free, V-C's video-edit input at half the output rate, A-A's 10-second minimum; with `mediaInputs` for the seconds of an input video). A resolution left out stays unchecked.",
    check: (value) =>
      isObject(value) && Object.keys(value).length > 0
        ? null
        : "must map model labels to a rate or a table of rates by the field the rate differs by",
  },
  jobIdFields: {
    type: "object",
    shown: "none",
    meaning:
      "By model label, the field of its create response that holds the job's id, where the description shows none (the upscale route's create response is not shown): its jobs are then followed through their poll route like any other's.",
    check: (value) =>
      isObject(value) &&
      Object.keys(value).length > 0 &&
      Object.values(value).every((field) => typeof field === "string" && field !== "")
        ? null
        : "must map model labels to the create response's id field",
  },
  otherAccount: {
    type: "object",
    shown: "none",
    meaning:
      "`{apiKey, secondKey?, concurrency?}`: a key of a second paid account at the standard prices (no discount, promotion or free pool), which nothing else in the run uses, and a second key of that same account, and its cap where known: the sequence phase's steps across accounts and keys (another account's job polled, charges and caps per account, windows per key) need them, and are skipped naming the field without.",
    check: record({ apiKey: text, secondKey: text, concurrency: integer(1) }, ["apiKey"]),
  },
  mediaInputs: {
    type: "array",
    shown: "none",
    meaning:
      "`[{kind, url, seconds, width, height, megabytes}]`: media inputs the target can fetch (`kind` as the description's `x-media` kind, `video` or `audio`), each with what the target measures of it (at least one of the four): enables the prices check of the prices per second of a media input (which no answer states the seconds of), sending each input within a priced field's limits, and the media-limits check, sending each input past a field's limits (and V-B's input video with an output length past their 30 s together).",
    check: listOf(
      "{kind, url, seconds, width, height, megabytes}",
      (item) =>
        record({ kind: text, url: text, seconds: measure, width: measure, height: measure, megabytes: measure }, [
          "kind",
          "url",
        ])(item) ??
        (MEASURES.some((name) => name in (item as object)) ? null : `must give at least one of ${MEASURES.join(", ")}`),
    ),
  },
};

const ENTRIES = Object.entries(FIELDS) as Array<[DeclaredField, Field<unknown>]>;

export const DECLARATION_FIELDS: readonly FieldSpec[] = ENTRIES.map(([field, spec]) => ({
  field,
  type: spec.type,
  default: spec.shown,
  meaning: spec.meaning,
  check: spec.check,
  ...(spec.env ? { env: spec.env } : {}),
  ...(spec.flag ? { flag: spec.flag } : {}),
  ...(spec.parse ? { parse: spec.parse } : {}),
}));

/** The defaults of every field that has one, against a target or against the mock. */
function defaults(against: "target" | "mock"): TargetConfig {
  const entries = ENTRIES.flatMap(([field, spec]) => {
    const value = against === "mock" && "mock" in spec ? spec.mock : spec.target;
    return "target" in spec || (against === "mock" && "mock" in spec) ? [[field, value] as const] : [];
  });
  return Object.fromEntries(entries) as unknown as TargetConfig;
}

export const TARGET_DEFAULTS: TargetConfig = defaults("target");
export const MOCK_CONFIG: TargetConfig = defaults("mock");

/** A command-line option that is no declaration field. */
export interface RunOption {
  readonly flag: string;
  /** Its argument's name; none: a switch. */
  readonly argument?: string;
  readonly env?: string;
  readonly meaning: string;
}

export const RUN_OPTIONS: readonly RunOption[] = [
  {
    flag: "target",
    argument: "URL",
    env: "CONFORMANCE_TARGET",
    meaning: "base URL of the implementation; without it the mock is started",
  },
  {
    flag: "config",
    argument: "FILE",
    env: "CONFORMANCE_CONFIG",
    meaning: "the target's JSON declaration (fields below)",
  },
  {
    flag: "proxy",
    env: "CONFORMANCE_PROXY=on",
    meaning: "also run Prism as a validation proxy in front of the target",
  },
  {
    flag: "seed",
    argument: "N",
    env: "CONFORMANCE_SEED",
    meaning: "seed of the generated requests (printed on every run; random when not given)",
  },
  {
    flag: "cases",
    argument: "N",
    env: "CONFORMANCE_CASES",
    meaning: `generated negatives and positives per operation (default ${DEFAULT_CASES})`,
  },
  {
    flag: "sequences",
    argument: "N",
    env: "CONFORMANCE_SEQUENCES",
    meaning: "random sequences of the sequence phase, after its tour (default 3; more for a nightly run)",
  },
  {
    flag: "shard",
    argument: "K/N",
    env: "CONFORMANCE_SHARD",
    meaning: "run the K-th of N shares of the sequences (one per CI machine; each run's report names its shard)",
  },
  {
    flag: "merge",
    argument: "A.json,B.json",
    meaning: "merge the JSON reports of a run's shards into one (written to --report-dir), and run nothing",
  },
  {
    flag: "report-dir",
    argument: "DIR",
    env: "CONFORMANCE_REPORT_DIR",
    meaning: "where conformance.json and conformance.junit.xml go (conformance/reports/)",
  },
  { env: "CONFORMANCE_REPORT_JSON, CONFORMANCE_REPORT_JUNIT", flag: "", meaning: "the two files' own paths" },
  { flag: "help", meaning: "this text" },
];

/** The options node:util's parseArgs takes: every run option's flag and every field's. */
export function parseArgsOptions(): Record<string, { type: "string" | "boolean" }> {
  const options: Record<string, { type: "string" | "boolean" }> = {};
  for (const option of RUN_OPTIONS)
    if (option.flag) options[option.flag] = { type: option.argument ? "string" : "boolean" };
  for (const field of DECLARATION_FIELDS) if (field.flag) options[field.flag.name] = { type: "string" };
  return options;
}

/** `--help`'s lines for the options (each beside its variable) and the declaration's fields. */
export function optionsHelp(): string {
  const option = (flag: string, env: string, meaning: string): string =>
    `  ${flag.padEnd(26)} ${env.padEnd(30)} ${meaning}`;
  const runs = RUN_OPTIONS.map((run) =>
    option(run.flag ? `--${run.flag}${run.argument ? ` ${run.argument}` : ""}` : "", run.env ?? "", run.meaning),
  );
  const fields = DECLARATION_FIELDS.filter((field) => field.env).map((field) =>
    option(
      field.flag ? `--${field.flag.name} ${field.flag.argument}` : "",
      field.env ?? "",
      `the declaration's ${field.field}`,
    ),
  );
  return [...runs, ...fields].join("\n");
}

export function fieldsHelp(): string {
  return DECLARATION_FIELDS.map(
    (field) =>
      `  ${field.field.padEnd(22)} ${field.type.replace(/\\/g, "").padEnd(16)} default ${field.default.replace(/`/g, "")}\n      ${field.meaning.replace(/`/g, "")}`,
  ).join("\n");
}

/** Where a field may also come from, for the README: `` `CONFORMANCE_TIMEOUT`, `--timeout` ``. */
const overrides = (field: FieldSpec): string =>
  [field.env, field.flag && `--${field.flag.name}`]
    .filter(Boolean)
    .map((name) => `\`${name}\``)
    .join(", ") || "";

/** conformance/README.md's table of the declaration's fields. */
export function declarationTable(): string {
  return [
    "| field | type | default | environment, flag | meaning |",
    "|---|---|---|---|---|",
    ...DECLARATION_FIELDS.map(
      (field) => `| \`${field.field}\` | ${field.type} | ${field.default} | ${overrides(field)} | ${field.meaning} |`,
    ),
  ].join("\n");
}

/**
 * The target's declaration: `defaults`, then the JSON file (`configFile`, else CONFORMANCE_CONFIG),
 * then each field's environment variable, then its flag (`flags`, by name, as parseArgs gives them).
 * Every name is checked against the description and the registry of checks: a misspelt area or
 * model would otherwise skip everything and pass.
 */
export function readTargetConfig(
  env: NodeJS.ProcessEnv,
  defaults: TargetConfig,
  contract: Contract,
  groups: readonly string[],
  configFile?: string,
  flags: Readonly<Record<string, unknown>> = {},
): TargetConfig {
  const source = configFile ?? env.CONFORMANCE_CONFIG;
  const named = configFile !== undefined ? "--config" : "CONFORMANCE_CONFIG";
  if (source !== undefined && !existsSync(source)) throw new DeclarationError(`${named} ${source}: no such file`);
  const file = source ? checkFile(readJson(source, named), source) : {};
  const config: TargetConfig = { ...defaults, ...file, poll: { ...defaults.poll, ...file.poll } };
  for (const field of DECLARATION_FIELDS) {
    const flag = field.flag ? flags[field.flag.name] : undefined;
    const given =
      typeof flag === "string"
        ? { text: flag, name: `--${field.flag?.name} (${field.env})` }
        : field.env && env[field.env]
          ? { text: env[field.env] as string, name: field.env }
          : undefined;
    if (given && field.parse) Object.assign(config, { [field.field]: field.parse(given.text, given.name) });
  }
  const labels = contract.model.createRoutes.map((route) => route.label);
  const known = (field: string, names: string[] | undefined, allowed: readonly string[]): void => {
    for (const name of names ?? []) {
      if (!allowed.includes(name))
        throw new DeclarationError(`${field}: unknown "${name}"; the description has: ${allowed.join(", ")}`);
    }
  };
  known("areas (CONFORMANCE_AREAS)", config.areas, [...new Set(contract.operations.map((op) => op.area))]);
  known("models (CONFORMANCE_MODELS)", config.models, labels);
  known("skipGroups (CONFORMANCE_SKIP)", config.skipGroups, groups);
  known("retiredModel.model", config.retiredModel ? [config.retiredModel.model] : [], labels);
  known("planDiscounts.models", Object.keys(config.planDiscounts?.models ?? {}), labels);
  known("freePool.models", config.freePool?.models, labels);
  known("rates", Object.keys(config.rates ?? {}), labels);
  const modes = Object.values(contract.model.priceTables)
    .flatMap((table) => table.facts.mode ?? [])
    .map(String);
  for (const [index, request] of (config.upscaleRequests ?? []).entries())
    known(`upscaleRequests[${index}].mode`, [request.mode], modes);
  if (config.sourceIpBurst) checkSourceIpBurst(config, contract);
  try {
    suppliedRatesOf(config, contract);
  } catch (error) {
    if (!(error instanceof QuoteError)) throw error;
    throw new DeclarationError(`${error.field}: ${error.rule}`);
  }
  if (config.outcomeMarkers.moderation !== undefined && !config.outcomeMarkers.moderation.includes("{reason}")) {
    throw new DeclarationError(
      `${source}: outcomeMarkers.moderation must contain {reason}, where the restriction reason goes`,
    );
  }
  return config;
}

/** The limits the per-IP burst works with: the declaration's, else the description's. */
export function sourceIpLimits(
  burst: SourceIpBurst,
  contract: Contract,
): { perSourceIp: number; perKey: number; windowSeconds: number } {
  const described = contract.model.limits.requests;
  return {
    perSourceIp: burst.perSourceIp ?? described.perSourceIp,
    perKey: burst.perKey ?? described.perKey,
    windowSeconds: burst.windowSeconds ?? described.windowSeconds,
  };
}

/** How far past the description's limits a declaration may tune them: the burst sends twice the per-IP limit plus one. */
const TUNED_LIMIT_FACTOR = 10;

/**
 * The burst's keys must be its own (another field's key has spent part of its window, or will be
 * spent by the rate-limit burst) and enough that none passes its own limit before the address's
 * is proven missing: twice the per-IP limit plus one requests, as a burst may straddle two windows.
 * Its limits are bounded, so that a declaration cannot make the burst endless.
 */
function checkSourceIpBurst(config: TargetConfig, contract: Contract): void {
  const burst = config.sourceIpBurst as SourceIpBurst;
  const described = contract.model.limits.requests;
  const bounds = [
    ["perSourceIp", TUNED_LIMIT_FACTOR * described.perSourceIp, `ten times the description's ${described.perSourceIp}`],
    ["perKey", TUNED_LIMIT_FACTOR * described.perKey, `ten times the description's ${described.perKey}`],
    // Shortened for testing, never lengthened.
    ["windowSeconds", described.windowSeconds, "the description's window"],
  ] as const;
  for (const [field, most, why] of bounds) {
    const value = burst[field];
    if (value !== undefined && value > most)
      throw new DeclarationError(`sourceIpBurst.${field} must be at most ${most} (${why}), not ${value}`);
  }
  const others = new Set([
    config.apiKey,
    ...DECLARED_KEYS.flatMap((key) =>
      declaredKeys(key, { ...config, sourceIpBurst: undefined }).map((given) => given.value),
    ),
  ]);
  for (const [index, key] of burst.apiKeys.entries()) {
    if (others.has(key))
      throw new DeclarationError(
        `sourceIpBurst.apiKeys[${index}]: is a key another field gives; the burst needs keys nothing else in the run uses`,
      );
    if (burst.apiKeys.indexOf(key) !== index)
      throw new DeclarationError(`sourceIpBurst.apiKeys[${index}]: repeats apiKeys[${burst.apiKeys.indexOf(key)}]`);
  }
  const { perSourceIp, perKey } = sourceIpLimits(burst, contract);
  const requests = 2 * perSourceIp + 1;
  const needed = Math.ceil(requests / perKey);
  if (burst.apiKeys.length < needed)
    throw new DeclarationError(
      `sourceIpBurst.apiKeys: ${burst.apiKeys.length} keys cannot send the ${requests} requests that show a per-IP limit of ${perSourceIp} missing without one passing its own limit of ${perKey}; give at least ${needed}`,
    );
}

/**
 * The declared rates by route path, as a quote takes them. Throws a QuoteError naming
 * `rates.<label>…` for a model whose rates are all shown, or a rate keyed by a value its field
 * does not allow.
 */
export function suppliedRatesOf(config: Pick<TargetConfig, "rates">, contract: Contract): SuppliedRates {
  const rates: Record<string, number | RateTable> = {};
  for (const [label, rate] of Object.entries(config.rates ?? {})) {
    const route = contract.model.createRoutes.find((candidate) => candidate.label === label);
    if (!route) throw new QuoteError(`rates.${label}`, "is no model label of the description");
    try {
      withSuppliedRates(contract.model.priceTables, { [route.path]: rate });
    } catch (error) {
      if (!(error instanceof QuoteError)) throw error;
      throw new QuoteError(error.field.replace(`rates.${route.path}`, `rates.${label}`), error.rule);
    }
    rates[route.path] = rate;
  }
  return rates;
}

/** Where the main key came from, for the message of a target that refuses it. */
export type KeySource = "CONFORMANCE_API_KEY" | "the declaration's apiKey" | "none given";

export function keySource(env: NodeJS.ProcessEnv, config: TargetConfig): KeySource {
  return env.CONFORMANCE_API_KEY
    ? "CONFORMANCE_API_KEY"
    : config.apiKey !== undefined
      ? "the declaration's apiKey"
      : "none given";
}

/** The generated requests' seed and count, from `--seed` / `--cases` or their variables. */
export function generatedSettings(env: NodeJS.ProcessEnv, flags: Readonly<Record<string, unknown>>): GeneratedSettings {
  const read = (flag: string, variable: string, minimum: number): number | undefined => {
    const text = typeof flags[flag] === "string" ? (flags[flag] as string) : env[variable];
    return text === undefined ? undefined : wholeNumber(text, `--${flag} (${variable})`, minimum);
  };
  const seed = read("seed", "CONFORMANCE_SEED", 0);
  const cases = read("cases", "CONFORMANCE_CASES", 1);
  const sequences = read("sequences", "CONFORMANCE_SEQUENCES", 0);
  const shardText = typeof flags.shard === "string" ? flags.shard : env.CONFORMANCE_SHARD;
  const shard = shardText === undefined ? undefined : shardOf(shardText);
  return {
    ...(seed !== undefined ? { seed } : {}),
    ...(cases !== undefined ? { cases } : {}),
    ...(sequences !== undefined ? { sequences } : {}),
    ...(shard ? { shard } : {}),
  };
}

/** `K/N`: the K-th of N shares, 1 <= K <= N. */
function shardOf(text: string): { index: number; count: number } {
  const found = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(found?.[1]);
  const count = Number(found?.[2]);
  if (!found || index < 1 || count < 1 || index > count)
    throw new DeclarationError(`--shard (CONFORMANCE_SHARD): "${text}" is not K/N with 1 <= K <= N, as in 2/4`);
  return { index, count };
}

function readJson(source: string, named: string): unknown {
  try {
    return parseJsonText(readFileSync(source, "utf8"), source);
  } catch (error) {
    // A syntax error's message names the file already, with its line and column.
    throw new DeclarationError(
      error instanceof JsonSyntaxError
        ? `${named} ${error.message}`
        : `${named} ${source}: ${(error as Error).message}`,
    );
  }
}

/** The JSON declaration's shape: each field of DECLARATION_FIELDS with its type, nothing else. */
function checkFile(value: unknown, source: string): Partial<TargetConfig> {
  if (!isObject(value)) throw new DeclarationError(`${source}: (the whole file) must be a JSON object`);
  for (const [key, field] of Object.entries(value)) {
    const spec = DECLARATION_FIELDS.find((candidate) => candidate.field === key);
    if (!spec)
      throw new DeclarationError(
        `${source}: ${key} is not a setting (settings: ${DECLARATION_FIELDS.map((candidate) => candidate.field).join(", ")})`,
      );
    const problem = spec.check(field);
    if (problem) throw new DeclarationError(`${source}: ${key}${/^[.[]/.test(problem) ? "" : " "}${problem}`);
  }
  return value as Partial<TargetConfig>;
}
