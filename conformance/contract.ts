/**
 * The conformance suite's view of the bundled description: each operation with its route, area,
 * model label, request schema and examples, and the facts the stateful checks read (job statuses,
 * links). Everything here is read from generated/openapi.json, nothing is listed by hand.
 */
import {
  deref,
  loadBundle,
  operations,
  type HttpMethod,
  type JsonSchema,
  type OpenApiDocument,
  type Operation,
  type ResponseObject,
} from "../model/document.ts";
import { createSchemaRegistry, type SchemaRegistry } from "../model/schema-registry.ts";

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
  path: string;
  method: HttpMethod;
  operation: Operation;
  /** `POST /v1/images/i-a` */
  route: string;
  /** First path segment after /v1: `images`, `videos`, `stock`, ... */
  area: string;
  /** x-model-label of a create operation. */
  model?: string;
  parameters: Parameter[];
  requestSchema?: JsonSchema;
  requestExamples: NamedExample[];
  responses: Record<string, ResponseObject>;
}

export interface JobStatusFacts {
  values: string[];
  terminal: string[];
}

export class Contract {
  readonly registry: SchemaRegistry;
  readonly operations: ContractOperation[];
  readonly jobStatus: JobStatusFacts;

  constructor(readonly doc: OpenApiDocument = loadBundle()) {
    this.registry = createSchemaRegistry(doc);
    this.operations = operations(doc).map(({ path, method, operation }) => this.describe(path, method, operation));
    this.jobStatus = findJobStatus(doc);
  }

  byOperationId(operationId: string): ContractOperation | undefined {
    return this.operations.find((op) => op.operation.operationId === operationId);
  }

  /** Follows `$ref`s, e.g. a named example or a header. */
  deref<T>(value: T | { $ref: string }): T {
    return deref(this.doc, value);
  }

  private describe(path: string, method: HttpMethod, operation: Operation): ContractOperation {
    const media = operation.requestBody?.content["application/json"];
    const responses: Record<string, ResponseObject> = {};
    for (const [status, response] of Object.entries(operation.responses)) responses[status] = this.deref(response);
    const label = operation["x-model-label"];
    return {
      path,
      method,
      operation,
      route: `${method.toUpperCase()} ${path}`,
      area: path.split("/")[2] ?? "",
      ...(typeof label === "string" ? { model: label } : {}),
      parameters: (operation.parameters ?? []).map((parameter) => this.deref(parameter) as Parameter),
      ...(media?.schema ? { requestSchema: this.deref(media.schema) } : {}),
      requestExamples: Object.entries(media?.examples ?? {}).map(([name, example]) => ({
        name,
        value: this.deref(example).value,
      })),
      responses,
    };
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
}

/** The status enum is the schema that carries `x-terminal-values`. */
function findJobStatus(doc: OpenApiDocument): JobStatusFacts {
  for (const schema of Object.values(doc.components.schemas ?? {})) {
    const terminal = schema["x-terminal-values"];
    if (Array.isArray(terminal)) return { values: schema.enum as string[], terminal: terminal as string[] };
  }
  throw new Error("no schema with x-terminal-values in the description");
}

/** Fills path parameters from `values` (or their examples) and adds required query parameters. */
export function requestPath(contract: Contract, op: ContractOperation, values: Record<string, unknown> = {}): string {
  let path = op.path;
  const query = new URLSearchParams();
  for (const parameter of op.parameters) {
    const value = values[parameter.name] ?? contract.parameterExample(parameter);
    if (parameter.in === "path") path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
    else if (parameter.in === "query" && parameter.required && value !== undefined) query.set(parameter.name, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}
