/**
 * Checks one response against what the description documents for its operation: the status is
 * documented, the body is JSON under a JSON `Content-Type` and validates against that status's
 * schema (our own Ajv 2020-12 registry, in-process, independent of Prism), and every declared
 * header is present where required and well-typed.
 */
import type { JsonSchema, ResponseObject } from "../model/document.ts";
import { describeErrors } from "../model/schema-registry.ts";
import type { Contract, ContractOperation } from "../contract/contract.ts";
import type { Exchange } from "./http.ts";

export function documentedResponse(op: ContractOperation, status: number): ResponseObject | undefined {
  return op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
}

/** Body problems of `json` against `schema`, as one line, or "" when it validates. */
export function schemaProblems(contract: Contract, schema: JsonSchema, json: unknown): string {
  const validate = contract.registry.compile(schema);
  return validate(json) ? "" : describeErrors(validate.errors);
}

/** The parts of an exchange a response is judged by. */
export type Answer = Pick<Exchange, "status" | "headers" | "text" | "json">;

export function responseProblems(contract: Contract, op: ContractOperation, exchange: Answer): string[] {
  const response = documentedResponse(op, exchange.status);
  if (!response) {
    return [`status ${exchange.status} is not documented (documented: ${Object.keys(op.responses).join(", ")})`];
  }
  return [...bodyProblems(contract, response, exchange), ...headerProblems(contract, response, exchange)];
}

/** `application/json` or a `+json` type, parameters such as charset allowed. */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

function bodyProblems(contract: Contract, response: ResponseObject, exchange: Answer): string[] {
  const schema = response.content?.["application/json"]?.schema;
  if (!schema) return [];
  const type = exchange.headers.get("content-type");
  const typeProblems =
    type !== null && JSON_MEDIA_TYPE.test(type)
      ? []
      : [`Content-Type of ${exchange.status} is ${type === null ? "missing" : `"${type}"`}, not application/json`];
  if (exchange.json === undefined)
    return [...typeProblems, `body of ${exchange.status} is not JSON: ${exchange.text.slice(0, 200)}`];
  const problems = schemaProblems(contract, contract.deref(schema), exchange.json);
  return problems
    ? [...typeProblems, `body of ${exchange.status} does not match its schema: ${problems}`]
    : typeProblems;
}

function headerProblems(contract: Contract, response: ResponseObject, exchange: Answer): string[] {
  const problems: string[] = [];
  for (const [name, ref] of Object.entries(response.headers ?? {})) {
    const header = contract.deref(ref) as { required?: boolean; schema?: JsonSchema };
    const value = exchange.headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`required header ${name} is missing`);
      continue;
    }
    if (!header.schema) continue;
    const validate = contract.registry.compile(header.schema);
    if (!validate(headerValue(header.schema, value))) {
      problems.push(`header ${name}: "${value}" ${describeErrors(validate.errors)}`);
    }
  }
  return problems;
}

/** Header values are text; a numeric schema reads the text as a number only when it is one. */
function headerValue(schema: JsonSchema, value: string): unknown {
  const numeric = schema.type === "integer" || schema.type === "number";
  return numeric && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
}
