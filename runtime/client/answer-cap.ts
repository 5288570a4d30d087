/**
 * An answer read within the client's bounds: no more than `maxResponseBytes` of its body (a
 * Content-Length over it fails before any of it is read), so that an upstream cannot fill the
 * caller's memory, and no longer than its request's time. The client's fetch hands openapi-fetch
 * each answer with its `text` and `json` reading so, the typed calls' and the raw `api`'s alike:
 * openapi-fetch reads every answer through one of them.
 */

/**
 * A typed call's request under way, shared by the call and the client's fetch: it rides on the
 * Request, under ATTEMPT (attemptRequests).
 */
export interface Attempt {
  /** The request's time ran out: an answer that comes later is let go unread. */
  late?: boolean;
  /** Stops the reading of the answer under way (set while one is read). */
  stop?: () => unknown;
}

export const ATTEMPT: unique symbol = Symbol();

/**
 * The Request class the client's openapi-fetch builds each request with, and `handing`, which
 * calls `send` with `attempt` handed to the Request that `send` builds. openapi-fetch builds its
 * Request at once, before any middleware, so the hand-over holds only while `send` runs; a Request
 * the raw `api` builds carries no attempt. Not through the request's init: an extra key there
 * costs openapi-fetch a tenth of a whole call in Node. Made per client, not at import: a bundle
 * that imports the client where Request is missing still loads.
 */
export function attemptRequests() {
  let handed: Attempt | undefined;
  return [
    class extends Request {
      readonly [ATTEMPT] = handed;
    },
    <T>(attempt: Attempt, send: () => T): T => {
      handed = attempt;
      try {
        return send();
      } finally {
        handed = undefined;
      }
    },
  ] as const;
}

/** `handing` of attemptRequests. */
export type Handing = ReturnType<typeof attemptRequests>[1];

const decoder = new TextDecoder();

/** Made only when thrown: an error's stack costs more than reading a small answer. */
const tooLarge = (maxBytes: number) => new RangeError(`the answer is larger than maxResponseBytes, ${maxBytes} bytes`);

/** The answer's body as text, read within `maxBytes` (a RangeError past it); `attempt.stop` ends the reading. */
export async function readText(response: Response, maxBytes: number, attempt?: Attempt): Promise<string> {
  const { body } = response;
  if (!body) return "";
  if (attempt?.late || Number(response.headers.get("content-length")) > maxBytes) {
    await body.cancel();
    if (attempt?.late) return "";
    throw tooLarge(maxBytes);
  }
  const reader = body.getReader();
  if (attempt) attempt.stop = () => reader.cancel();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  for (
    let read: ReadableStreamReadResult<Uint8Array<ArrayBuffer>>;
    !(read = await reader.read()).done;
    chunks.push(read.value)
  ) {
    if ((bytes += read.value.byteLength) > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: one chunk joined through a Blob is the same text; the Blob only spares joining many by hand
  return decoder.decode(chunks.length > 1 ? await new Blob(chunks).arrayBuffer() : chunks[0]);
}

/**
 * The answer, its `text` and `json` reading within `maxBytes` and `attempt`'s time (readText):
 * cheaper than a bounded copy of the answer, which would cost a second Response per call.
 */
export const capped = (response: Response, maxBytes: number, attempt?: Attempt): Response =>
  // Closures in an object literal: no named function made per answer (a bundler's keepNames would name each).
  Object.assign(response, {
    text: () => readText(response, maxBytes, attempt),
    json: async () => JSON.parse(await readText(response, maxBytes, attempt)) as unknown,
  });
