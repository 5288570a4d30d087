/**
 * A test's own HTTP server, a fake target or upstream: bound to 127.0.0.1 on a free port, with no
 * guard or limits of the project's servers (http-server/listen.ts) in front, since the tests script
 * what a target does wrong.
 */
import { once } from "node:events";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface TestServer {
  readonly url: string;
  readonly server: Server;
  /** Ends the kept-alive connections too, which would otherwise hold the port and the test open. */
  close(): Promise<void>;
}

export async function serveOnLoopback(listener: RequestListener): Promise<TestServer> {
  const server = createServer(listener);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
