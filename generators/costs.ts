/** Cost tables and the offline quote (generated/costs.ts), and the price page (docs/pricing.md). */
import type { ServiceModel } from "../model/service-model.ts";
import { costsModule } from "./costs/costs-module.ts";
import { pricingPage } from "./costs/pricing-page.ts";

export function generate({ priceTables: tables }: ServiceModel): Record<string, string> {
  return { "generated/costs.ts": costsModule(tables), "docs/pricing.md": pricingPage(tables) };
}
