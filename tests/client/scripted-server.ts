/**
 * A scripted HTTP server on 127.0.0.1 for the client's behaviour tests, a fetch that counts requests
 * in flight, and `drive`, which runs a client call under fake timers: it lets real I/O finish and
 * only then jumps the fake clock to the next timer (a poll interval, a Retry-After pause, a deadline).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { vi } from "vitest";

export interface Recorded {
  method: string;
  path: string;
  body: unknown;
  authorization: string | undefined;
  headers: IncomingMessage["headers"];
  /** Fake-clock time the request arrived. */
  at: number;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Drop the connection after reading the request: the response is lost. */
  destroy?: boolean;
  /** Send the status, the headers and half the body, then drop the connection. */
  cut?: boolean;
  /** The body as sent, instead of `body` as JSON (a body that is not JSON). */
  raw?: string;
  /** Send no Content-Length: the body goes chunked. */
  chunked?: boolean;
  /** Answer nothing at all (`headers`), or the headers and one byte of a longer body (`body`), and hold the connection open. */
  hang?: "headers" | "body";
}

export type Handler = (request: Recorded) => Reply;

export interface ScriptedServer {
  baseUrl: string;
  requests: Recorded[];
  /** Requests sent through `fetch` whose response body has not been read yet. */
  readonly inFlight: number;
  fetch: (request: Request) => Promise<Response>;
  close(): Promise<void>;
}

/** Replies in order to each request; the last reply repeats. */
export function inOrder(...replies: Reply[]): Handler {
  let next = 0;
  return () => replies[Math.min(next++, replies.length - 1)] ?? { status: 500 };
}

export async function startServer(handle: Handler): Promise<ScriptedServer> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const recorded: Recorded = {
        method: req.method ?? "",
        path: req.url ?? "",
        body: text ? JSON.parse(text) : undefined,
        authorization: req.headers.authorization,
        headers: req.headers,
        at: Date.now(),
      };
      requests.push(recorded);
      const reply = handle(recorded);
      if (reply.destroy) return void req.socket.destroy();
      if (reply.hang === "headers") return;
      const json = reply.raw ?? (reply.body === undefined ? "" : JSON.stringify(reply.body));
      const length = reply.chunked ? {} : { "content-length": String(Buffer.byteLength(json) + (reply.hang ? 1 : 0)) };
      res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...length, ...reply.headers });
      if (reply.hang === "body") return void res.write(json.slice(0, 1));
      if (!reply.cut) return void res.end(json);
      res.write(json.slice(0, json.length >> 1), () => req.socket.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  let inFlight = 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    // Buffers the whole body so that "nothing in flight" means the client only has timers left. A body
    // cut short fails when read, as fetch's own streaming body does.
    fetch: async (request) => {
      inFlight += 1;
      try {
        const response = await fetch(request);
        try {
          return new Response(await response.arrayBuffer(), response);
        } catch (error) {
          return new Response(new ReadableStream({ pull: (controller) => controller.error(error) }), response);
        }
      } finally {
        inFlight -= 1;
      }
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
    get inFlight() {
      return inFlight;
    },
  };
}

const realTick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Settles `promise`, advancing the fake clock only while no request is in flight. */
export async function drive<T>(server: ScriptedServer, promise: Promise<T>): Promise<T> {
  let settled = false;
  const tracked = promise.finally(() => {
    settled = true;
  });
  tracked.catch(() => undefined);
  for (let step = 0; !settled; step += 1) {
    if (step > 100_000) throw new Error("drive: the call neither settles nor waits on a timer");
    for (let i = 0; i < 5; i += 1) await realTick();
    if (settled) break;
    if (server.inFlight > 0) continue;
    if (vi.getTimerCount() === 0)
      throw new Error("drive: nothing in flight and no timer pending, yet the call has not settled");
    await vi.advanceTimersToNextTimerAsync();
  }
  return tracked;
}
