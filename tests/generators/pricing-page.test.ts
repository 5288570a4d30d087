/**
 * The prices page (generators/costs/pricing-page.ts) on rate tables the description does not hold
 * today: a grid with a cell missing, and a table by three fields. The page must say what is not
 * shown rather than leave a gap or a made-up figure, and name every field a rate depends on.
 */
import { describe, expect, it } from "vitest";
import { pricingPage } from "../../generators/costs/pricing-page.ts";
import type { PricingComponent, RateTable, RoutePricing } from "../../runtime/costs/pricing.ts";
import { builtPath, model } from "../support/description.ts";

// V-G: priced per output second by resolution (rows) and mode (columns), the specification's grid.
const path = builtPath("/v1/videos/v-g");
const route = model.priceTables[path]!;

/** The page of V-G alone with its rate table replaced. */
function pageWith(fields: readonly string[], table: RateTable): string[] {
  const [first, ...rest] = route.pricing!.components;
  const component: PricingComponent = { ...first!, rateBy: { fields: [...fields], table } };
  const changed: RoutePricing = { ...route, pricing: { ...route.pricing!, components: [component, ...rest] } };
  return pricingPage({ [path]: changed }).split("\n");
}

const rowsOf = (lines: string[], first: string): string[] => lines.filter((line) => line.startsWith(first));

describe("the prices page's rate tables", () => {
  it("shows the specification's V-G grid as it is", () => {
    expect(rowsOf(pricingPage({ [path]: route }).split("\n"), "| `")).toEqual([
      "| `resolution` \\ `mode` | `cost` | `speed` | `quality` |",
      "| `480p` | 15 | 30 | 60 |",
      "| `768p` | 37 | 52 | 112 |",
    ]);
  });

  it("says 'not shown' in a grid cell the table lacks, and for a row that is one figure", () => {
    const lines = pageWith(["resolution", "mode"], {
      "480p": { cost: 15, speed: 30 },
      "768p": 40,
      "1080p": { quality: 90 },
    });
    expect(rowsOf(lines, "| `")).toEqual([
      "| `resolution` \\ `mode` | `cost` | `speed` | `quality` |",
      "| `480p` | 15 | 30 | not shown |",
      "| `768p` | not shown | not shown | not shown |",
      "| `1080p` | not shown | not shown | 90 |",
    ]);
  });

  it("says a rate that is not shown is not shown, naming the fields it goes by (V-B: by resolution; by two, each), and none where none is named", () => {
    const [first, ...rest] = route.pricing!.components;
    const notShown = (by: string[]): string[] => {
      const component: PricingComponent = { ...first!, rateBy: undefined, rateNotShown: { by } };
      const changed: RoutePricing = { ...route, pricing: { ...route.pricing!, components: [component, ...rest] } };
      return rowsOf(pricingPage({ [path]: changed }).split("\n"), "| output video |");
    };
    expect(notShown(["resolution"])).toEqual([
      "| output video | not shown (by `resolution`); a quote takes supplied rates | the value of `length_seconds` | always |",
    ]);
    expect(notShown(["resolution", "mode"])).toEqual([
      "| output video | not shown (by `resolution` and `mode`); a quote takes supplied rates | the value of `length_seconds` | always |",
    ]);
    expect(notShown([])).toEqual([
      "| output video | not shown; a quote takes supplied rates | the value of `length_seconds` | always |",
    ]);
  });

  it("names every field of a table by three fields, one column each", () => {
    const lines = pageWith(["resolution", "mode", "audio"], {
      "480p": { cost: { true: 20, false: 15 } },
    });
    expect(lines).toContain("Credits for **output video** by `resolution` and `mode` and `audio`:");
    expect(rowsOf(lines, "| `")).toEqual([
      "| `resolution` | `mode` | `audio` | credits |",
      "| `480p` | `cost` | `true` | 20 |",
      "| `480p` | `cost` | `false` | 15 |",
    ]);
  });
});
