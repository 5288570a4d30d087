import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { httpExchange } from "../../conformance/http.ts";

const OK = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A server that answers the first request on each socket and resets the socket on the next, as a server closing an idle kept-alive socket does. */
async function resettingServer(): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    let answered = false;
    socket.on("data", () => {
      if (answered) socket.resetAndDestroy();
      else {
        answered = true;
        socket.write(OK);
      }
    });
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  close = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

describe("httpExchange", () => {
  it("sends a request once more on a new socket when a kept-alive socket was reset before it was answered", async () => {
    const server = await resettingServer();
    const first = await httpExchange(`${server.url}/a`, { method: "GET", headers: {} });
    const second = await httpExchange(`${server.url}/b`, { method: "POST", headers: {}, body: "{}" });
    expect([first.status, second.body.toString()]).toEqual([200, "ok"]);
    expect(server.connections()).toBe(2);
  });

  it("does not resend on a new socket's reset: the error reaches the caller", async () => {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on("data", () => socket.resetAndDestroy());
      socket.on("error", () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    await expect(
      httpExchange(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { method: "GET", headers: {} }),
    ).rejects.toMatchObject({ code: "ECONNRESET" });
  });
});

describe("an answer past maxAnswerBytes", () => {
  /** A server that answers with headers announcing `length` bytes and sends `body`. */
  async function announcing(length: number, body: string): Promise<string> {
    const server = createServer((socket) => {
      socket.once("data", () =>
        socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n${body}`),
      );
      socket.on("error", () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("is the request's failure when its Content-Length already passes the bound, before its body is read", async () => {
    const url = await announcing(300, "x".repeat(300));
    const uncaught: Error[] = [];
    const seen = (error: Error) => uncaught.push(error);
    process.on("uncaughtException", seen);
    try {
      await expect(
        httpExchange(`${url}/`, { method: "GET", headers: {}, limits: { maxBytes: 200, timeoutMs: 5_000 } }),
      ).rejects.toThrow(
        "the answer's body passed 200 bytes (maxAnswerBytes, --max-answer-bytes); the rest was not read",
      );
    } finally {
      process.off("uncaughtException", seen);
    }
    expect(uncaught).toEqual([]);
  });

  it("is answered in full at exactly the bound", async () => {
    const url = await announcing(200, "x".repeat(200));
    const answer = await httpExchange(`${url}/`, {
      method: "GET",
      headers: {},
      limits: { maxBytes: 200, timeoutMs: 5_000 },
    });
    expect(answer.body.length).toBe(200);
  });
});
