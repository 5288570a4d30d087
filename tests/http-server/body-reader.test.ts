/**
 * Request bodies read within two bounds (http-server/body-reader.ts): the shared budget of bytes
 * buffered at once takes a chunk only when it fits whole, and a body it cannot hold is refused
 * `busy`, nothing left taken, the rest of it read and thrown away, never buffered; a request that
 * fails is the failure itself, unless its client went away (the request or its socket destroyed),
 * which is ClientGone: no one is left to answer. A body nobody wants is read and thrown away up to
 * a bound, past which its connection is closed; one declared larger is not read at all.
 */
import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { BufferBudget, ClientGone, discardBody, readBody } from "../../http-server/body-reader.ts";

/** A request as readBody reads it: a stream with headers, and the socket given (none when omitted). */
function fakeRequest(
  socket?: { destroyed: boolean },
  headers: Record<string, string> = {},
): IncomingMessage & PassThrough {
  return Object.assign(new PassThrough(), { headers, socket }) as unknown as IncomingMessage & PassThrough;
}

/** A socket that records whether it was destroyed. */
function fakeSocket() {
  const socket = {
    destroyed: false,
    destroy() {
      socket.destroyed = true;
    },
  };
  return socket;
}

/** Lets the stream deliver what was written. */
const delivered = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the shared buffer budget", () => {
  it("takes bytes while they fit its capacity, and refuses a take that would cross it, taking none of it", () => {
    const budget = new BufferBudget(10);
    expect(budget.take(6)).toBe(true);
    expect(budget.take(5)).toBe(false);
    expect(budget.inUse).toBe(6);
    expect(budget.take(4)).toBe(true);
    expect(budget.inUse).toBe(10);
    expect(budget.take(1)).toBe(false);
    budget.give(10);
    expect(budget.inUse).toBe(0);
  });

  it("gets back exactly the bytes given back, and never goes below nothing in use", () => {
    const budget = new BufferBudget(10);
    budget.take(6);
    budget.give(4);
    expect(budget.inUse).toBe(2);
    budget.give(5);
    expect(budget.inUse).toBe(0);
    expect(budget.take(10)).toBe(true);
  });

  it("refuses a body as busy at the chunk the budget cannot hold, and gives back what it took", async () => {
    const budget = new BufferBudget(10);
    const request = fakeRequest({ destroyed: false });
    const reading = readBody(request, 1000, budget);
    request.write(Buffer.alloc(6));
    request.end(Buffer.alloc(6));
    const { read } = await reading;
    expect(read).toEqual({ refused: "busy", close: false });
    expect(budget.inUse).toBe(0);
  });

  it("refuses a body whose Content-Length the budget cannot hold now as busy before a byte of it is read", async () => {
    const budget = new BufferBudget(100);
    budget.take(60);
    const request = fakeRequest(fakeSocket(), { "content-length": "50" });
    let outcome: unknown = "pending";
    void readBody(request, 1000, budget).then(({ read }) => {
      outcome = read;
    });
    await delivered();
    expect(outcome).toEqual({ refused: "busy", close: false });
    request.end(Buffer.alloc(50));
    await delivered();
    expect(budget.inUse).toBe(60);
  });

  it("lets go of a refused body: none of the reader's listeners stays on the request to keep its chunks", async () => {
    const budget = new BufferBudget(10);
    const request = fakeRequest(fakeSocket());
    const before = ["end", "close"].map((event) => request.listenerCount(event));
    const reading = readBody(request, 1000, budget);
    request.write(Buffer.alloc(6));
    request.write(Buffer.alloc(6));
    expect((await reading).read).toEqual({ refused: "busy", close: false });
    expect(["end", "close"].map((event) => request.listenerCount(event))).toEqual(before);
  });

  it("holds a body's bytes in the budget until they are released, whatever the request does after its end", async () => {
    const budget = new BufferBudget(100);
    const request = fakeRequest(fakeSocket());
    // The server's own listener: an error after the body was read is not the reader's business.
    request.on("error", () => {});
    const reading = readBody(request, 100, budget);
    request.end(Buffer.from("hello"));
    const { read, release } = await reading;
    expect(read).toEqual({ bytes: Buffer.from("hello") });
    await delivered();
    // The stream closes after its end (and could fail later still): the bytes stay held.
    request.emit("error", new Error("late"));
    request.emit("close");
    expect(budget.inUse).toBe(5);
    release();
    expect(budget.inUse).toBe(0);
  });

  it("takes none of the rest of a refused body into the budget: it is thrown away as it arrives", async () => {
    const budget = new BufferBudget(10);
    const request = fakeRequest(fakeSocket());
    const reading = readBody(request, 1000, budget);
    request.write(Buffer.alloc(6));
    request.write(Buffer.alloc(6));
    expect((await reading).read).toEqual({ refused: "busy", close: false });
    request.end(Buffer.alloc(3));
    await delivered();
    expect(budget.inUse).toBe(0);
  });
});

describe("a body nobody wants (discardBody)", () => {
  it("is read and thrown away up to its bound, the connection kept", async () => {
    const socket = fakeSocket();
    const request = fakeRequest(socket, { "content-length": "10" });
    expect(discardBody(request, 10)).toBe(true);
    request.write(Buffer.alloc(6));
    request.write(Buffer.alloc(4));
    await delivered();
    expect(socket.destroyed).toBe(false);
  });

  it("closes the connection at the chunk that crosses its bound", async () => {
    const socket = fakeSocket();
    const request = fakeRequest(socket);
    expect(discardBody(request, 10)).toBe(true);
    request.write(Buffer.alloc(10));
    await delivered();
    expect(socket.destroyed).toBe(false);
    request.write(Buffer.alloc(1));
    await delivered();
    expect(socket.destroyed).toBe(true);
  });

  it("is not read at all when its Content-Length is over the bound: the answer closes the connection", () => {
    const request = fakeRequest(fakeSocket(), { "content-length": "11" });
    expect(discardBody(request, 10)).toBe(false);
    expect(request.listenerCount("data")).toBe(0);
  });

  it("takes a client gone while it is thrown away as no failure", () => {
    const request = fakeRequest(fakeSocket());
    discardBody(request, 10);
    expect(() => request.emit("error", new Error("read ECONNRESET"))).not.toThrow();
  });
});

describe("a request that fails while its body is read", () => {
  /** What a reading came to: its value, its error, or "pending" while it is neither. */
  function settling<T>(promise: Promise<T>): { outcome: unknown } {
    const state: { outcome: unknown } = { outcome: "pending" };
    promise.then(
      (value) => {
        state.outcome = value;
      },
      (error: unknown) => {
        state.outcome = error;
      },
    );
    return state;
  }

  it("rejects with the request's own error while its client is still there (no socket destroyed, or none at all)", async () => {
    for (const socket of [{ destroyed: false }, undefined]) {
      const budget = new BufferBudget(100);
      const request = fakeRequest(socket);
      const reading = settling(readBody(request, 100, budget));
      request.write(Buffer.alloc(4));
      await delivered();
      const failure = new Error("parse error");
      request.emit("error", failure);
      await delivered();
      expect(reading.outcome).toBe(failure);
      expect(budget.inUse).toBe(0);
    }
  });

  it("rejects with ClientGone when the request or its socket is destroyed: the client went away", async () => {
    const goneSocket = fakeRequest({ destroyed: true });
    const goneRequest = Object.assign(fakeRequest({ destroyed: false }), { destroyed: true });
    for (const request of [goneSocket, goneRequest]) {
      const budget = new BufferBudget(100);
      const reading = settling(readBody(request, 100, budget));
      request.emit("error", new Error("aborted"));
      await delivered();
      expect(reading.outcome).toBeInstanceOf(ClientGone);
      expect(budget.inUse).toBe(0);
    }
  });

  it("rejects with ClientGone, taking nothing, when the request closes before its body ends", async () => {
    const budget = new BufferBudget(100);
    const request = fakeRequest({ destroyed: false });
    const reading = settling(readBody(request, 100, budget));
    request.write(Buffer.alloc(4));
    await delivered();
    request.emit("close");
    await delivered();
    expect(reading.outcome).toBeInstanceOf(ClientGone);
    expect(budget.inUse).toBe(0);
  });

  it("names what ClientGone means: the client closed the connection before the body ended", () => {
    expect(new ClientGone().message).toMatch(/client closed the connection before the body ended/);
  });
});
