/** The client's `call` alone, on a bare openapi-fetch client: the pause, the resends, the typed errors. */
import createFetchClient, { type Client } from "openapi-fetch";
import { afterEach, describe, expect, it, vi } from "vitest";
import { routeTable } from "../../generated/client.ts";
import { attemptRequests } from "../../runtime/client/answer-cap.ts";
import { caller, type AnyPaths, type CallBounds } from "../../runtime/client/calling.ts";
import { RateLimitedError, TransportError, UnexpectedStatusError } from "../../runtime/client/errors.ts";
import { retryAfterPause } from "../../runtime/client/pause.ts";
import { drive, inOrder, startServer, type Handler, type ScriptedServer } from "./scripted-server.ts";
import { API_KEY, example, useFakeClock } from "./support.ts";

useFakeClock();

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/**
 * A `call` on a scripted server, with the client's defaults unless `bounds` say otherwise. `api` is a
 * bare openapi-fetch client: no fetch of the client's holds the pause or bounds the answers here.
 */
async function callOn(handle: Handler, { api, ...bounds }: Partial<CallBounds> & { api?: Client<AnyPaths> } = {}) {
  const server = await startServer(handle);
  servers.push(server);
  const pause = retryAfterPause(300_000);
  const call = caller(
    api ??
      createFetchClient<AnyPaths>({
        baseUrl: server.baseUrl,
        fetch: server.fetch,
        headers: { Authorization: `Bearer ${API_KEY}` },
      }),
    attemptRequests()[1],
    routeTable,
    API_KEY,
    pause,
    { maxRetries: 3, maxPauseMs: 300_000, requestTimeoutMs: 60_000, ...bounds },
  );
  return { server, call, pause };
}

const times = (server: ScriptedServer) => server.requests.map((r) => r.at - 1_000_000);
const rateLimited = (seconds: string) => ({
  status: 429,
  body: example("RateLimited"),
  headers: { "Retry-After": seconds },
});

describe("one call", () => {
  it("resolves to the 200 answer's data, sending the route's parameters", async () => {
    const { server, call } = await callOn(inOrder({ status: 200, body: { status: "processing" } }));
    expect(
      await drive(server, call("get", "/v1/images/{id}", { params: { path: { id: "img_1" } } }, undefined, true)),
    ).toEqual({ status: "processing" });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/images/img_1"]);
  });

  it("clears a request's timeout once it is answered: a finished call leaves no timer behind", async () => {
    // A fetch that answers at once, with no connection (and no timers) of its own.
    const answers = [200, 404];
    const api = createFetchClient<AnyPaths>({
      baseUrl: "http://127.0.0.1:9",
      fetch: async () =>
        new Response("{}", { status: answers.shift(), headers: { "content-type": "application/json" } }),
    });
    const { call } = await callOn(inOrder({}), { api });
    await call("get", "/v1/account/credits", {}, undefined, true);
    expect(vi.getTimerCount()).toBe(0);
    await expect(call("get", "/v1/account/credits", {}, undefined, false)).rejects.toBeInstanceOf(
      UnexpectedStatusError,
    );
    expect(vi.getTimerCount()).toBe(0);
  });

  it("waits out the pause before sending", async () => {
    const { server, call, pause } = await callOn(inOrder({ status: 200, body: {} }));
    pause.hold(7);
    await drive(server, call("get", "/v1/account/credits", {}, undefined, true));
    expect(times(server)).toEqual([7_000]);
  });

  it("resends a resendable request after a transient failure (1 s, 2 s, 4 s), and gives up after maxRetries with the last error", async () => {
    const { server, call } = await callOn(inOrder({ status: 503, body: {} }));
    await expect(drive(server, call("get", "/v1/account/credits", {}, undefined, true))).rejects.toBeInstanceOf(
      UnexpectedStatusError,
    );
    expect(times(server)).toEqual([0, 1_000, 3_000, 7_000]);
  });

  it("never resends a request that is not resendable after a transient failure", async () => {
    const { server, call } = await callOn(inOrder({ destroy: true }));
    const error = await drive(server, call("post", "/v1/posts", { body: {} }, undefined, false)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ mayHaveCreatedJob: true });
    expect(server.requests).toHaveLength(1);
  });

  it("resends a rate-limit 429 even when not resendable, with no delay of its own: the pause alone (held by the client's fetch) spaces it", async () => {
    const { server, call } = await callOn(inOrder(rateLimited("2"), { status: 200, body: { id: "x" } }));
    expect(await drive(server, call("post", "/v1/posts", { body: {} }, undefined, false))).toEqual({ id: "x" });
    // No fetch of the client holds the pause here: the resend goes at once.
    expect(times(server)).toEqual([0, 0]);
  });

  it("a lost answer's message names the network error fetch gives as its cause, the key redacted", async () => {
    const { call } = await callOn(inOrder({ status: 200, body: {} }), {
      api: createFetchClient<AnyPaths>({
        baseUrl: "http://127.0.0.1:9",
        fetch: async () => {
          throw new TypeError("fetch failed", { cause: new Error(`connect ECONNREFUSED for ${API_KEY}`) });
        },
      }),
    });
    const error = await call("get", "/v1/account/credits", {}, undefined, false).catch((e: unknown) => e);
    expect(String(error)).toBe(
      "TransportError: GET /v1/account/credits: no usable response (TypeError: fetch failed (Error: connect ECONNREFUSED for [redacted]))",
    );
  });

  it("the request timeout holds with the caller's signal too; the caller's abort ends a request under way with its reason", async () => {
    const hanging = async () => {
      const server = await startServer(inOrder({ status: 200, body: {}, hang: "headers" }));
      servers.push(server);
      const api = createFetchClient<AnyPaths>({ baseUrl: server.baseUrl, fetch: (request) => fetch(request) });
      return { server, call: (await callOn(inOrder({}), { api, requestTimeoutMs: 2_000 })).call };
    };
    // Both end the request when they fire (on the fake clock), not when something else would give up on it later.
    const timed = await hanging();
    let start = Date.now();
    const error = await drive(
      timed.server,
      timed.call("get", "/v1/account/credits", {}, { signal: new AbortController().signal }, false),
    ).catch((e: unknown) => e);
    expect(String(error)).toBe(
      "TransportError: GET /v1/account/credits: no usable response (no answer within requestTimeoutMs, 2000 ms)",
    );
    expect(Date.now() - start).toBe(2_000);
    const aborted = await hanging();
    const controller = new AbortController();
    const reason = new Error("caller gave up");
    start = Date.now();
    setTimeout(() => controller.abort(reason), 500);
    await expect(
      drive(aborted.server, aborted.call("get", "/v1/account/credits", {}, { signal: controller.signal }, true)),
    ).rejects.toBe(reason);
    expect(Date.now() - start).toBe(500);
  });

  it("a lost answer with no cause of its own is named as it is", async () => {
    const api = createFetchClient<AnyPaths>({
      baseUrl: "http://127.0.0.1:9",
      fetch: async () => Promise.reject(new Error("socket hang up")),
    });
    const { call } = await callOn(inOrder({}), { api });
    const error = await call("get", "/v1/account/credits", {}, undefined, false).catch((e: unknown) => e);
    expect(String(error)).toBe("TransportError: GET /v1/account/credits: no usable response (Error: socket hang up)");
  });

  it("a rate-limit 429 asking for longer than maxPauseMs is not resent", async () => {
    const { server, call } = await callOn(inOrder(rateLimited("301"), { status: 200, body: {} }));
    const error = await drive(server, call("get", "/v1/account/credits", {}, undefined, true)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ retryAfterSeconds: 301 });
    expect(server.requests).toHaveLength(1);
  });
});
