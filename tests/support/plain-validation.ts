/**
 * The description as tools outside this repository read it: plain JSON Schema 2020-12 validation of
 * the bundle (Ajv, as express-openapi-validator, openapi-backend or Prism validate request bodies),
 * with none of our extensions' readers. And the request bodies the conformance suite sends that
 * must be refused: the static negatives (contract/bodies/negative-cases.ts) and the generated near
 * misses (conformance/generation/), coverage cases and seeded ones.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Contract, ContractOperation } from "../../contract/contract.ts";
import { deref, type OpenApiDocument, type ResponseObject } from "../../model/document.ts";
import {
  coverageCases,
  drawn,
  effectiveNearMisses,
  negativeArbitrary,
  operationSeed,
} from "../../conformance/generation/generated.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const BUNDLE_ID = "https://bundle.invalid/openapi.json";

/** A pointer segment. */
const segment = (key: string): string => key.replace(/~/g, "~0").replace(/\//g, "~1");

export interface PlainValidation {
  /** The validator of the schema at a JSON pointer of the bundle (`/components/schemas/ImageJob`). */
  at(pointer: string): ValidateFunction;
  /** The request body validator of an operation. */
  request(op: Pick<ContractOperation, "path" | "method">): ValidateFunction;
}

/** Plain Ajv 2020-12 over the bundle as it is, each schema compiled once. */
export function plainValidation(doc: OpenApiDocument): PlainValidation {
  // strict: false, as a generic validator reading an OpenAPI document must be: it knows none of the x- keywords.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: BUNDLE_ID });
  const compiled = new Map<string, ValidateFunction>();
  const at = (pointer: string): ValidateFunction => {
    let validate = compiled.get(pointer);
    if (!validate) compiled.set(pointer, (validate = ajv.compile({ $ref: `${BUNDLE_ID}#${pointer}` })));
    return validate;
  };
  return {
    at,
    request: (op) => at(`/paths/${segment(op.path)}/${op.method}/requestBody/content/application~1json/schema`),
  };
}

/** The pointer of each JSON response schema of the bundle that has named examples, with those examples. */
export function responseExamples(
  doc: OpenApiDocument,
): Array<{ where: string; schema: string; examples: Array<{ name: string; value: unknown }> }> {
  const found = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, { responses?: Record<string, unknown> }>)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const ref = (response as { $ref?: string }).$ref;
        const pointer = ref ? ref.slice(1) : `/paths/${segment(path)}/${method}/responses/${status}`;
        const media = deref<ResponseObject>(doc, response as ResponseObject).content?.["application/json"];
        if (!media?.schema || !media.examples) continue;
        found.push({
          where: `${method.toUpperCase()} ${path} ${status}`,
          schema: `${pointer}/content/application~1json/schema`,
          examples: Object.entries(media.examples).map(([name, example]) => ({
            name,
            value: deref<{ value?: unknown }>(doc, example as { $ref: string }).value,
          })),
        });
      }
    }
  }
  return found;
}

export interface RefusedBody {
  readonly op: ContractOperation;
  /** `near miss other-form`, `static enum`: where it comes from and what kind it is. */
  readonly kind: string;
  readonly rule: string;
  readonly body: unknown;
}

/** Seeds of the generated cases tried besides the coverage cases, each with its cases per operation. */
const SEEDS = [1, 2, 3];
const CASES = 10;

/** The near misses the suite sends to `op` (coverage cases, then seeded ones), and with `statics` its static negatives. */
export function negativesOf(contract: Contract, op: ContractOperation, statics = false): RefusedBody[] {
  if (!op.requestSchema) return [];
  const found: RefusedBody[] = statics
    ? contract.negativeCases(op).cases.map((negative) => ({
        op,
        kind: `static ${negative.constraint.keyword}`,
        rule: negative.rule,
        body: negative.body,
      }))
    : [];
  const misses = effectiveNearMisses(contract, op);
  const generated = [
    ...coverageCases(contract, op, misses),
    ...SEEDS.flatMap((seed) => {
      const arbitrary = negativeArbitrary(contract, op, misses);
      return arbitrary ? drawn(arbitrary, operationSeed(seed, op), CASES) : [];
    }),
  ];
  for (const negative of generated)
    found.push({ op, kind: `near miss ${negative.miss.kind}`, rule: negative.miss.rule, body: negative.body });
  return found;
}
