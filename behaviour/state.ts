/**
 * Everything the service keeps, built from the service model, the settings and the choices: the
 * accounts, the request windows, the uploads window, the cooldowns, the jobs, the compiled request
 * schemas and the response builder. Rules and handlers read and change it (service.ts); nothing else
 * does, but for ending a job whose end the choices left open (`endJob`).
 */
import type { ValidateFunction } from "ajv/dist/2020.js";
import { deref, type JsonSchema, type Operation } from "../model/document.ts";
import { createSchemaRegistry } from "../model/schema-registry.ts";
import type { AreaModel, CreateRouteModel, OperationModel, ServiceModel } from "../model/service-model.ts";
import { createAccounts, type Account, type Accounts } from "./accounts.ts";
import type { Choices, JobTiming } from "./choices.ts";
import { Cooldowns } from "./cooldown.ts";
import { JobStore, type Job } from "./jobs.ts";
import { FixedWindows, RollingWindow } from "./rate-windows.ts";
import { Responses } from "./responses.ts";
import type { ServiceSettings } from "./settings.ts";
import type { PriceTables, RoutePricing } from "../runtime/costs/pricing.ts";
import { mediaDurations } from "./media.ts";
import { withSuppliedRates } from "../runtime/costs/supplied-rates.ts";

export interface RequestSchema {
  readonly schema: JsonSchema;
  readonly validate: ValidateFunction;
  readonly required: boolean;
}

/** The description's operation object of `op`. */
function documentOperation(model: ServiceModel, op: OperationModel): Operation {
  const found = model.doc.paths[op.path]?.[op.method];
  if (!found) throw new Error(`no ${op.method.toUpperCase()} ${op.path} in the description`);
  return found;
}

/** The request schemas of a model's operations, compiled once per model: many sandboxes may serve one description. */
const compiledRequestSchemas = new WeakMap<ServiceModel, ReadonlyMap<string, RequestSchema>>();

function requestSchemasOf(model: ServiceModel): ReadonlyMap<string, RequestSchema> {
  let schemas = compiledRequestSchemas.get(model);
  if (!schemas) {
    const registry = createSchemaRegistry(model.doc);
    const compiled = new Map<string, RequestSchema>();
    for (const op of model.operations) {
      const body = documentOperation(model, op).requestBody;
      if (!body) continue;
      const schema = body.content["application/json"]?.schema;
      if (schema)
        compiled.set(op.operationId, {
          schema: deref(model.doc, schema),
          validate: registry.compile(schema),
          required: body.required ?? false,
        });
    }
    schemas = compiled;
    compiledRequestSchemas.set(model, schemas);
  }
  return schemas;
}

export class ServiceState {
  readonly accounts: Accounts;
  readonly keyWindows: FixedWindows;
  readonly ipWindows: FixedWindows;
  readonly uploads: RollingWindow;
  readonly cooldowns: Cooldowns;
  readonly jobs: JobStore;
  readonly responses: Responses;
  readonly requestSchemas: ReadonlyMap<string, RequestSchema>;
  readonly routes = new Map<string, CreateRouteModel>();
  readonly areas = new Map<string, AreaModel & { readonly timing: JobTiming }>();
  /** The description's price tables, with the config's rates where the description's are not shown. */
  readonly priceTables: PriceTables;

  constructor(
    readonly model: ServiceModel,
    readonly config: ServiceSettings,
    readonly choices: Choices,
  ) {
    const { requests, uploads, cooldown } = config.limits;
    this.accounts = createAccounts(config);
    this.keyWindows = new FixedWindows(requests.perKey, requests.windowSeconds * 1000);
    this.ipWindows = new FixedWindows(requests.perSourceIp, requests.windowSeconds * 1000);
    this.uploads = new RollingWindow(uploads.perAccount, uploads.windowSeconds * 1000);
    this.cooldowns = new Cooldowns({
      consecutiveFailures: cooldown.consecutiveFailures,
      withinMs: cooldown.withinSeconds * 1000,
      pauseMs: cooldown.pauseSeconds * 1000,
      growthMs: cooldown.growthSeconds * 1000,
    });
    this.jobs = new JobStore(model, choices);
    this.responses = new Responses(model, choices.unshownResultField);
    this.requestSchemas = requestSchemasOf(model);
    this.priceTables = withSuppliedRates(model.priceTables, config.rates);
    for (const route of model.createRoutes) this.routes.set(route.path, route);
    for (const area of model.areas) this.areas.set(area.id, { ...area, timing: choices.timing(area) });
  }

  /** Ends a job whose end was left open (timing's runMs Infinity): at `at`, in `outcome`. */
  endJob(job: Job, outcome: string, at: number): void {
    this.jobs.end(job, outcome, at, this.areas.get(job.route.areaId)!.timing.retentionMs);
    this.accounts.byName.get(job.accountName)!.reorder();
  }

  /** What a price reads beside the body: the seconds of its priced media and the facts the body does not hold. */
  priceInputs(body: Readonly<Record<string, unknown>>, table: RoutePricing): Record<string, unknown> {
    const { choices } = this;
    return {
      ...mediaDurations(body, table.media, choices.defaultMediaSeconds, (media) => choices.mediaSeconds(media)),
      ...choices.priceFacts(body, table.facts, Object.keys(table.media)),
    };
  }

  operation(op: OperationModel): Operation {
    return documentOperation(this.model, op);
  }

  /** The cooldown counter of a key's requests on a model family: its account's, or its own (Choices.cooldownScope). */
  cooldownId(account: Account, key: string, family: string): string {
    return `${this.choices.cooldownScope === "key" ? key : account.name}\u0000${family}`;
  }

  /** Settles the account's ended jobs and drops expired ones, so every rule reads the present. */
  catchUp(account: Account | null, now: number): void {
    if (account) account.settle(now, this.model.jobStatus.success, (job) => this.ended(account, job));
    // Stryker disable next-line BlockStatement: equivalent: an account is read only by its own requests, whose authentication rule settles its ended jobs first (catchUp), so settling it here instead of then changes nothing seen
    this.jobs.expire(now, (job) => {
      const owner = this.accounts.byName.get(job.accountName)!;
      owner.settle(now, this.model.jobStatus.success, (ended) => this.ended(owner, ended));
    });
  }

  /** A job reached its terminal status: the cooldown of its family hears of it. */
  private ended(account: Account, job: Job): void {
    const family = job.route.family;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent while the description has one model family: a job of no family would be counted under an id no rule reads
    if (family === null || family !== this.model.limits.cooldown.family) return;
    const id = this.cooldownId(account, job.key, family);
    const { success, timeout } = this.model.jobStatus;
    if (job.outcome === success) this.cooldowns.succeeded(id);
    else if (this.choices.cooldownCounts === "unsuccessful" || job.outcome !== timeout)
      this.cooldowns.failed(id, job.endAt);
  }
}
