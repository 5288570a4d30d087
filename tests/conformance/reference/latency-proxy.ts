/**
 * A proxy in front of a reference server that answers every request after a random delay within
 * `[minMs, maxMs]`, as a service on another continent would: the suite must not mistake slowness or
 * answers arriving out of order for a fault.
 */
import { once } from "node:events";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

export interface Latency {
  readonly minMs: number;
  readonly maxMs: number;
}

export async function startLatencyProxy(
  upstream: string,
  latency: Latency,
): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(upstream);
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", async () => {
      // A reverse proxy names its upstream in Host, which the sandbox checks (DNS rebinding).
      await sleep(latency.minMs + Math.random() * (latency.maxMs - latency.minMs));
      const forwarded = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: target.host },
          // A connection of its own: a kept-alive one the upstream closed as idle would answer the
          // client 502 (ECONNRESET), a fault of this proxy and not of the server it stands for.
          agent: false,
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forwarded.on("error", () => outgoing.writeHead(502).end());
      forwarded.end(Buffer.concat(chunks));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
