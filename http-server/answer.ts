/**
 * Answering one request whose answer takes work (reading a body, relaying it): every step runs
 * inside one chain, so nothing a client sends escapes it. An unexpected error is one log line and
 * the server's 500; a client gone mid-body is no failure and is not logged.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ClientGone } from "./body-reader.ts";

/**
 * Produces the answer (`hold` keeps the body's buffered bytes until it is sent), sends it, and
 * gives the bytes back. `failed` turns a failure's message into the server's 500 answer.
 */
export function answerInTurn<A>(
  name: string,
  request: IncomingMessage,
  response: ServerResponse,
  produce: (hold: (release: () => void) => void) => Promise<A>,
  failed: (message: string) => A,
  send: (answer: A) => void,
): void {
  let release = () => {};
  const fail = (error: unknown): A => {
    const message = error instanceof Error ? error.message : String(error);
    if (!(error instanceof ClientGone))
      console.error(`${name}: ${request.method} ${(request.url ?? "").slice(0, 200)} failed: ${message}`);
    return failed(message);
  };
  produce((given) => (release = given))
    .catch(fail)
    .then(send)
    .catch((error: unknown) => send(fail(error)))
    .catch(() => response.destroy())
    .finally(() => release());
}

/** Sends a whole answer with its length, unless the response is already sent or gone. */
export function sendWhole(
  response: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  body: string | Buffer,
): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { ...headers, "content-length": Buffer.byteLength(body) }).end(body);
}
