/**
 * Request bodies read within two bounds: one body's size, and the bytes buffered at once across
 * every request in flight (a shared budget). A body over either is refused as soon as it is known
 * to be: from its Content-Length before a byte is read, or at the chunk that crosses the bound; the
 * bytes already taken go back to the budget. The rest of a refused body is read and thrown away
 * (up to MAX_DISCARDED_BYTES), so that a client still sending it hears the refusal instead of a
 * connection reset.
 */
import type { IncomingMessage } from "node:http";
import { MAX_DISCARDED_BYTES } from "./limits.ts";

/** Bytes buffered at once across all requests, taken per chunk and given back when a request is answered. */
export class BufferBudget {
  private used = 0;

  constructor(readonly capacity: number) {}

  get inUse(): number {
    return this.used;
  }

  take(bytes: number): boolean {
    if (this.used + bytes > this.capacity) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}

/** The client went away before its body ended: there is no one to answer. */
export class ClientGone extends Error {
  constructor() {
    super("the client closed the connection before the body ended");
  }
}

export type BodyRead =
  | { readonly bytes: Buffer }
  /**
   * `too-large`: over the one-body limit; `busy`: the shared budget cannot hold it now. `close`: the
   * rest of the body is more than is read to throw away, so the answer must close the connection.
   */
  | { readonly refused: "too-large" | "busy"; readonly close: boolean };

/**
 * Reads the rest of a body nobody wants and throws it away, so the connection can carry the answer
 * (and another request); past `bound` bytes the connection is closed. Returns false, reading
 * nothing, when the Content-Length already says the body is larger than `bound`: the answer then
 * closes the connection.
 */
export function discardBody(request: IncomingMessage, bound = MAX_DISCARDED_BYTES): boolean {
  if (Number(request.headers["content-length"] ?? 0) > bound) return false;
  let read = 0;
  request.on("data", (chunk: Buffer) => {
    read += chunk.length;
    if (read > bound) request.socket.destroy();
  });
  // A client gone mid-body is no failure: there is no one left to answer.
  request.on("error", () => {});
  request.resume();
  return true;
}

/**
 * Reads `request`'s body into memory, holding its bytes in `budget` until `release` is called (the
 * caller releases once the request is answered). On refusal nothing stays taken, and the rest of
 * the body is discarded as it arrives (discardBody), never buffered.
 */
export function readBody(
  request: IncomingMessage,
  maxBytes: number,
  budget: BufferBudget,
): Promise<{ read: BodyRead; release: () => void }> {
  let held = 0;
  const release = () => {
    budget.give(held);
    held = 0;
  };
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stop = () => {
      request.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
    };
    const refuse = (reason: "too-large" | "busy") => {
      stop();
      release();
      resolve({ read: { refused: reason, close: !discardBody(request) }, release });
    };
    const onData = (chunk: Buffer) => {
      if (held + chunk.length > maxBytes) return refuse("too-large");
      if (!budget.take(chunk.length)) return refuse("busy");
      held += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      // Stryker disable next-line ConditionalExpression: equivalent: Buffer.concat of one chunk is a copy of the same bytes; the shortcut only spares the copy
      resolve({ read: { bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }, release });
    };
    const onError = (error: Error) => {
      stop();
      release();
      reject(request.destroyed || request.socket?.destroyed ? new ClientGone() : error);
    };
    // A client gone mid-body: what was taken goes back to the budget.
    const onClose = () => onError(new ClientGone());
    const declared = Number(request.headers["content-length"] ?? NaN);
    if (declared > maxBytes) return refuse("too-large");
    if (declared > budget.capacity - budget.inUse) return refuse("busy");
    request.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
}
