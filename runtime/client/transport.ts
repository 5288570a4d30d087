/**
 * The fetch every request of the client goes through: it waits out a client-wide `Retry-After`
 * pause, records the rate-limit headers, starts a new pause on a 429 with `Retry-After`, and turns
 * network failures into a TransportError whose message cannot contain the API key.
 */
import { TransportError } from "./errors.ts";
import { readRateLimit, retryAfterSeconds, type RateLimitInfo, type RetryAfterGate } from "./rate-limit.ts";
import { redact } from "./redact.ts";

export type FetchFunction = (input: Request) => Promise<Response>;

export interface TransportOptions {
  fetch: FetchFunction;
  gate: RetryAfterGate;
  apiKey: string;
  onRateLimit(info: RateLimitInfo): void;
}

export function createTransport({ fetch, gate, apiKey, onRateLimit }: TransportOptions): FetchFunction {
  return async (request) => {
    await gate.pass(request.signal);
    let response: Response;
    try {
      response = await fetch(request);
    } catch (error) {
      if (request.signal.aborted) throw request.signal.reason;
      const reason = error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ""}` : String(error);
      // A POST may have reached the service before the connection failed.
      throw new TransportError(redact(`${request.method} ${new URL(request.url).pathname}: no response (${reason})`, apiKey), request.method === "POST");
    }
    const info = readRateLimit(response.headers);
    if (info) onRateLimit(info);
    const wait = response.status === 429 ? retryAfterSeconds(response.headers) : null;
    if (wait !== null) gate.block(wait);
    return response;
  };
}
