/**
 * A bounded load generator on 127.0.0.1: `workers` loops each send one request after another for
 * `durationMs`, and the completed requests are counted. Requests go out through the conformance
 * suite's sender, over its keep-alive connections.
 */
import { bearer, send, type Exchange } from "../conformance/http.ts";

export type Send = (method: string, path: string, body?: unknown) => Promise<Exchange>;

/** Sends requests to `baseUrl` with `apiKey`. */
export function sender(baseUrl: string, apiKey: string): Send {
  const headers = bearer(apiKey);
  return (method, path, body) => send(baseUrl, { method, path, headers, ...(body !== undefined && { body }) });
}

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  /** Requests answered with a status other than 200. */
  readonly failures: number;
}

/**
 * Runs `step` in `workers` parallel loops while `more(requests so far)` holds and `maxMs` has not
 * passed; `step` returns its exchanges.
 */
export async function drive(
  workers: number,
  maxMs: number,
  more: (requests: number) => boolean,
  step: () => Promise<Exchange[]>,
): Promise<LoadResult> {
  const started = performance.now();
  const end = started + maxMs;
  let requests = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < end && more(requests)) {
        for (const exchange of await step()) {
          requests += 1;
          if (exchange.status !== 200) failures += 1;
        }
      }
    }),
  );
  return { requests, seconds: (performance.now() - started) / 1000, failures };
}
