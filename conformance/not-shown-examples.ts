/**
 * The stand-ins of the description's examples: the values its error examples hold where a response's
 * x-not-shown says the specification shows no `error.type` / `error.code` (`(not shown)`). A mock answering
 * with the examples sends them; the production client reads them as any other value, so what
 * compares a mock's answers with the specification knows them from here.
 */
import { deref } from "../model/document.ts";
import type { ServiceModel } from "../model/service-model.ts";

/** Example values of `error.type` / `error.code` on responses whose x-not-shown says they are not shown, less the shown ones. */
export function notShownPlaceholders(model: ServiceModel): string[] {
  const { doc, errors } = model;
  const shown = new Set([
    errors.invalidRequest.type,
    errors.invalidRequest.code,
    errors.retired.code,
    ...errors.tooManyRequests.variants.flatMap((variant) => [variant.type, variant.code]),
  ]);
  const found = new Set<string>();
  for (const response of Object.values(doc.components.responses ?? {})) {
    const notShown = ((response as { "x-not-shown"?: Record<string, string> })["x-not-shown"] ?? {}) as Record<
      string,
      string
    >;
    const fields = (["type", "code"] as const).filter((field) => `error-${field}` in notShown);
    for (const example of Object.values(response.content?.["application/json"]?.examples ?? {})) {
      const error = deref<{ value?: { error?: Record<string, unknown> } }>(doc, example as { $ref: string }).value
        ?.error;
      for (const field of fields) {
        const value = error?.[field];
        if (typeof value === "string" && !shown.has(value)) found.add(value);
      }
    }
  }
  return [...found].sort();
}
