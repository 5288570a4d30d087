/**
 * What a job costs on the independent server: the published quote (generated/costs.ts, as a team
 * using the client package would price) over the body and the measured media, with this server's
 * own choices where the specification shows no price or no default: the first listed value of an
 * enum whose default is not shown (a stated default is the quote's own), a 1080p `precise` upscale,
 * its own rates where the specification shows a price's form but not its rates (V-B, V-C, A-A:
 * quoted by the published formula with them, and declared), and flat rates of its own for the
 * models whose prices are not shown at all.
 */
import { priceTables, quote, type PricedPath, type SuppliedRates } from "../../../../generated/costs.ts";
import type { Measured } from "./media-rules.ts";

type Body = Record<string, unknown>;

interface PriceTable {
  readonly fields: Record<string, { enum?: readonly unknown[]; default?: unknown }>;
  readonly facts: Record<string, readonly unknown[]>;
  readonly media: Record<string, unknown>;
  readonly pricing: { components: readonly { label: string; per?: { mediaSeconds?: string } }[] } | null;
}

/** Prices this server charges where the specification shows none (credits). */
const OWN_RATES = {
  perImage: 45,
  perVideoSecond: 70,
  otherJob: 120,
} as const;

/** By model label: this server's rates where the specification shows a price's form but not its rates (its declaration's `rates`). */
export const OWN_SUPPLIED_RATES = {
  "V-B": { "480p": 55, "720p": 70, "1080p": 95 },
  "V-C": { "480p": 60, "720p": 80, "1080p": 110, "4k": 200 },
  "A-A": 15,
} as const;

/** OWN_SUPPLIED_RATES by route path, as the published quote takes them. */
const SUPPLIED: SuppliedRates = Object.fromEntries(
  Object.entries(OWN_SUPPLIED_RATES).flatMap(([label, rates]) => {
    const path = Object.entries(priceTables as Record<string, { model?: string }>).find(
      ([, table]) => table.model === label,
    )?.[0];
    return path ? [[path, rates]] : [];
  }),
);

function ownPrice(area: string, body: Body): number {
  const count = (field: string, fallback: number): number =>
    typeof body[field] === "number" ? (body[field] as number) : fallback;
  if (area === "images") return OWN_RATES.perImage * count("num_images", 1);
  if (area === "videos") return OWN_RATES.perVideoSecond * count("length_seconds", 5);
  return OWN_RATES.otherJob;
}

export interface Price {
  readonly credits: number;
  /** The seconds of media billed, where the price is per second of one input. */
  readonly billedSeconds?: number;
}

/** The standard price of a create or priced request, in credits. */
export function standardPrice(path: string, area: string, body: Body, measured: Measured): Price {
  const table = (priceTables as Record<string, PriceTable>)[path];
  if (!table) return { credits: ownPrice(area, body) };
  const filled: Body = { ...body };
  for (const [field, rule] of Object.entries(table.fields))
    if (filled[field] === undefined && rule.default === undefined && rule.enum) filled[field] = rule.enum[0];
  const media: Record<string, unknown> = Object.fromEntries(
    Object.entries(measured).filter(([field]) => field in table.media),
  );
  if (table.facts.result_resolution) media.result_resolution = "1080p";
  if (table.facts.mode) media.mode = typeof body.mode === "string" ? body.mode : "precise";
  // Whole seconds of a music-from-video input: this server rounds its measured duration up.
  if (area === "audios" && typeof media.video === "number") media.video = Math.ceil(media.video);
  const price = quote(path as PricedPath, filled as never, media as never, SUPPLIED);
  if (price.credits === null || !table.pricing) return { credits: ownPrice(area, body) };
  const perSecond = new Set(
    table.pricing.components
      .filter((component) => component.per?.mediaSeconds !== undefined)
      .map((component) => component.label),
  );
  return { credits: price.credits, billedSeconds: price.breakdown.find((line) => perSecond.has(line.label))?.quantity };
}
