/**
 * The sandbox's CORS for the docs' try-it console (sandbox/cors.ts): preflights from the docs'
 * origins (127.0.0.1 and localhost on any port, `null` from disk) are answered without touching
 * the routes or the windows, their answers expose the headers, and other origins get nothing unless
 * SANDBOX_CORS_ORIGINS names them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { corsOrigins } from "../../sandbox/cors.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { model } from "../support/description.ts";

const KEY = "cors-test-key";
const route = model.createRoutes.find((candidate) => candidate.label === "I-A")!;
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ config: { accounts: { docs: { keys: [KEY], plan: "paid", credits: { monthlyLimit: 1_000, extra: 0 } } } }, port: 0, model });
});
afterAll(() => sandbox?.close());

const preflight = (origin: string, method = "POST") =>
  fetch(`${sandbox.url}${route.path}`, { method: "OPTIONS", headers: { origin, "access-control-request-method": method, "access-control-request-headers": "authorization, content-type" } });

describe("sandbox CORS", () => {
  it("answers the docs' preflights, served or from disk, with what the console sends", async () => {
    for (const origin of ["http://127.0.0.1:8080", "http://localhost:43117", "http://127.0.0.1", "null"]) {
      const answer = await preflight(origin);
      expect(answer.status, origin).toBe(204);
      expect(answer.headers.get("access-control-allow-origin"), origin).toBe(origin);
      expect(answer.headers.get("access-control-allow-methods")).toContain("POST");
      expect(answer.headers.get("access-control-allow-headers")).toContain("authorization");
    }
  });

  it("gives other origins no CORS headers and refuses their preflights", async () => {
    for (const origin of ["https://evil.example", "http://127.0.0.1.evil.example", "http://localhost.evil.example:80"]) {
      const answer = await preflight(origin);
      expect(answer.status, origin).toBe(403);
      expect(answer.headers.get("access-control-allow-origin"), origin).toBeNull();
      const call = await fetch(`${sandbox.url}/v1/account/credits`, { headers: { origin, authorization: `Bearer ${KEY}` } });
      expect(call.status).toBe(200);
      expect(call.headers.get("access-control-allow-origin"), origin).toBeNull();
    }
  });

  it("lets the docs read every header of the answers, the rate-limit ones included", async () => {
    const answer = await fetch(`${sandbox.url}/v1/account/credits`, { headers: { origin: "null", authorization: `Bearer ${KEY}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe("null");
    expect(answer.headers.get("access-control-expose-headers")).toBe("*");
    expect(answer.headers.get(model.rateLimitHeaders.remaining)).not.toBeNull();
  });

  it("counts preflights in no request window", async () => {
    const remaining = async () => Number((await fetch(`${sandbox.url}/v1/account/credits`, { headers: { authorization: `Bearer ${KEY}` } })).headers.get(model.rateLimitHeaders.remaining));
    const before = await remaining();
    for (let i = 0; i < 3; i += 1) await preflight("null");
    // Only the reading itself counts.
    expect(await remaining()).toBe(before - 1);
  });

  it("leaves an OPTIONS without Access-Control-Request-Method to the sandbox's routes", async () => {
    const answer = await fetch(`${sandbox.url}${route.path}`, { method: "OPTIONS", headers: { origin: "null" } });
    expect(answer.status).not.toBe(204);
    expect(answer.headers.get("access-control-allow-methods")).toBeNull();
  });

  it("allows the origins SANDBOX_CORS_ORIGINS lists, exactly", () => {
    const allowed = corsOrigins({ SANDBOX_CORS_ORIGINS: "https://docs.example.test, https://other.example.test" });
    expect(allowed("https://docs.example.test")).toBe(true);
    expect(allowed("https://other.example.test")).toBe(true);
    expect(allowed("https://docs.example.test:8443")).toBe(false);
    expect(allowed("null")).toBe(true);
    expect(corsOrigins({})("https://docs.example.test")).toBe(false);
  });
});
