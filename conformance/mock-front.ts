/**
 * A thin front on 127.0.0.1 that relays every request to the Prism mock and answers with Prism's
 * response, except that a 429 carries `Retry-After` only when its body's variant sends it
 * (`x-retry-after`). Prism sends every header a response declares whichever example `Prefer`
 * selects, so without this the mock's queue-full and spend-limit 429s would tell clients to wait.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Contract } from "./contract.ts";
import { parseJson } from "./http.ts";
import { retryAfterFor, retryAfterVariants } from "./retry-after.ts";

/** Hop-by-hop headers belong to one connection and are not relayed (fetch refuses some of them). */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host", "content-length"]);

export interface MockFront {
  port: number;
  close(): Promise<void>;
}

export async function startMockFront(contract: Contract, upstream: string, port: number, host: string): Promise<MockFront> {
  const variants = retryAfterVariants(contract);
  const server: Server = createServer((request, response) => {
    relay(request, upstream)
      .then(async (upstreamResponse) => {
        const body = Buffer.from(await upstreamResponse.arrayBuffer());
        const headers: Record<string, string> = {};
        upstreamResponse.headers.forEach((value, name) => {
          if (!HOP_BY_HOP.has(name)) headers[name] = value;
        });
        if (upstreamResponse.status === 429 && retryAfterFor(contract, variants, parseJson(body.toString("utf8"))).sends === false) {
          delete headers["retry-after"];
        }
        headers["content-length"] = String(body.length);
        response.writeHead(upstreamResponse.status, headers).end(body);
      })
      .catch((error: Error) => {
        response.writeHead(502, { "content-type": "text/plain" }).end(`mock front: Prism did not answer: ${error.message}`);
      });
  });
  server.listen(port, host);
  await once(server, "listening");
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function relay(request: IncomingMessage, upstream: string): Promise<Response> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = request.method ?? "GET";
  const hasBody = chunks.length > 0 && method !== "GET" && method !== "HEAD";
  return fetch(upstream + (request.url ?? "/"), { method, headers, ...(hasBody ? { body: Buffer.concat(chunks) } : {}) });
}
