/**
 * The Host and Origin checks of the servers on 127.0.0.1 (http-server/loopback-guard.ts): `Host` must name the
 * address the server is bound to; a request without one (HTTP/1.0 allows it) names nothing and is
 * refused 403 `host_not_allowed`, the refusal saying it got none; a Host that only ends with a name
 * of 127.0.0.1 names another host, and is refused too. A page of the server's own origin, by either
 * name, is served as its own: no CORS headers. An allowed page's preflight is answered here (204, the
 * methods and headers the console sends); its calls are served with CORS headers, keyed by Origin.
 */
import { describe, expect, it } from "vitest";
import { rawExchange } from "../../fuzz/raw-http.ts";
import { sendWhole } from "../../http-server/answer.ts";
import type { HttpRefusal } from "../../http-server/error-codes.ts";
import { listenOnLoopback } from "../../http-server/listen.ts";
import { allowOriginHint } from "../../http-server/loopback-guard.ts";

/** A server with CORS and no page allowed, answering 200 "served", or its refusal's status and code. */
const serving = () =>
  listenOnLoopback({
    port: 0,
    policy: { allowedOrigins: [], cors: true },
    handle: (_request, response) => sendWhole(response, 200, {}, "served"),
    refuse: (_request, response, refusal) => sendWhole(response, refusal.status, {}, refusal.code),
  });

describe("the Host and Origin checks", () => {
  it("refuses a request without Host, saying it got none", async () => {
    const refusals: HttpRefusal[] = [];
    const running = await listenOnLoopback({
      port: 0,
      policy: { allowedOrigins: [], cors: true },
      handle: (_request, response) => sendWhole(response, 200, {}, "served"),
      refuse: (_request, response, refusal) => {
        refusals.push(refusal);
        sendWhole(response, refusal.status, {}, refusal.message);
      },
    });
    try {
      const answer = await rawExchange(running.port, Buffer.from("GET / HTTP/1.0\r\n\r\n"));
      expect(answer?.status).toBe(403);
      expect(refusals).toEqual([
        {
          status: 403,
          type: "permission_error",
          code: "host_not_allowed",
          message: `Host: must name this server, 127.0.0.1:${running.port} or localhost:${running.port} (got none); a name resolving here is refused, as DNS rebinding would use one`,
        },
      ]);
      const named = await rawExchange(running.port, Buffer.from(`GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n`));
      expect(named?.status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it("shows at most the first 100 characters of a refused Host", async () => {
    const refusals: HttpRefusal[] = [];
    const running = await listenOnLoopback({
      port: 0,
      policy: { allowedOrigins: [], cors: true },
      handle: (_request, response) => sendWhole(response, 200, {}, "served"),
      refuse: (_request, response, refusal) => {
        refusals.push(refusal);
        sendWhole(response, refusal.status, {}, refusal.code);
      },
    });
    try {
      const host = `${"a".repeat(150)}.example`;
      await rawExchange(running.port, Buffer.from(`GET / HTTP/1.0\r\nHost: ${host}\r\n\r\n`));
      expect(refusals[0]?.message).toContain(`(got ${JSON.stringify(host.slice(0, 100))});`);
    } finally {
      await running.close();
    }
  });

  it("refuses a page of another origin, naming at most its first 100 characters and the flag that allows it", async () => {
    const refusals: HttpRefusal[] = [];
    const running = await listenOnLoopback({
      port: 0,
      policy: { allowedOrigins: [], cors: true },
      handle: (_request, response) => sendWhole(response, 200, {}, "served"),
      refuse: (_request, response, refusal) => {
        refusals.push(refusal);
        sendWhole(response, refusal.status, {}, refusal.code);
      },
    });
    try {
      const origin = `https://${"a".repeat(150)}.example`;
      const answer = await rawExchange(
        running.port,
        Buffer.from(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${origin}\r\nConnection: close\r\n\r\n`),
      );
      expect(answer?.status).toBe(403);
      expect(refusals).toEqual([
        {
          status: 403,
          type: "permission_error",
          code: "origin_not_allowed",
          message: `Origin: ${JSON.stringify(origin.slice(0, 100))} is not allowed to call this server; if you trust that page, ${allowOriginHint(origin)}`,
        },
      ]);
    } finally {
      await running.close();
    }
  });

  it("refuses a Host that only ends with 127.0.0.1 or localhost after a colon", async () => {
    const running = await serving();
    try {
      for (const host of [
        "evil.example:127.0.0.1",
        "evil.example:localhost",
        `evil.example:localhost:${running.port}`,
      ]) {
        const answer = await rawExchange(running.port, Buffer.from(`GET / HTTP/1.0\r\nHost: ${host}\r\n\r\n`));
        expect(answer?.status, host).toBe(403);
        expect(answer?.body.toString(), host).toBe("host_not_allowed");
      }
    } finally {
      await running.close();
    }
  });

  it("refuses a Host that starts with a loopback name and its port but goes on, or names another port", async () => {
    const running = await serving();
    const exchange = (host: string) =>
      rawExchange(running.port, Buffer.from(`GET / HTTP/1.0\r\nHost: ${host}\r\n\r\n`));
    try {
      for (const host of [
        `127.0.0.1:${running.port}.evil.example`,
        `localhost:${running.port}x`,
        `localhost:${running.port}:80`,
        `127.0.0.1:${running.port + 1}`,
        `[::1]:${running.port}`,
      ]) {
        const answer = await exchange(host);
        expect(answer?.status, host).toBe(403);
        expect(answer?.body.toString(), host).toBe("host_not_allowed");
      }
      for (const host of [`127.0.0.1:${running.port}`, `LOCALHOST:${running.port}`, "localhost"])
        expect((await exchange(host))?.status, host).toBe(200);
    } finally {
      await running.close();
    }
  });

  it("serves a page of its own origin by either name, 127.0.0.1 or localhost, without CORS headers", async () => {
    const running = await serving();
    try {
      for (const origin of [`http://127.0.0.1:${running.port}`, `http://localhost:${running.port}`]) {
        const answer = await rawExchange(
          running.port,
          Buffer.from(
            `GET / HTTP/1.1\r\nHost: 127.0.0.1:${running.port}\r\nOrigin: ${origin}\r\nConnection: close\r\n\r\n`,
          ),
        );
        expect(answer?.status, origin).toBe(200);
        expect(answer?.headers.has("access-control-allow-origin"), origin).toBe(false);
      }
    } finally {
      await running.close();
    }
  });

  it("answers a preflight (OPTIONS with Access-Control-Request-Method) of an allowed page itself, and serves any other method carrying that header", async () => {
    const served: string[] = [];
    const running = await listenOnLoopback({
      port: 0,
      policy: { allowedOrigins: ["https://console.example"], cors: true },
      handle: (request, response) => {
        served.push(request.method ?? "");
        sendWhole(response, 200, {}, "served");
      },
      refuse: (_request, response, refusal) => sendWhole(response, refusal.status, {}, refusal.code),
    });
    const ask = (method: string) =>
      rawExchange(
        running.port,
        Buffer.from(
          `${method} / HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://console.example\r\nAccess-Control-Request-Method: POST\r\nConnection: close\r\n\r\n`,
        ),
      );
    try {
      const preflight = await ask("OPTIONS");
      expect(preflight?.status).toBe(204);
      expect(preflight?.headers.get("access-control-allow-origin")).toBe("https://console.example");
      expect(preflight?.headers.get("access-control-allow-methods")).toBe("GET, POST");
      expect(preflight?.headers.get("access-control-allow-headers")).toBe("authorization, content-type, prefer");
      const call = await ask("POST");
      expect(call?.status).toBe(200);
      expect(served).toEqual(["POST"]);
      // The answer is the allowed page's alone: a cache keys it by Origin (Vary), and every header is shown to it.
      expect(call?.headers.get("access-control-allow-origin")).toBe("https://console.example");
      expect(call?.headers.get("vary")).toBe("Origin");
      expect(call?.headers.get("access-control-expose-headers")).toBe("*");
    } finally {
      await running.close();
    }
  });
});
