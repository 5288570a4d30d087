/**
 * When each operation is charged, for the billing guide: the charging mode of its x-pricing with
 * that mode's meaning from the extension's definition; "price not shown" only where the
 * description marks it so; and "no price stated" where it records neither, so the guide never
 * claims a marker the description does not carry.
 */
import extensions from "../model/extensions.schema.json" with { type: "json" };
import { operations, type OpenApiDocument, type Operation } from "../model/document.ts";

export const PRICE_NOT_SHOWN = "price not shown";
export const NO_PRICE_STATED = "no price stated";

const CHARGED = extensions.$defs["x-pricing"].properties.charged;

/**
 * Each charging mode's meaning, read off its definition ("on-success: only when ...; free: never.");
 * the build fails when a mode has none.
 */
export function chargedMeanings(charged: { description: string; enum: string[] } = CHARGED): Map<string, string> {
  const meanings = new Map(
    charged.description
      .replace(/\.$/, "")
      .split("; ")
      .map((part) => [part.slice(0, part.indexOf(": ")), part.slice(part.indexOf(": ") + 2)] as const),
  );
  const missing = charged.enum.filter((mode) => !meanings.get(mode));
  if (missing.length > 0) throw new Error(`x-pricing.charged's definition gives no meaning for ${missing.join(", ")}`);
  return meanings;
}

/** The row an operation belongs to: its charging mode, or one of the two "no price" rows. */
export function chargeRule(operation: Operation): string {
  const charged = (operation["x-pricing"] as { charged?: string } | undefined)?.charged;
  if (charged !== undefined) return charged;
  const notShown = operation["x-not-shown"] as Record<string, unknown> | undefined;
  return notShown?.price === undefined ? NO_PRICE_STATED : PRICE_NOT_SHOWN;
}

export interface ChargeRow {
  rule: string;
  /** The rule as the guide shows it: a charging mode as code, the "no price" rows as words. */
  label: string;
  meaning: string;
  operations: string[];
}

/** One row per rule that some operation follows: the charging modes in their definition's order, then the two "no price" rows. */
export function chargeRows(doc: OpenApiDocument): ChargeRow[] {
  const meanings = chargedMeanings();
  meanings.set(PRICE_NOT_SHOWN, "The specification says the price is not shown (see the Not shown page).");
  meanings.set(NO_PRICE_STATED, "The specification states no price for the route.");
  const rows = [...meanings].map(
    ([rule, meaning]): ChargeRow => ({
      rule,
      label: CHARGED.enum.includes(rule) ? `\`${rule}\`` : rule,
      meaning,
      operations: [],
    }),
  );
  for (const { path, method, operation } of operations(doc)) {
    rows.find((row) => row.rule === chargeRule(operation))?.operations.push(`${method.toUpperCase()} ${path}`);
  }
  return rows.filter((row) => row.operations.length > 0);
}
