/**
 * Request bodies against the description's request schemas (Ajv, JSON Schema 2020-12), the way a
 * team implementing the published description would check them. Vendor extensions are ignored; the
 * first problem is named in the 400's message.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";

type Schema = Record<string, unknown>;

const DOCUMENT_ID = "urn:independent:description";

function describe(error: ErrorObject): string {
  const where = error.instancePath ? error.instancePath.slice(1).replaceAll("/", ".") : "body";
  if (error.keyword === "additionalProperties")
    return `${where}: unknown field "${String(error.params.additionalProperty)}"`;
  if (error.keyword === "enum")
    return `${where}: must be one of ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ")}`;
  return `${where} ${error.message ?? "is invalid"}`;
}

export class BodyValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: object) {
    this.ajv.addSchema({ ...(document as Schema), $id: DOCUMENT_ID });
  }

  /** The first problem of `body` for the JSON request schema of `method path`, or undefined. */
  problem(method: string, path: string, body: unknown): string | undefined {
    let validate = this.compiled.get(`${method} ${path}`);
    if (!validate) {
      const pointer = `#/paths/${path.replaceAll("~", "~0").replaceAll("/", "~1")}/${method}/requestBody/content/application~1json/schema`;
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
      this.compiled.set(`${method} ${path}`, validate);
    }
    return validate(body) ? undefined : describe(validate.errors![0]!);
  }
}
