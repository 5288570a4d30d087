/**
 * The example request of an operation, read off the description: the path with its parameters
 * filled from their examples, the query parameters that have examples, and the first named
 * request-body example. Both code samples (curl and the typed client) are built from it.
 */
import { deref, type OpenApiDocument, type Operation } from "../model/document.ts";

interface Parameter {
  name: string;
  in: string;
  example?: unknown;
  examples?: Record<string, { value?: unknown; $ref?: string }>;
}

export interface RequestExample {
  method: string;
  /** The path as written in the description, e.g. `/v1/images/{id}`. */
  template: string;
  /** Path parameter name -> example value. */
  pathParams: Record<string, string>;
  /** Query parameter name -> example value, only for parameters that have an example. */
  query: Record<string, string>;
  /** The request body example; undefined when the operation takes no body. */
  body: unknown;
}

export function requestExample(
  doc: OpenApiDocument,
  template: string,
  method: string,
  operation: Operation,
): RequestExample {
  const pathParams: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const raw of operation.parameters ?? []) {
    const parameter = deref(doc, raw as Parameter);
    const value = parameterExample(doc, parameter);
    if (parameter.in === "path") {
      if (value === undefined)
        throw new Error(`${method.toUpperCase()} ${template}: path parameter ${parameter.name} has no example`);
      pathParams[parameter.name] = String(value);
    } else if (parameter.in === "query" && value !== undefined) {
      query[parameter.name] = String(value);
    }
  }
  return { method, template, pathParams, query, body: bodyExample(doc, operation) };
}

/** The concrete request path with path parameters filled in and the example query appended. */
export function examplePath(request: RequestExample): string {
  const path = request.template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(request.pathParams[name] ?? name),
  );
  const search = new URLSearchParams(request.query).toString();
  return search ? `${path}?${search}` : path;
}

function parameterExample(doc: OpenApiDocument, parameter: Parameter): unknown {
  if (parameter.example !== undefined) return parameter.example;
  const first = Object.values(parameter.examples ?? {})[0];
  return first === undefined ? undefined : deref(doc, first).value;
}

function bodyExample(doc: OpenApiDocument, operation: Operation): unknown {
  const media = operation.requestBody?.content["application/json"];
  if (!media) return undefined;
  const first = Object.values(media.examples ?? {})[0];
  if (first === undefined) throw new Error(`${operation.operationId}: the JSON request body has no named example`);
  return deref(doc, first).value;
}
