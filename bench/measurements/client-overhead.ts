/**
 * What the typed client adds per call to bare openapi-fetch: the same GET through both, answered by
 * an in-memory fetch, in alternating rounds; the figure is the median of the per-round ratios, so
 * that a slow moment of a shared machine falls on both sides.
 */
import createFetchClient from "openapi-fetch";
import { createClient, routeTable } from "../../generated/client.ts";
import type { paths } from "../../generated/types.ts";
import { median, type Figure, type Measurement } from "../measurement.ts";

const ROUNDS = 41;
const CALLS_PER_ROUND = 4_000;
const BASE_URL = "http://127.0.0.1:1";

const JOB = JSON.stringify({ status: "processing" });
const HEADERS = {
  "content-type": "application/json",
  "X-RateLimit-Limit": "600",
  "X-RateLimit-Remaining": "599",
  "X-RateLimit-Reset": "30",
};
const fetch = async (_request: Request) => new Response(JOB, { status: 200, headers: HEADERS });

async function perCall(call: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < CALLS_PER_ROUND; i += 1) await call();
  return (performance.now() - start) / CALLS_PER_ROUND;
}

export const clientOverhead: Measurement = {
  name: "client per-call overhead",
  async run(): Promise<Figure[]> {
    const bare = createFetchClient<paths>({ baseUrl: BASE_URL, headers: { Authorization: "Bearer bench-key" }, fetch });
    const client = createClient({ apiKey: "bench-key", baseUrl: BASE_URL, fetch });
    const pollPath = routeTable.areas.image.pollPath;
    const pairs: Array<[label: string, bare: () => Promise<unknown>, client: () => Promise<unknown>]> = [
      [
        "poll (image.get)",
        () => bare.GET(pollPath, { params: { path: { id: "img_1" } } }),
        () => client.image.get("img_1"),
      ],
      ["read (getAccountCredits)", () => bare.GET("/v1/account/credits"), () => client.getAccountCredits()],
    ];
    const figures: Figure[] = [];
    for (const [label, viaBare, viaClient] of pairs) {
      const ratios: number[] = [];
      const clientTimes: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const bareTime = await perCall(viaBare);
        const clientTime = await perCall(viaClient);
        ratios.push(clientTime / bareTime);
        clientTimes.push(clientTime);
      }
      const note = `median of ${ROUNDS} alternating rounds of ${CALLS_PER_ROUND.toLocaleString("en")} calls; goal at most 1.1x`;
      figures.push({
        label: `${label}: time against bare openapi-fetch`,
        value: Math.round(median(ratios) * 1000) / 1000,
        unit: "x",
        note,
      });
      figures.push({
        label: `${label}: time per call, in-memory fetch`,
        value: Math.round(median(clientTimes) * 10_000) / 10,
        unit: "µs",
      });
    }
    return figures;
  },
};
