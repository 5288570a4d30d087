/**
 * Offline quotes per second on one thread: every named request example of every priced route of
 * the description, quoted in turn, in rounds; the figure is the median round.
 */
import { priceTables, quote, type PricedPath } from "../../generated/costs.ts";
import { loadBundle } from "../../model/document.ts";
import { median, type Figure, type Measurement } from "../measurement.ts";

const ROUNDS = 15;
const QUOTES_PER_ROUND = 200_000;

/** The request examples of the priced routes that quote without an error. */
function requests(): Array<[PricedPath, unknown]> {
  const doc = loadBundle();
  const found: Array<[PricedPath, unknown]> = [];
  for (const [path, route] of Object.entries(priceTables) as Array<[PricedPath, (typeof priceTables)[PricedPath]]>) {
    const operation = doc.paths[path]?.[route.method];
    const examples =
      route.bodyIn === "body" ? operation?.requestBody?.content["application/json"]?.examples : undefined;
    for (const { value } of Object.values(examples ?? { none: { value: {} } })) {
      try {
        quote(path, value as never);
        found.push([path, value]);
      } catch {
        // An example the quote refuses (a body its checks reject) is no throughput sample.
      }
    }
  }
  return found;
}

export const quoteThroughput: Measurement = {
  name: "quote throughput",
  async run(): Promise<Figure[]> {
    const samples = requests();
    const perSecond: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const start = performance.now();
      for (let i = 0; i < QUOTES_PER_ROUND; i += 1) {
        const [path, body] = samples[i % samples.length]!;
        quote(path, body as never);
      }
      perSecond.push(QUOTES_PER_ROUND / ((performance.now() - start) / 1000));
    }
    return [
      {
        label: `quotes per second (${samples.length} request examples of ${Object.keys(priceTables).length} priced routes)`,
        value: Math.round(median(perSecond)),
        unit: "/s",
        note: `median of ${ROUNDS} rounds of ${QUOTES_PER_ROUND.toLocaleString("en")}, one thread; goal at least 1,000,000`,
      },
    ];
  },
};
