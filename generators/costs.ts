/** Cost tables and the offline quote (generated/costs.ts), and the price page (docs/pricing.md). */
import type { OpenApiDocument } from "../model/document.ts";
import { costsModule } from "./costs/costs-module.ts";
import { pricingPage } from "./costs/pricing-page.ts";
import { priceTables } from "./costs/route-tables.ts";

export function generate(doc: OpenApiDocument): Record<string, string> {
  const tables = priceTables(doc);
  return { "generated/costs.ts": costsModule(tables), "docs/pricing.md": pricingPage(tables) };
}
