/**
 * The bound on an answer's size: a fetch whose answers fail, as a connection dropped mid-body does,
 * once their body passes `maxBytes` (the client's `maxResponseBytes`), so that an upstream cannot
 * fill the caller's memory. A Content-Length over the bound fails before any of the body is read.
 */
import type { FetchFunction } from "./options.ts";

export function cappedFetch(fetch: FetchFunction, maxBytes: number): FetchFunction {
  const tooLarge = () => new RangeError(`the answer is larger than maxResponseBytes, ${maxBytes} bytes`);
  return async (request) => {
    const response = await fetch(request);
    // No body (a 204, a browser's opaque redirect): nothing to count, and no Response could carry one.
    if (!response.body) return response;
    if (Number(response.headers.get("content-length")) > maxBytes) {
      await response.body.cancel();
      throw tooLarge();
    }
    let bytes = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytes += chunk.byteLength;
          if (bytes > maxBytes) controller.error(tooLarge());
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, response);
  };
}
