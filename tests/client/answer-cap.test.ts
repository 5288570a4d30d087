/** The answer cap alone: an answer's body is read up to the bound and no further, and no longer than its request's time. */
import { describe, expect, it } from "vitest";
import { ATTEMPT, attemptRequests, capped, readText, type Attempt } from "../../runtime/client/answer-cap.ts";

const TOO_LARGE = "the answer is larger than maxResponseBytes, 100 bytes";

/** An answer of `bytes` bytes in chunks of 10, with a Content-Length or without one, recording a cancel. */
function answering(bytes: number, contentLength: boolean, status = 200) {
  const state = { cancelled: false, pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = Math.min(10, bytes - state.pulled);
      if (chunk <= 0) return controller.close();
      state.pulled += chunk;
      controller.enqueue(new Uint8Array(chunk).fill(0x61));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  const headers: Record<string, string> = contentLength ? { "content-length": String(bytes), "x-kept": "1" } : {};
  return { response: new Response(body, { status, headers }), state };
}

describe("reading an answer within the bound", () => {
  it("reads an answer of exactly the bound, with or without Content-Length, in one chunk or many", async () => {
    for (const contentLength of [true, false]) {
      expect(await readText(answering(100, contentLength).response, 100)).toBe("a".repeat(100));
    }
    expect(await readText(new Response('{"status":"processing"}'), 100)).toBe('{"status":"processing"}');
  });

  it("a Content-Length one byte over the bound fails before reading, and lets the body go", async () => {
    const { response, state } = answering(101, true);
    await expect(readText(response, 100)).rejects.toThrow(TOO_LARGE);
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThanOrEqual(10);
  });

  it("a body streamed without Content-Length fails once it passes the bound, one byte over included, and the rest is let go", async () => {
    await expect(readText(answering(101, false).response, 100)).rejects.toThrow(TOO_LARGE);
    const { response, state } = answering(1_000, false);
    await expect(readText(response, 100)).rejects.toThrow(TOO_LARGE);
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(200);
  });

  it("an answer with no body (a 204) reads as empty", async () => {
    expect(await readText(new Response(null, { status: 204 }), 100)).toBe("");
  });

  it("its attempt's stop ends a reading under way; an attempt already late lets the body go unread", async () => {
    const attempt: Attempt = {};
    let pulls = 0;
    const dripping = new Response(
      new ReadableStream<Uint8Array>({
        // One chunk, then nothing more: the reading waits on the second pull.
        pull: (controller) => (pulls++ === 0 ? controller.enqueue(new Uint8Array([0x61])) : new Promise(() => {})),
      }),
    );
    const reading = readText(dripping, 100, attempt);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(attempt.stop).toBeTypeOf("function");
    attempt.stop?.();
    // Ended, not left waiting: what came so far, which the call no longer looks at.
    expect(await reading).toBe("a");
    const late = answering(50, true);
    expect(await readText(late.response, 100, { late: true })).toBe("");
    expect([late.state.cancelled, late.state.pulled]).toEqual([true, 0]);
  });
});

describe("an answer as the client's fetch hands it on", () => {
  it("reads through `text` and `json` within the bound, keeping its status and headers; openapi-fetch reads every answer so", async () => {
    const { response } = answering(100, true, 500);
    const read = capped(response, 100);
    expect([read, read.status, read.headers.get("x-kept")]).toEqual([response, 500, "1"]);
    expect(await read.text()).toBe("a".repeat(100));
    const json = capped(new Response('{"status":"processing"}'), 100);
    expect(await json.json()).toEqual({ status: "processing" });
    for (const method of ["text", "json"] as const) {
      const over = answering(1_000, false);
      await expect(capped(over.response, 100)[method]()).rejects.toThrow(TOO_LARGE);
      expect(over.state.cancelled).toBe(true);
      expect(over.state.pulled).toBeLessThan(200);
    }
  });

  it("an answer that came after its request's time ran out is let go unread", async () => {
    const late = answering(50, true);
    expect(await capped(late.response, 100, { late: true }).text()).toBe("");
    expect([late.state.cancelled, late.state.pulled]).toEqual([true, 0]);
  });
});

describe("the Request that carries its call's attempt", () => {
  it("a Request built while an attempt is handed carries it; one built before, after, or after a send that threw carries none", () => {
    const [Carrying, handing] = attemptRequests();
    const attempt: Attempt = {};
    expect(new Carrying("http://127.0.0.1:1/")[ATTEMPT]).toBeUndefined();
    const built = handing(attempt, () => new Carrying("http://127.0.0.1:1/"));
    expect(built[ATTEMPT]).toBe(attempt);
    expect(built).toBeInstanceOf(Request);
    expect(new Carrying("http://127.0.0.1:1/")[ATTEMPT]).toBeUndefined();
    expect(() =>
      handing(attempt, () => {
        throw new Error("the send failed");
      }),
    ).toThrow("the send failed");
    expect(new Carrying("http://127.0.0.1:1/")[ATTEMPT]).toBeUndefined();
    // Each client its own: another client's hand-over does not reach this one's requests.
    const [, otherHanding] = attemptRequests();
    expect(otherHanding({}, () => new Carrying("http://127.0.0.1:1/"))[ATTEMPT]).toBeUndefined();
  });
});
