/**
 * The conformance suite's view of the description: the service model's facts (model/service-model.ts:
 * areas, create and poll routes, job statuses, errors, limits, prices) joined with what only the
 * suite reads from the document itself, each operation's parameters, request schema, named
 * examples and documented responses. Nothing here restates a fact the model reads.
 */
import {
  deref,
  loadBundle,
  type HttpMethod,
  type JsonSchema,
  type OpenApiDocument,
  type Operation,
  type ResponseObject,
} from "../model/document.ts";
import { createSchemaRegistry, type SchemaRegistry } from "../model/schema-registry.ts";
import { withSuppliedRates, type SuppliedRates } from "../runtime/costs/supplied-rates.ts";
import { negativeCases, type NegativeCaseSet } from "./bodies/negative-cases.ts";
import { mediaFormProblem } from "./bodies/media-forms.ts";
import {
  readServiceModel,
  type AreaModel,
  type CreateRouteModel,
  type OperationModel,
  type ServiceModel,
} from "../model/service-model.ts";

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { value?: unknown; $ref?: string }>;
}

export interface NamedExample {
  name: string;
  value: unknown;
}

export interface ContractOperation {
  readonly facts: OperationModel;
  readonly path: string;
  readonly method: HttpMethod;
  readonly operation: Operation;
  /** `POST /v1/images/i-a` */
  readonly route: string;
  /** What a declaration's `areas` names: the model area's path segment, else the first segment after /v1. */
  readonly area: string;
  /** The create route's facts (label, id field, ...) on create operations. */
  readonly create?: CreateRouteModel;
  /** The area whose poll route this is, on poll operations. */
  readonly polls?: AreaModel;
  readonly parameters: Parameter[];
  readonly requestSchema?: JsonSchema;
  readonly requestExamples: NamedExample[];
  readonly responses: Record<string, ResponseObject>;
}

export class Contract {
  readonly model: ServiceModel;
  readonly registry: SchemaRegistry;
  readonly operations: ContractOperation[];
  private readonly negatives = new Map<ContractOperation, NegativeCaseSet>();
  private readonly validators = new Map<ContractOperation, (body: unknown) => boolean>();

  /** The contract of the bundle, or of another document (a snapshot, a variant in a test). */
  constructor(readonly doc: OpenApiDocument = loadBundle()) {
    this.model = readServiceModel(doc);
    this.registry = createSchemaRegistry(doc);
    this.operations = this.model.operations.map((facts) => this.describe(facts));
  }

  /**
   * This contract with a target's own rates filled in where the description marks a rate not shown
   * (runtime/costs/supplied-rates.ts): the same operations, its price tables quoting those routes.
   */
  withRates(rates: SuppliedRates): Contract {
    if (Object.keys(rates).length === 0) return this;
    const variant = Object.create(this) as Contract;
    const model = { ...this.model, priceTables: withSuppliedRates(this.model.priceTables, rates) };
    Object.defineProperty(variant, "model", { value: model });
    return variant;
  }

  /** Follows `$ref`s, e.g. a named example or a header. */
  deref<T>(value: T | { $ref: string }): T {
    return deref(this.doc, value);
  }

  byOperationId(operationId: string): ContractOperation | undefined {
    return this.operations.find((op) => op.facts.operationId === operationId);
  }

  byPath(method: string, path: string): ContractOperation | undefined {
    return this.operations.find((op) => op.method === method && op.path === path);
  }

  /** The poll operation of a create operation's area. */
  pollOf(create: ContractOperation): ContractOperation | undefined {
    const area = this.model.areas.find((candidate) => candidate.id === create.create?.areaId);
    return area ? this.byPath("get", area.poll.path) : undefined;
  }

  /** The negative request bodies of an operation (none without a request schema), computed once. */
  negativeCases(op: ContractOperation): NegativeCaseSet {
    let set = this.negatives.get(op);
    if (!set) {
      set = op.requestSchema
        ? negativeCases(
            op.requestSchema,
            op.requestExamples.map((example) => example.value),
            this.registry,
          )
        : { cases: [], uncovered: [] };
      this.negatives.set(op, set);
    }
    return set;
  }

  /**
   * Whether `body` is valid against the operation's request schema (compiled once), its media
   * fields in forms they take (`x-media.forms`; the schema holds the URL-only rule too, `MediaUrl`); true without one.
   */
  validBody(op: ContractOperation, body: unknown): boolean {
    if (!op.requestSchema) return true;
    let valid = this.validators.get(op);
    // Stryker disable next-line ConditionalExpression: the registry compiles each schema object once, so a closure built again validates the same
    if (!valid) {
      const validate = this.registry.compile(op.requestSchema);
      valid = (candidate: unknown): boolean => validate(candidate) === true;
      this.validators.set(op, valid);
    }
    return valid(body) && mediaFormProblem(op.requestSchema, body) === null;
  }

  /** The named examples of one response, dereferenced. */
  responseExamples(response: ResponseObject): NamedExample[] {
    const examples = response.content?.["application/json"]?.examples ?? {};
    return Object.entries(examples).map(([name, example]) => ({ name, value: this.deref(example).value }));
  }

  /** A value for a parameter from its `example` or first named example. */
  parameterExample(parameter: Parameter): unknown {
    if (parameter.example !== undefined) return parameter.example;
    const first = Object.values(parameter.examples ?? {})[0];
    return first ? this.deref(first).value : undefined;
  }

  private describe(facts: OperationModel): ContractOperation {
    const { path, method } = facts;
    const operation = this.doc.paths[path]?.[method] as Operation;
    const media = operation.requestBody?.content["application/json"];
    const responses: Record<string, ResponseObject> = {};
    for (const [status, response] of Object.entries(operation.responses)) responses[status] = this.deref(response);
    const area = this.model.areas.find((candidate) => candidate.id === facts.areaId);
    const create = facts.kind === "create" ? this.model.createRoutes.find((route) => route.path === path) : undefined;
    return {
      facts,
      path,
      method,
      operation,
      route: `${method.toUpperCase()} ${path}`,
      area: area?.segment ?? path.split("/")[2] ?? "",
      ...(create ? { create } : {}),
      ...(facts.kind === "poll" && area ? { polls: area } : {}),
      parameters: (operation.parameters ?? []).map((parameter) => this.deref(parameter) as Parameter),
      ...(media?.schema ? { requestSchema: this.deref(media.schema) } : {}),
      requestExamples: Object.entries(media?.examples ?? {}).map(([name, example]) => ({
        name,
        value: this.deref(example).value,
      })),
      responses,
    };
  }
}

/** Fills path parameters from `values` (or their examples) and adds required query parameters. */
export function requestPath(contract: Contract, op: ContractOperation, values: Record<string, unknown> = {}): string {
  let path = op.path;
  const query = new URLSearchParams();
  for (const parameter of op.parameters) {
    const value = values[parameter.name] ?? contract.parameterExample(parameter);
    if (parameter.in === "path") path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
    else if (parameter.in === "query" && parameter.required && value !== undefined)
      query.set(parameter.name, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}
