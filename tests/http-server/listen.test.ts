/**
 * The project's servers on 127.0.0.1 (http-server/listen.ts): a port in use is a PortInUseError
 * that reads like Node's own listen error (code EADDRINUSE) and names the port and 127.0.0.1; the
 * limits it is given hold (the timeouts in seconds); the header and request timeouts are checked every TIMEOUT_CHECK_MS (often enough that they hold
 * within a second); a refused request's body is thrown away so its client hears the refusal, and
 * where it is declared larger than is thrown away the refusal closes the connection.
 */
import { Server } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { rawExchange } from "../../fuzz/raw-http.ts";
import { sendWhole } from "../../http-server/answer.ts";
import type { HttpRefusal } from "../../http-server/error-codes.ts";
import { MAX_DISCARDED_BYTES, TIMEOUT_CHECK_MS } from "../../http-server/limits.ts";
import { freePort, HOST, listenOnLoopback, PortInUseError } from "../../http-server/listen.ts";

const closed = { allowedOrigins: [], cors: false };

describe("listenOnLoopback", () => {
  it("reports a port in use as a PortInUseError with Node's code EADDRINUSE, naming the port and 127.0.0.1", async () => {
    const first = await listenOnLoopback({ port: 0, policy: closed, handle: () => {}, refuse: () => {} });
    try {
      const second = listenOnLoopback({ port: first.port, policy: closed, handle: () => {}, refuse: () => {} });
      const error = await second.then(
        () => expect.unreachable("a second server listened on a port in use"),
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(PortInUseError);
      expect(error).toMatchObject({ code: "EADDRINUSE", port: first.port });
      expect((error as Error).message).toBe(`port ${first.port} on 127.0.0.1 is already in use`);
      expect(HOST).toBe("127.0.0.1");
      await expect(freePort(first.port)).rejects.toMatchObject({ code: "EADDRINUSE", port: first.port });
    } finally {
      await first.close();
    }
  });

  it("reports any other listen error as Node reports it, not as a port in use", async () => {
    const denied = Object.assign(new Error("listen EACCES: permission denied 127.0.0.1:80"), { code: "EACCES" });
    // Node's own listen, made to fail as it does for a port the user may not bind.
    const listen = vi.spyOn(Server.prototype, "listen").mockImplementation(function (this: Server) {
      process.nextTick(() => this.emit("error", denied));
      return this;
    });
    try {
      await expect(listenOnLoopback({ port: 80, policy: closed, handle: () => {}, refuse: () => {} })).rejects.toBe(
        denied,
      );
    } finally {
      listen.mockRestore();
    }
  });

  it("checks the header and request timeouts every TIMEOUT_CHECK_MS, at most a second (Node's default is 30 s)", async () => {
    const running = await listenOnLoopback({ port: 0, policy: closed, handle: () => {}, refuse: () => {} });
    try {
      expect(TIMEOUT_CHECK_MS).toBeLessThanOrEqual(1000);
      const interval = (running.server as unknown as { connectionsCheckingInterval: number })
        .connectionsCheckingInterval;
      expect(interval).toBe(TIMEOUT_CHECK_MS);
    } finally {
      await running.close();
    }
  });

  it("holds the server to the limits it is given, each timeout in seconds as Node's milliseconds", async () => {
    const limits = { maxConnections: 7, headersTimeoutSeconds: 3, requestTimeoutSeconds: 20, idleTimeoutSeconds: 4 };
    const running = await listenOnLoopback({ port: 0, policy: closed, limits, handle: () => {}, refuse: () => {} });
    try {
      const { server } = running;
      expect([server.maxConnections, server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).toEqual([
        7, 3_000, 20_000, 4_000,
      ]);
      // A socket silent for the longer of the idle and header timeouts is closed.
      expect(server.timeout).toBe(4_000);
    } finally {
      await running.close();
    }
  });

  describe("a refused request's body", () => {
    /** A server refusing every Host but its own, recording the refusals its `refuse` gets. */
    async function refusing() {
      const refusals: HttpRefusal[] = [];
      const running = await listenOnLoopback({
        port: 0,
        policy: closed,
        handle: (_request, response) => response.end("served"),
        refuse: (_request, response, refusal) => {
          refusals.push(refusal);
          sendWhole(response, refusal.status, refusal.headers ?? {}, refusal.message);
        },
      });
      return { running, refusals };
    }

    it("is thrown away, the connection kept, when it is no larger than what is thrown away", async () => {
      const { running, refusals } = await refusing();
      try {
        const answer = await rawExchange(
          running.port,
          Buffer.from("POST / HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 5\r\n\r\nhello"),
        );
        expect(answer?.status).toBe(403);
        expect(answer?.headers.get("connection")).toBe("keep-alive");
        expect(refusals).toHaveLength(1);
        expect(refusals[0]?.code).toBe("host_not_allowed");
        expect(refusals[0]?.headers?.connection).toBeUndefined();
      } finally {
        await running.close();
      }
    });

    it("closes the connection (Connection: close) when declared larger than what is thrown away", async () => {
      const { running, refusals } = await refusing();
      try {
        const answer = await rawExchange(
          running.port,
          Buffer.from(`POST / HTTP/1.1\r\nHost: evil.example\r\nContent-Length: ${MAX_DISCARDED_BYTES + 1}\r\n\r\n`),
        );
        expect(answer?.status).toBe(403);
        expect(answer?.headers.get("connection")).toBe("close");
        expect(refusals).toHaveLength(1);
        expect(refusals[0]).toMatchObject({ status: 403, code: "host_not_allowed", headers: { connection: "close" } });
      } finally {
        await running.close();
      }
    });
  });
});
