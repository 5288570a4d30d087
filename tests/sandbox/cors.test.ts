/**
 * Which pages may call a running sandbox (http-server/loopback-guard.ts), as a browser would ask:
 * the docs site served here at its default port gets its preflights answered and every header
 * exposed, without touching the routes or the windows; the origins the user allows (`allowedOrigins`,
 * `--allow-origin`) likewise, `null` (the docs opened from disk) only when named; every other page,
 * `Origin: null` and other ports of 127.0.0.1 and localhost included, is refused before the routes,
 * so it neither reads an answer nor creates a job. A `Host` that does not name the sandbox (DNS
 * rebinding) is refused too. Every documented answer is checked against the description.
 */
import { describe, expect, it } from "vitest";
import { rawExchange } from "../../fuzz/raw-http.ts";
import { checkedSandboxes, model } from "./support.ts";

const KEY = "cors-test-key";
const route = model.createRoutes.find((candidate) => candidate.label === "I-A")!;
const sandbox = checkedSandboxes();
const config = { accounts: { docs: { keys: [KEY], plan: "paid", credits: { monthlyLimit: 1_000, extra: 0 } } } };

/**
 * The request headers a page of the docs sends (sandbox/README.md, CORS): `Authorization` and
 * `Content-Type` from the console, `Prefer` to choose one of the mock's documented answers (the
 * reference names a `Prefer` value for each). A browser asks for them in its preflight, lower-cased.
 */
const PAGE_HEADERS = ["authorization", "content-type", "prefer"];

const preflight = (url: string, origin: string, method = "POST", headers: readonly string[] = PAGE_HEADERS) =>
  fetch(`${url}${route.path}`, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": method,
      "access-control-request-headers": headers.join(","),
    },
  });

/** The headers a preflight's answer allows, as the browser reads the list: comma-separated, any case. */
const allowedHeaders = (answer: Response): string[] =>
  (answer.headers.get("access-control-allow-headers") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);

const credits = (url: string, headers: Record<string, string>) =>
  fetch(`${url}/v1/account/credits`, { headers: { authorization: `Bearer ${KEY}`, ...headers } });

describe("which pages may call the sandbox", () => {
  it("answers the preflights of the docs site served at its default port, allowing every header its pages send", async () => {
    const { url } = await sandbox(config);
    for (const origin of ["http://127.0.0.1:8080", "http://localhost:8080"]) {
      const answer = await preflight(url, origin);
      expect(answer.status, origin).toBe(204);
      expect(answer.headers.get("access-control-allow-origin"), origin).toBe(origin);
      expect(answer.headers.get("access-control-allow-methods")).toContain("POST");
      expect(allowedHeaders(answer), origin).toEqual(expect.arrayContaining(PAGE_HEADERS));
    }
  });

  it("allows in its preflight answer each header a page of the docs sends (Authorization, Content-Type, Prefer), asked alone", async () => {
    const { url } = await sandbox(config);
    for (const header of PAGE_HEADERS) {
      const answer = await preflight(url, "http://127.0.0.1:8080", "POST", [header]);
      expect(answer.status, header).toBe(204);
      expect(allowedHeaders(answer), header).toContain(header);
    }
  });

  it("refuses every other page before its call reaches the routes: Origin null, other ports of this machine, other sites", async () => {
    const sb = await sandbox(config);
    const before = await sb.send("GET", "/v1/account/credits", { key: KEY });
    for (const origin of [
      "null",
      "http://localhost:43117",
      "http://127.0.0.1",
      "https://evil.example",
      "http://127.0.0.1.evil.example",
      "http://localhost.evil.example:8080",
    ]) {
      const answer = await preflight(sb.url, origin);
      expect(answer.status, origin).toBe(403);
      expect(answer.headers.get("access-control-allow-origin"), origin).toBeNull();
      const call = await credits(sb.url, { origin });
      expect(call.status, origin).toBe(403);
      expect(call.headers.get("access-control-allow-origin"), origin).toBeNull();
      const body = (await call.json()) as { error: { type: string; code: string; message: string } };
      expect([body.error.type, body.error.code]).toEqual(["permission_error", "origin_not_allowed"]);
      expect(body.error.message).toContain("--allow-origin");
      expect(body.error.message).not.toContain("monthly");
      // A create from a hostile page (a simple POST, no preflight needed) starts no job and charges nothing.
      const created = await fetch(`${sb.url}${route.path}`, {
        method: "POST",
        headers: { origin, authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: "{}",
      });
      expect(created.status, origin).toBe(403);
    }
    const after = await sb.send("GET", "/v1/account/credits", { key: KEY });
    expect(after.json.monthly_used).toBe(before.json.monthly_used);
  });

  it("serves the origins the user allows, exactly, and null only when named", async () => {
    const { url } = await sandbox(config, { allowedOrigins: ["https://docs.example.test", "null"] });
    for (const origin of ["https://docs.example.test", "null"]) {
      const answer = await credits(url, { origin });
      expect(answer.status, origin).toBe(200);
      expect(answer.headers.get("access-control-allow-origin")).toBe(origin);
      expect((await preflight(url, origin)).status).toBe(204);
    }
    expect((await credits(url, { origin: "https://docs.example.test:8443" })).status).toBe(403);
  });

  it("lets an allowed page read every header of the answers, the rate-limit ones included", async () => {
    const { url } = await sandbox(config);
    const answer = await credits(url, { origin: "http://127.0.0.1:8080" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-expose-headers")).toBe("*");
    expect(answer.headers.get(model.rateLimitHeaders.remaining)).not.toBeNull();
  });

  it("counts preflights in no request window", async () => {
    const sb = await sandbox(config);
    const remaining = async () =>
      Number((await sb.send("GET", "/v1/account/credits", { key: KEY })).headers.get(model.rateLimitHeaders.remaining));
    const before = await remaining();
    for (let i = 0; i < 3; i += 1) await preflight(sb.url, "http://127.0.0.1:8080");
    // Only the reading itself counts.
    expect(await remaining()).toBe(before - 1);
  });

  it("leaves an OPTIONS without Access-Control-Request-Method to the sandbox's routes", async () => {
    const { url } = await sandbox(config);
    const answer = await fetch(`${url}${route.path}`, {
      method: "OPTIONS",
      headers: { origin: "http://127.0.0.1:8080" },
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("access-control-allow-methods")).toBeNull();
  });

  it("refuses a Host that does not name the sandbox (DNS rebinding), and serves the names it is bound to", async () => {
    const { url, running } = await sandbox(config);
    for (const host of [
      "evil.example",
      `evil.example:${running.port}`,
      "127.0.0.1:1",
      `localhost.evil.example:${running.port}`,
    ]) {
      const answer = await rawCredits(running.port, host);
      expect(answer?.status, host).toBe(403);
      expect(JSON.parse(answer!.body.toString()).error.code, host).toBe("host_not_allowed");
    }
    for (const host of [
      `127.0.0.1:${running.port}`,
      `localhost:${running.port}`,
      `LOCALHOST:${running.port}`,
      "127.0.0.1",
    ]) {
      expect((await rawCredits(running.port, host))?.status, host).toBe(200);
    }
    expect((await credits(url, {})).status).toBe(200);
  });
});

/** The credits read with `host` as its Host header (fetch always sends the URL's own). */
function rawCredits(port: number, host: string) {
  return rawExchange(
    port,
    Buffer.from(
      `GET /v1/account/credits HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`,
    ),
  );
}
