/**
 * The bodies the sandbox sends, built from the service model so that each validates against the
 * description. Where the description leaves a type or code unshown, the sandbox's own choice is
 * named here once (SANDBOX_CODES) and listed in sandbox/README.md.
 */
import { HTTP_CODES } from "../http-server/error-codes.ts";
import { deref, type JsonSchema, type ResponseObject } from "../model/document.ts";
import type { AreaModel, CreateRouteModel, ServiceModel, TooManyVariant } from "../model/service-model.ts";
import type { Balance } from "./ledger.ts";
import type { Job } from "./jobs.ts";

export interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Error types and codes the specification does not show: the sandbox's choice, and the serving layer's (http-server/). */
export const SANDBOX_CODES = {
  ...HTTP_CODES,
  unauthorized: { type: "authentication_error", code: "invalid_api_key" },
  forbidden: { type: "permission_error", code: "not_permitted" },
  insufficientCredits: { type: "permission_error", code: "insufficient_credits" },
  internal: { type: "api_error", code: "sandbox_error" },
  "queue-full": { code: "queue_full" },
  "spend-limit": { code: "spend_limit_reached" },
  cooldown: { code: "model_family_cooldown" },
} as const;

interface CreateFacts {
  readonly route: CreateRouteModel;
  readonly job: Job;
  /** The billed seconds of a per-second price. */
  readonly seconds: number;
  readonly initial: string;
  readonly message: string;
}

const idValue = (route: CreateRouteModel, job: Job): string | number =>
  route.idType === "integer" ? Number(job.id) : job.id;

/** What each create-response field holds; `id` is the job id where the route's own id field is not shown. */
const CREATE_VALUES = {
  id: ({ route, job }: CreateFacts) => idValue(route, job),
  status: ({ initial }: CreateFacts) => initial,
  message: ({ message }: CreateFacts) => message,
  model: ({ route }: CreateFacts) => route.slug,
  credits: ({ job }: CreateFacts) => job.credits,
  seconds: ({ seconds }: CreateFacts) => seconds,
  estimated_time: ({ job }: CreateFacts) => `${Math.ceil((job.endAt - job.createdAt) / 1000)}s`,
} as const;

/** Where result files would be: a reserved domain, since the sandbox makes no media. */
const FILES = "https://files.sandbox.invalid";

export class Responses {
  private readonly variants: ReadonlyMap<TooManyVariant["condition"], TooManyVariant>;
  /** The create response fields every route whose shape is shown requires: the shape used where none is shown. */
  private readonly commonCreateFields: readonly string[];

  constructor(
    private readonly model: ServiceModel,
    /** Choices.unshownResultField: where a succeeded poll whose schema names no result field gives its URL. */
    private readonly unshownResultField?: string,
  ) {
    this.variants = new Map(model.errors.tooManyRequests.variants.map((variant) => [variant.condition, variant]));
    const shown = model.createRoutes.filter((route) => route.idType === "string" && route.responseFields.length > 0);
    this.commonCreateFields = shown.length
      ? shown
          .map((route) => route.responseFields)
          .reduce((common, fields) => common.filter((field) => fields.includes(field)))
      : [];
    for (const route of model.createRoutes) {
      const unknown = this.createFields(route).filter((field) => field !== route.idField && !(field in CREATE_VALUES));
      if (unknown.length)
        throw new Error(`the sandbox cannot fill the create response field(s) ${unknown.join(", ")} of ${route.path}`);
    }
  }

  error(status: number, type: string, code: string, message: string, headers?: Record<string, string>): Reply {
    return { status, body: { error: { type, code, message } }, ...(headers ? { headers } : {}) };
  }

  invalidRequest(message: string): Reply {
    const { status, type, code } = this.model.errors.invalidRequest;
    return this.error(status, type, code, message);
  }

  moderationBlock(reason: string): Reply {
    const { status, messageField, reasonField } = this.model.errors.moderation;
    return {
      status,
      body: { [messageField]: "The request was blocked by input content moderation.", [reasonField]: reason },
    };
  }

  unauthorized(message: string): Reply {
    const { type, code } = SANDBOX_CODES.unauthorized;
    return this.error(this.model.errors.unauthorized.status, type, code, message);
  }

  forbidden(message: string, codes: { type: string; code: string } = SANDBOX_CODES.forbidden): Reply {
    return this.error(this.model.errors.forbidden.status, codes.type, codes.code, message);
  }

  retired(slug: string): Reply {
    const { status, code } = this.model.errors.retired;
    return this.error(
      status,
      this.model.errors.invalidRequest.type,
      code,
      `The model ${slug} is retired; use a current model of the same kind.`,
    );
  }

  /** A 429 of `condition`, with Retry-After exactly where its variant sends it. */
  tooMany(condition: TooManyVariant["condition"], message: string, retryAfterSeconds?: number): Reply {
    const variant = this.variants.get(condition);
    if (!variant) throw new Error(`the description has no 429 variant for ${condition}`);
    const rateLimited = this.variants.get("rate-limited");
    const type = variant.type ?? rateLimited?.type ?? this.model.errors.invalidRequest.type;
    const code = variant.code ?? SANDBOX_CODES[condition as Exclude<typeof condition, "rate-limited">].code;
    const body: Record<string, unknown> = { error: { type, code, message } };
    if (variant.secondsField !== null) body[variant.secondsField] = retryAfterSeconds ?? 0;
    const headers =
      variant.retryAfter && retryAfterSeconds !== undefined
        ? { [this.model.retryAfterHeader]: String(retryAfterSeconds) }
        : undefined;
    return { status: this.model.errors.tooManyRequests.status, body, ...(headers ? { headers } : {}) };
  }

  /** The create response's fields: those its schema requires, or the common shape where none is shown. */
  private createFields(route: CreateRouteModel): readonly string[] {
    const fields = route.responseFields.length ? route.responseFields : this.commonCreateFields;
    return route.idField === null || fields.includes(route.idField) ? fields : [route.idField, ...fields];
  }

  created(route: CreateRouteModel, job: Job, seconds: number, initial: string): Reply {
    const body: Record<string, unknown> = {};
    const facts: CreateFacts = { route, job, seconds, initial, message: this.acceptedMessage(route) };
    for (const field of this.createFields(route)) {
      body[field] =
        field === route.idField ? idValue(route, job) : CREATE_VALUES[field as keyof typeof CREATE_VALUES](facts);
    }
    return { status: 200, body };
  }

  /**
   * The poll response: the status, and exactly when the job succeeded every result field the poll
   * schema names (required or not: `images[].position`, 3D `files`), shaped by the schema and, where
   * it leaves a type unshown, by the description's success example. A schema that names no result
   * field gets the URL under the unshown-result choice, if any.
   */
  job(area: AreaModel, job: Job, status: string): Reply {
    const body: Record<string, unknown> = { status };
    if (status === this.model.jobStatus.success) {
      const { properties, example } = this.pollShape(area);
      const fields = Object.keys(properties).filter((name) => name !== "status");
      if (fields.length === 0 && this.unshownResultField)
        body[this.unshownResultField] = `${FILES}/${job.id}/${this.unshownResultField}`;
      for (const field of fields) {
        body[field] = resultValue(
          properties[field]!,
          example[field],
          `${FILES}/${job.id}/${field}`,
          job.outputs,
          0,
          this.model,
        );
      }
    }
    return { status: 200, body };
  }

  credits(balance: Balance): Reply {
    return {
      status: 200,
      body: {
        extra_credits: balance.extra,
        monthly_limit: balance.monthlyLimit,
        monthly_remaining: balance.monthlyRemaining,
        monthly_used: balance.monthlyUsed,
        total_available: balance.totalAvailable,
      },
    };
  }

  /** The first sentence of the create route's 200 description ("Job accepted."). */
  private acceptedMessage(route: CreateRouteModel): string {
    const ok = this.model.doc.paths[route.path]?.post?.responses["200"];
    const description = ok ? deref<ResponseObject>(this.model.doc, ok).description : "";
    return /^[^.]*\./.exec(description)?.[0] ?? description;
  }

  /** The poll schema's properties and its success example's value ({} where none is shown). */
  private pollShape(area: AreaModel): { properties: Record<string, JsonSchema>; example: Record<string, unknown> } {
    const ok = this.model.doc.paths[area.poll.path]?.get?.responses["200"];
    const content = ok ? deref<ResponseObject>(this.model.doc, ok).content?.["application/json"] : undefined;
    const schema = content?.schema ? deref<JsonSchema>(this.model.doc, content.schema) : undefined;
    const examples = Object.values(content?.examples ?? {}).map(
      (example) => deref<{ value?: unknown }>(this.model.doc, example).value as Record<string, unknown> | undefined,
    );
    const succeeded = examples.find((value) => value?.status === this.model.jobStatus.success);
    return { properties: (schema?.properties ?? {}) as Record<string, JsonSchema>, example: succeeded ?? {} };
  }
}

/** The JSON type of an example value, for a field whose schema leaves its type unshown. */
function exampleType(example: unknown): string | undefined {
  if (Array.isArray(example)) return "array";
  if (example === null || example === undefined) return undefined;
  return typeof example === "object" ? "object" : typeof example;
}

/**
 * A value for a result field from its schema (or, where the type is not shown, its example's):
 * file URLs for strings, one item per output for arrays, every named property of objects, and for
 * numbers the item's position in its array.
 */
function resultValue(
  schema: JsonSchema,
  example: unknown,
  url: string,
  outputs: number,
  position: number,
  model: ServiceModel,
): unknown {
  const resolved = deref<JsonSchema>(model.doc, schema);
  const type = resolved.type ?? exampleType(example);
  if (type === "array") {
    const items = (resolved.items ?? {}) as JsonSchema;
    const item = Array.isArray(example) ? example[0] : undefined;
    return Array.from({ length: Math.max(1, outputs) }, (_, index) =>
      resultValue(items, item, `${url}/${index}`, 1, index, model),
    );
  }
  if (type === "object") {
    const properties = (resolved.properties ?? {}) as Record<string, JsonSchema>;
    const shown = (example ?? {}) as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        resultValue(property, shown[name], url, outputs, position, model),
      ]),
    );
  }
  if (type === "number" || type === "integer") return position;
  if (type === "boolean") return typeof example === "boolean" ? example : true;
  return url;
}
