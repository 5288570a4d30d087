/** cappedFetch alone: an answer's body is read up to the bound and no further. */
import { describe, expect, it } from "vitest";
import { cappedFetch } from "../../runtime/client/answer-cap.ts";

const request = new Request("http://127.0.0.1:1/v1/account/credits");

/** A fetch answering `bytes` bytes in chunks of 10, with a Content-Length or without one, recording a cancel. */
function answering(bytes: number, contentLength: boolean) {
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
  const headers: Record<string, string> = contentLength ? { "content-length": String(bytes) } : {};
  return { fetch: async () => new Response(body, { status: 200, headers }), state };
}

describe("the answer cap", () => {
  it("reads an answer of exactly the bound, with or without Content-Length, keeping its status and headers", async () => {
    for (const contentLength of [true, false]) {
      const { fetch } = answering(100, contentLength);
      const response = await cappedFetch(fetch, 100)(request);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-length")).toBe(contentLength ? "100" : null);
      expect((await response.text()).length).toBe(100);
    }
  });

  it("a Content-Length one byte over the bound fails before reading, and lets the body go", async () => {
    const { fetch, state } = answering(101, true);
    await expect(cappedFetch(fetch, 100)(request)).rejects.toThrow(
      "the answer is larger than maxResponseBytes, 100 bytes",
    );
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThanOrEqual(10);
  });

  it("a body streamed without Content-Length fails once it passes the bound, one byte over included", async () => {
    const { fetch } = answering(101, false);
    const response = await cappedFetch(fetch, 100)(request);
    await expect(response.text()).rejects.toThrow("the answer is larger than maxResponseBytes, 100 bytes");
  });

  it("an answer with no body (a 204) is handed on as it is", async () => {
    const empty = new Response(null, { status: 204 });
    expect(await cappedFetch(async () => empty, 100)(request)).toBe(empty);
  });
});
