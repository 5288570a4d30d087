/**
 * One side of the client's per-call comparison, run in a process of its own (client-overhead.ts
 * forks one per side): the same GET through bare openapi-fetch or through the typed client, answered
 * by an in-memory fetch. A process per side, because both sides run openapi-fetch's code: in one
 * process each side's objects would reshape what V8 compiled for the other, and the figure would
 * measure that mix rather than what a program using one of them pays.
 *
 * Asked with `{ calls }`, it makes that many calls one after the other and answers with the time
 * per call in milliseconds.
 */
import createFetchClient from "openapi-fetch";
import { createClient, routeTable } from "../../generated/client.ts";
import type { paths } from "../../generated/types.ts";

/** The calls compared: a poll and a read. */
export const CLIENT_CALLS = ["poll (image.get)", "read (getAccountCredits)"] as const;
export type ClientCall = (typeof CLIENT_CALLS)[number];
export type Side = "bare" | "client";

const BASE_URL = "http://127.0.0.1:1";
const JOB = JSON.stringify({ status: "processing" });
const HEADERS = {
  "content-type": "application/json",
  "X-RateLimit-Limit": "600",
  "X-RateLimit-Remaining": "599",
  "X-RateLimit-Reset": "30",
};
const fetch = async (_request: Request) => new Response(JOB, { status: 200, headers: HEADERS });

/** `call` through `side`. */
function sideCall(side: Side, call: ClientCall): () => Promise<unknown> {
  const pollPath = routeTable.areas.image.pollPath;
  if (side === "bare") {
    const bare = createFetchClient<paths>({ baseUrl: BASE_URL, headers: { Authorization: "Bearer bench-key" }, fetch });
    return call === "poll (image.get)"
      ? () => bare.GET(pollPath, { params: { path: { id: "img_1" } } })
      : () => bare.GET("/v1/account/credits");
  }
  const client = createClient({ apiKey: "bench-key", baseUrl: BASE_URL, fetch });
  return call === "poll (image.get)" ? () => client.image.get("img_1") : () => client.getAccountCredits();
}

/** Milliseconds per call over `calls` calls made one after the other. */
async function perCall(call: () => Promise<unknown>, calls: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < calls; i += 1) await call();
  return (performance.now() - start) / calls;
}

// Run as a forked process: argv holds the side and the call.
if (process.send) {
  const [side, call] = process.argv.slice(2) as [Side, ClientCall];
  const made = sideCall(side, call);
  process.on("message", async ({ calls }: { calls: number }) => {
    process.send?.(await perCall(made, calls));
  });
  process.send("ready");
}
