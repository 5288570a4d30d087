/** The description's service model with one part changed, for generators' refusals. */
import type { ServiceModel } from "../../model/service-model.ts";
import { model } from "../support/description.ts";

type Variant = ServiceModel["errors"]["tooManyRequests"]["variants"][number];

/** The model with its 429 variants replaced by `change` of them. */
export function withVariants(change: (variants: readonly Variant[]) => readonly Variant[]): ServiceModel {
  const tooManyRequests = model.errors.tooManyRequests;
  return {
    ...model,
    errors: {
      ...model.errors,
      tooManyRequests: { ...tooManyRequests, variants: [...change(tooManyRequests.variants)] },
    },
  };
}

/** The model with the 429 variant of `condition` changed by `change`. */
export const withVariant = (condition: string, change: Partial<Variant>): ServiceModel =>
  withVariants((variants) =>
    variants.map((variant) => (variant.condition === condition ? { ...variant, ...change } : variant)),
  );
