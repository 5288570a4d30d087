/**
 * The sandbox's configuration: accounts with their keys, plan, credits, concurrency cap, spend limit
 * and retired models; the job clock; and overrides of the description's limits (so tests can run
 * them in seconds). The file is checked against config.schema.json and against the description
 * before the sandbox listens; each problem names the field and the rule.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ServiceModel } from "../model/service-model.ts";
import { QuoteError } from "../runtime/costs/quote-error.ts";
import { withSuppliedRates, type SuppliedRates } from "../runtime/costs/supplied-rates.ts";
import type { RateTable } from "../runtime/costs/pricing.ts";
import { JsonSyntaxError, parseJsonText } from "../tools/json-text.ts";
import { runtimeFile } from "../tools/packaged.ts";
import { HTTP_DEFAULTS, type HttpLimits } from "../http-server/limits.ts";
import type { AccountSettings, ServiceSettings } from "../behaviour/settings.ts";
import { describeProblems } from "../behaviour/validation.ts";
import { defaultMaxBodyBytes } from "./body-limit.ts";
import schema from "./config.schema.json" with { type: "json" };

export const DEFAULT_CONFIG_FILE = runtimeFile("sandbox/default-config.json");

/** The port `npm run sandbox` listens on without --port or SANDBOX_PORT; the docs' sandbox address is built on it. */
export const DEFAULT_SANDBOX_PORT = 4020;

/** An account as the config gives it, with the defaults filled in: what the service model is set up with. */
export type AccountConfig = AccountSettings;

/** The service model's settings, and the sandbox's own: its clock, its jobs' timing, its media and HTTP bounds. */
export interface SandboxConfig extends ServiceSettings {
  /** How many times faster than real time jobs progress and expire. */
  readonly clock: { readonly speed: number };
  readonly jobs: {
    /** A job's run time where the description shows no typical duration. */
    readonly defaultDurationSeconds: number;
    /** How long a finished job can be polled where the description shows no retention. */
    readonly defaultRetentionHours: number;
  };
  /** The duration of a media input whose URL names none (see README: durations). */
  readonly media: { readonly defaultDurationSeconds: number };
  /** What one client may hold of the sandbox (http-server/limits.ts). */
  readonly http: HttpLimits;
}

/** The sandbox's own defaults, for what the description does not fix. */
const SANDBOX_DEFAULTS = { speed: 1, jobSeconds: 10, retentionHours: 24, mediaSeconds: 10 };

export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`${source}: ${problems.join("; ")}`);
  }
}

const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);

type Raw = {
  accounts: Record<string, Partial<AccountConfig> & Pick<AccountConfig, "keys" | "plan" | "credits">>;
  clock?: Partial<SandboxConfig["clock"]>;
  jobs?: Partial<SandboxConfig["jobs"]>;
  media?: Partial<SandboxConfig["media"]>;
  rates?: Record<string, number | RateTable>;
  http?: Partial<HttpLimits>;
  limits?: { [K in keyof SandboxConfig["limits"]]?: Partial<SandboxConfig["limits"][K]> };
};

/** Checks a parsed config and fills in the defaults; throws ConfigError naming each problem. */
export function resolveConfig(raw: unknown, model: ServiceModel, source = "config"): SandboxConfig {
  if (!validate(raw)) throw new ConfigError(source, describeProblems("config", validate.errors, schema));
  const input = raw as Raw;
  const problems: string[] = [];
  const owner = new Map<string, string>();
  // A model is named by its slug or by its label, which a slug map leaves as it is (I-F).
  const slugOf = new Map(
    model.createRoutes.flatMap(
      (route) =>
        [
          [route.slug, route.slug],
          [route.label, route.slug],
        ] as const,
    ),
  );
  const images = model.areas.find((area) => area.segment === "images");
  const imageModels = new Set(
    model.createRoutes.filter((route) => route.areaId === images?.id).map((route) => route.slug),
  );
  const accounts: Record<string, AccountConfig> = {};
  for (const [name, account] of Object.entries(input.accounts)) {
    const at = `config.accounts.${name}`;
    account.keys.forEach((key, index) => {
      const other = owner.get(key);
      if (other !== undefined)
        problems.push(`${at}.keys[${index}]: is already a key of account ${other} (a key belongs to one account)`);
      owner.set(key, name);
    });
    const slugs = (names: readonly string[], field: string): string[] =>
      names.flatMap((name, index) => {
        const slug = slugOf.get(name);
        if (slug === undefined)
          problems.push(
            `${at}.${field}[${index}]: "${name}" is neither a model slug nor a model label of the description (${model.createRoutes.map((route) => `${route.label} ${route.slug}`).join(", ")})`,
          );
        return slug === undefined ? [] : [slug];
      });
    const retired = slugs(account.retiredModels ?? [], "retiredModels");
    const discounted = Object.entries(account.discounts ?? {});
    const discountSlugs = slugs(
      discounted.map(([name]) => name),
      "discounts",
    );
    const pool = account.dailyFreePool ?? null;
    const poolSlugs = pool ? slugs(pool.models, "dailyFreePool.models") : [];
    poolSlugs.forEach((slug, index) => {
      if (!imageModels.has(slug))
        problems.push(
          `${at}.dailyFreePool.models[${index}]: "${slug}" is no image model (the pool is of image models)`,
        );
    });
    if (account.outcome !== undefined && !model.jobStatus.terminal.includes(account.outcome)) {
      problems.push(`${at}.outcome: must be one of ${model.jobStatus.terminal.join(", ")}`);
    }
    accounts[name] = {
      keys: account.keys,
      plan: account.plan,
      credits: account.credits,
      concurrency: account.concurrency ?? model.limits.concurrency.maxOnUltra,
      monthlySpendLimit: account.monthlySpendLimit ?? null,
      retiredModels: retired,
      outcome: account.outcome ?? model.jobStatus.success,
      discounts: Object.fromEntries(discountSlugs.map((slug, index) => [slug, discounted[index]![1]])),
      dailyFreePool: pool && { generations: pool.generations, models: poolSlugs },
    };
  }
  const http: HttpLimits = { maxBodyBytes: defaultMaxBodyBytes(model), ...HTTP_DEFAULTS, ...input.http };
  if (http.maxBufferedBytes < http.maxBodyBytes)
    problems.push(
      `config.http.maxBufferedBytes: must be at least http.maxBodyBytes (${http.maxBodyBytes}), or no body of the largest size could ever be read`,
    );
  if (http.headersTimeoutSeconds > http.requestTimeoutSeconds)
    problems.push(
      `config.http.headersTimeoutSeconds: must not exceed http.requestTimeoutSeconds (${http.requestTimeoutSeconds})`,
    );
  const rates = suppliedRates(input.rates ?? {}, model, problems);
  if (problems.length) throw new ConfigError(source, problems);
  const { requests, uploads, cooldown } = model.limits;
  return {
    accounts,
    clock: { speed: input.clock?.speed ?? SANDBOX_DEFAULTS.speed },
    jobs: {
      defaultDurationSeconds: input.jobs?.defaultDurationSeconds ?? SANDBOX_DEFAULTS.jobSeconds,
      defaultRetentionHours: input.jobs?.defaultRetentionHours ?? SANDBOX_DEFAULTS.retentionHours,
    },
    media: { defaultDurationSeconds: input.media?.defaultDurationSeconds ?? SANDBOX_DEFAULTS.mediaSeconds },
    rates,
    http,
    limits: {
      requests: {
        perKey: input.limits?.requests?.perKey ?? requests.perKey,
        perSourceIp: input.limits?.requests?.perSourceIp ?? requests.perSourceIp,
        windowSeconds: input.limits?.requests?.windowSeconds ?? requests.windowSeconds,
      },
      uploads: {
        perAccount: input.limits?.uploads?.perAccount ?? uploads.perAccount,
        windowSeconds: input.limits?.uploads?.windowSeconds ?? uploads.windowSeconds,
      },
      cooldown: {
        consecutiveFailures: input.limits?.cooldown?.consecutiveFailures ?? cooldown.consecutiveFailures,
        withinSeconds: input.limits?.cooldown?.withinSeconds ?? cooldown.withinSeconds,
        pauseSeconds: input.limits?.cooldown?.pauseSeconds ?? cooldown.pauseSeconds,
        growthSeconds: input.limits?.cooldown?.growthSeconds ?? cooldown.growthSeconds,
      },
    },
  };
}

/** `config.rates` by route path, each checked as a quote takes it; a problem names the model's entry. */
function suppliedRates(
  byModel: Record<string, number | RateTable>,
  model: ServiceModel,
  problems: string[],
): SuppliedRates {
  const rates: Record<string, number | RateTable> = {};
  for (const [name, rate] of Object.entries(byModel)) {
    const route = model.createRoutes.find((candidate) => candidate.label === name || candidate.slug === name);
    if (!route) {
      problems.push(`config.rates.${name}: is neither a model slug nor a model label of the description`);
      continue;
    }
    try {
      withSuppliedRates(model.priceTables, { [route.path]: rate });
      rates[route.path] = rate;
    } catch (error) {
      if (!(error instanceof QuoteError)) throw error;
      problems.push(`config.${error.field.replace(`rates.${route.path}`, `rates.${name}`)}: ${error.rule}`);
    }
  }
  return rates;
}

/** Reads and checks a config file; unreadable or non-JSON files are ConfigErrors too. */
export function readConfigFile(file: string, model: ServiceModel): SandboxConfig {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(file, [`cannot be read (${(error as Error).message})`]);
  }
  let raw: unknown;
  try {
    raw = parseJsonText(text, file);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const { line, column, why } = error;
    throw new ConfigError(`${file}:${line}:${column}`, [`is not JSON: ${why}`]);
  }
  return resolveConfig(raw, model, file);
}
