/**
 * Answering one request in one chain (http-server/answer.ts): the answer is produced, sent, and the
 * bytes it held are given back once it is sent; a failure anywhere (producing or sending) is one log
 * line naming the server, the request and the message, and the server's 500; a client gone mid-body
 * is no failure and is not logged; when even the 500 cannot be sent, the response is destroyed.
 * `sendWhole` sends a whole answer with its length in bytes, and nothing to a response already sent
 * or gone. The chain is promises only: the tests let it run to its end (setImmediate) and read what happened.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { answerInTurn, sendWhole } from "../../http-server/answer.ts";
import { ClientGone } from "../../http-server/body-reader.ts";

/** Lets every promise of the chain settle. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

let logged: MockInstance<typeof console.error>;
beforeEach(() => {
  logged = vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  logged.mockRestore();
});

/** A response that records whether it was destroyed; answerInTurn touches nothing else of it. */
function fakeResponse(events: string[]): ServerResponse {
  return { destroy: () => events.push("destroyed") } as unknown as ServerResponse;
}

const request = (url: string | undefined, method = "POST") => ({ method, url }) as IncomingMessage;

describe("answerInTurn", () => {
  it("sends the answer produced, then gives back the bytes the body held", async () => {
    const events: string[] = [];
    answerInTurn(
      "test server",
      request("/v1/jobs"),
      fakeResponse(events),
      async (hold) => {
        hold(() => events.push("released"));
        return "answer";
      },
      (message) => `500: ${message}`,
      (answer) => events.push(`sent ${answer}`),
    );
    await settled();
    expect(events).toEqual(["sent answer", "released"]);
    expect(logged).not.toHaveBeenCalled();
  });

  it("answers a failure to produce with the server's 500 and one log line naming the server, request and message", async () => {
    const events: string[] = [];
    answerInTurn(
      "test server",
      request("/v1/images/I-A"),
      fakeResponse(events),
      async (hold) => {
        hold(() => events.push("released"));
        throw new Error("boom");
      },
      (message) => `500: ${message}`,
      (answer) => events.push(`sent ${answer}`),
    );
    await settled();
    expect(events).toEqual(["sent 500: boom", "released"]);
    expect(logged.mock.calls).toEqual([["test server: POST /v1/images/I-A failed: boom"]]);
  });

  it("logs at most the first 200 characters of the request target", async () => {
    const target = `/${"a".repeat(300)}`;
    answerInTurn(
      "test server",
      request(target, "GET"),
      fakeResponse([]),
      () => Promise.reject(new Error("boom")),
      (message) => message,
      () => {},
    );
    await settled();
    expect(logged.mock.calls).toEqual([[`test server: GET ${target.slice(0, 200)} failed: boom`]]);
  });

  it("logs an empty target for a request that has none", async () => {
    answerInTurn(
      "test server",
      request(undefined, "GET"),
      fakeResponse([]),
      () => Promise.reject(new Error("boom")),
      (message) => message,
      () => {},
    );
    await settled();
    expect(logged.mock.calls).toEqual([["test server: GET  failed: boom"]]);
  });

  it("does not log a client gone mid-body: there is no failure, and no one to answer", async () => {
    const events: string[] = [];
    answerInTurn(
      "test server",
      request("/v1/jobs"),
      fakeResponse(events),
      async (hold) => {
        hold(() => events.push("released"));
        throw new ClientGone();
      },
      (message) => `500: ${message}`,
      (answer) => events.push(`sent ${answer}`),
    );
    await settled();
    expect(logged).not.toHaveBeenCalled();
    expect(events).toContain("released");
  });

  it("answers a failure to send the answer with the server's 500, logged, and still gives back the bytes", async () => {
    const events: string[] = [];
    answerInTurn(
      "test server",
      request("/v1/jobs"),
      fakeResponse(events),
      async (hold) => {
        hold(() => events.push("released"));
        return "answer";
      },
      (message) => `500: ${message}`,
      (answer) => {
        if (answer === "answer") throw new Error("cannot send");
        events.push(`sent ${answer}`);
      },
    );
    await settled();
    expect(events).toEqual(["sent 500: cannot send", "released"]);
    expect(logged.mock.calls).toEqual([["test server: POST /v1/jobs failed: cannot send"]]);
  });

  it("destroys the response when even the 500 cannot be sent, and still gives back the bytes", async () => {
    const events: string[] = [];
    answerInTurn(
      "test server",
      request("/v1/jobs"),
      fakeResponse(events),
      async (hold) => {
        hold(() => events.push("released"));
        return "answer";
      },
      (message) => `500: ${message}`,
      () => {
        throw new Error("cannot send");
      },
    );
    await settled();
    expect(events).toEqual(["destroyed", "released"]);
  });
});

describe("sendWhole", () => {
  /** A response in the given state, recording what is written to it. */
  function recording(state: { headersSent: boolean; destroyed: boolean }) {
    const written: unknown[] = [];
    const response = {
      ...state,
      writeHead(status: number, headers: Record<string, string | number>) {
        written.push({ status, headers });
        return { end: (body: unknown) => written.push({ body }) };
      },
    } as unknown as ServerResponse;
    return { response, written };
  }

  it("sends the status, the headers and the body with its length in bytes", () => {
    const { response, written } = recording({ headersSent: false, destroyed: false });
    sendWhole(response, 201, { "content-type": "text/plain" }, "café");
    expect(written).toEqual([
      { status: 201, headers: { "content-type": "text/plain", "content-length": 5 } },
      { body: "café" },
    ]);
  });

  it("sends nothing to a response whose headers are already sent, or to one that is gone", () => {
    for (const state of [
      { headersSent: true, destroyed: false },
      { headersSent: false, destroyed: true },
      { headersSent: true, destroyed: true },
    ]) {
      const { response, written } = recording(state);
      sendWhole(response, 500, {}, "late");
      expect(written, JSON.stringify(state)).toEqual([]);
    }
  });
});
