import type { ErrorObject } from "ajv/dist/2020.js";

/**
 * Ajv's errors as distinct sentences, each `<name><instance path> <message>`, with the allowed
 * values where an enum names them, so a finding says what to write instead.
 */
export function explainErrors(name: string, errors: readonly ErrorObject[]): string[] {
  const sentences = errors.map((error) => {
    const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
    return `${name}${error.instancePath} ${error.message ?? error.keyword}${allowed ? ` (${allowed.join(", ")})` : ""}`;
  });
  return [...new Set(sentences)];
}
