/**
 * What the typed client adds per call to bare openapi-fetch: the same GET through both, answered by
 * an in-memory fetch, in alternating rounds; the figure is the median of the per-round ratios, so
 * that a slow moment of a shared machine falls on both sides.
 */
import createFetchClient from "openapi-fetch";
import { createClient, routeTable } from "../../generated/client.ts";
import type { paths } from "../../generated/types.ts";
import { median, type Figure, type Measurement } from "../measurement.ts";

const BASE_URL = "http://127.0.0.1:1";

const JOB = JSON.stringify({ status: "processing" });
const HEADERS = {
  "content-type": "application/json",
  "X-RateLimit-Limit": "600",
  "X-RateLimit-Remaining": "599",
  "X-RateLimit-Reset": "30",
};
const fetch = async (_request: Request) => new Response(JOB, { status: 200, headers: HEADERS });

/** The calls compared: a poll and a read, each through bare openapi-fetch and through the typed client. */
export const CLIENT_CALLS = ["poll (image.get)", "read (getAccountCredits)"] as const;
export type ClientCall = (typeof CLIENT_CALLS)[number];

function pairs(): Record<ClientCall, [bare: () => Promise<unknown>, client: () => Promise<unknown>]> {
  const bare = createFetchClient<paths>({ baseUrl: BASE_URL, headers: { Authorization: "Bearer bench-key" }, fetch });
  const client = createClient({ apiKey: "bench-key", baseUrl: BASE_URL, fetch });
  const pollPath = routeTable.areas.image.pollPath;
  return {
    "poll (image.get)": [
      () => bare.GET(pollPath, { params: { path: { id: "img_1" } } }),
      () => client.image.get("img_1"),
    ],
    "read (getAccountCredits)": [() => bare.GET("/v1/account/credits"), () => client.getAccountCredits()],
  };
}

async function perCall(call: () => Promise<unknown>, calls: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < calls; i += 1) await call();
  return (performance.now() - start) / calls;
}

/**
 * `call`'s time through the client against bare openapi-fetch: the median of `rounds` alternating
 * rounds of `calls` calls each (bare first), and the client's median time per call in milliseconds.
 */
export async function clientOverhead(
  call: ClientCall,
  rounds: number,
  calls: number,
): Promise<{ ratio: number; clientMs: number }> {
  const [viaBare, viaClient] = pairs()[call];
  // Both paths compiled and warm before the first round counts.
  await perCall(viaBare, calls);
  await perCall(viaClient, calls);
  const ratios: number[] = [];
  const clientTimes: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const bareTime = await perCall(viaBare, calls);
    const clientTime = await perCall(viaClient, calls);
    ratios.push(clientTime / bareTime);
    clientTimes.push(clientTime);
  }
  return { ratio: median(ratios), clientMs: median(clientTimes) };
}

const ROUNDS = 41;
const CALLS_PER_ROUND = 4_000;

export const clientOverheadMeasurement: Measurement = {
  name: "client per-call overhead",
  async run(): Promise<Figure[]> {
    const figures: Figure[] = [];
    for (const call of CLIENT_CALLS) {
      const { ratio, clientMs } = await clientOverhead(call, ROUNDS, CALLS_PER_ROUND);
      figures.push({
        label: `${call}: time against bare openapi-fetch`,
        value: Math.round(ratio * 1000) / 1000,
        unit: "x",
        note: `median of ${ROUNDS} alternating rounds of ${CALLS_PER_ROUND.toLocaleString("en")} calls; goal at most 1.1x`,
      });
      figures.push({
        label: `${call}: time per call, in-memory fetch`,
        value: Math.round(clientMs * 10_000) / 10,
        unit: "µs",
      });
    }
    return figures;
  },
};
