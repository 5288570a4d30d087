/**
 * Everything the sandbox keeps while it runs, built from the service model and the config: the
 * accounts, the request windows, the uploads window, the cooldowns, the jobs, the compiled request
 * schemas and the response builder. Rules and handlers read and change it; nothing else does.
 */
import type { ValidateFunction } from "ajv/dist/2020.js";
import { deref, type JsonSchema, type Operation } from "../model/document.ts";
import { createSchemaRegistry } from "../model/schema-registry.ts";
import type { AreaModel, CreateRouteModel, OperationModel, ServiceModel } from "../model/service-model.ts";
import { createAccounts, type Account, type Accounts } from "./accounts.ts";
import type { Clock } from "./clock.ts";
import type { SandboxConfig } from "./config.ts";
import { Cooldowns } from "./cooldown.ts";
import { JobStore, timingOf, type Job, type JobTiming } from "./jobs.ts";
import { FixedWindows, RollingWindow } from "./rate-windows.ts";
import { Responses } from "./responses.ts";
import type { PriceTables } from "../runtime/costs/pricing.ts";
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

export class SandboxState {
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
    readonly config: SandboxConfig,
    readonly clock: Clock,
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
    this.jobs = new JobStore(model);
    this.responses = new Responses(model);
    this.requestSchemas = requestSchemasOf(model);
    this.priceTables = withSuppliedRates(model.priceTables, config.rates);
    for (const route of model.createRoutes) this.routes.set(route.path, route);
    const { speed } = config.clock;
    for (const area of model.areas) {
      this.areas.set(area.id, {
        ...area,
        timing: timingOf(area, speed, config.jobs.defaultDurationSeconds, config.jobs.defaultRetentionHours),
      });
    }
  }

  operation(op: OperationModel): Operation {
    return documentOperation(this.model, op);
  }

  /** The cooldown counter of an account on a model family. */
  cooldownId(account: Account, family: string): string {
    return `${account.name}\u0000${family}`;
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
    const id = this.cooldownId(account, family);
    if (job.outcome === this.model.jobStatus.success) this.cooldowns.succeeded(id);
    else this.cooldowns.failed(id, job.endAt);
  }
}
