/**
 * A bounded load generator over keep-alive HTTP connections on 127.0.0.1: `workers` loops each
 * send one request after another for `durationMs`, and the completed requests are counted.
 */
import { Agent, request } from "node:http";

export interface Exchange {
  readonly status: number;
  readonly body: string;
}

export type Send = (method: string, path: string, body?: unknown) => Promise<Exchange>;

export function sender(baseUrl: string, apiKey: string, agent: Agent): Send {
  const { hostname, port } = new URL(baseUrl);
  return (method, path, body) =>
    new Promise((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
      if (text !== undefined) headers["content-type"] = "application/json";
      const outgoing = request({ hostname, port, method, path, headers, agent }, (response) => {
        let received = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (received += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: received }));
      });
      outgoing.on("error", reject);
      outgoing.end(text);
    });
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
export async function drive(workers: number, maxMs: number, more: (requests: number) => boolean, step: () => Promise<Exchange[]>): Promise<LoadResult> {
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
