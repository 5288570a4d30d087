/**
 * Every operation of the description is a typed method: the areas' create and poll routes, and one
 * method per other operation named after its operationId. Request headers (client-wide and per
 * call), openapi-fetch middleware and the offline quote.
 */
import { describe, expect, it } from "vitest";
import { deriveRouteTable } from "../../generators/client.ts";
import { routeTable } from "../../generated/client.ts";
import { loadServiceModel } from "../../model/service-model.ts";
import { pathOf, slug } from "./labels.ts";
import { drive, inOrder } from "./scripted-server.ts";
import { API_KEY, clientOn, created, job, quotingClientOn, useFakeClock } from "./support.ts";

useFakeClock();

const model = loadServiceModel();
const ok = { status: 200, body: {} };
const sent = (server: { requests: Array<{ method: string; path: string; body: unknown }> }) =>
  server.requests.map(({ method, path, body }) => ({ method, path, body }));

describe("one typed method per operation", () => {
  it("covers every operation of the description: creates and polls per area, every other one by its operationId", async () => {
    const { client } = await clientOn(inOrder(ok));
    const others = model.operations.filter((operation) => operation.kind === "other");
    expect(others.length).toBeGreaterThan(0);
    expect(Object.keys(routeTable.operations).sort()).toEqual(others.map((operation) => operation.operationId).sort());
    for (const { operationId, path, method } of others) {
      expect(routeTable.operations[operationId as keyof typeof routeTable.operations].slice(0, 2)).toEqual([
        method,
        path,
      ]);
      expect(typeof (client as unknown as Record<string, unknown>)[operationId]).toBe("function");
    }
    for (const area of model.areas) {
      expect(routeTable.areas[area.id as keyof typeof routeTable.areas].pollPath).toBe(area.poll.path);
      expect(Object.keys(routeTable.areas[area.id as keyof typeof routeTable.areas].routes)).toEqual(
        area.createRoutes.map((route) => route.slug),
      );
    }
  });

  it("sends each operation's method, path, query and body", async () => {
    const { server, client } = await clientOn(inOrder(ok));
    await drive(server, client.getAccountCredits());
    await drive(server, client.listModels({ type: "3d" }));
    await drive(server, client.listModels());
    await drive(server, client.searchStockImages({ query: "sunset over the sea", transparent: true }));
    await drive(server, client.searchStockSoundEffects({ category: "rain", max_duration: 10 }));
    await drive(server, client.searchStockMusic({ sort: "newest" }));
    await drive(server, client.quoteCost({ seconds: 12 }));
    await drive(server, client.createUpload({ file: "data:image/png;base64,AAAA" }));
    await drive(server, client.createPost({ license: "cc-by" }));
    expect(sent(server)).toEqual([
      { method: "GET", path: "/v1/account/credits", body: undefined },
      { method: "GET", path: "/v1/models?type=3d", body: undefined },
      { method: "GET", path: "/v1/models", body: undefined },
      { method: "GET", path: "/v1/stock/images?query=sunset%20over%20the%20sea&transparent=true", body: undefined },
      { method: "GET", path: "/v1/stock/sound-effects?category=rain&max_duration=10", body: undefined },
      { method: "GET", path: "/v1/stock/music?sort=newest", body: undefined },
      { method: "POST", path: "/v1/cost", body: { seconds: 12 } },
      { method: "POST", path: "/v1/uploads", body: { file: "data:image/png;base64,AAAA" } },
      { method: "POST", path: "/v1/posts", body: { license: "cc-by" } },
    ]);
    expect(server.requests.every((request) => request.authorization === `Bearer ${API_KEY}`)).toBe(true);
  });

  it("resolves to the parsed body and keeps the rate-limit headers", async () => {
    const credits = {
      extra_credits: 500,
      monthly_limit: 10000,
      monthly_remaining: 7500,
      monthly_used: 2500,
      total_available: 8000,
    };
    const { server, client } = await clientOn(
      inOrder({ status: 200, body: credits, headers: { "X-RateLimit-Remaining": "9" } }),
    );
    expect(await drive(server, client.getAccountCredits())).toEqual(credits);
    expect(client.rateLimit).toEqual({ limit: null, remaining: 9, resetSeconds: null });
  });
});

describe("which operations are resent after a transient failure", () => {
  // From the specification's table of other routes: reads are resent; a post may have changed
  // something; the stock searches are charged 10 credits per search, empty results included.
  const RESENDABLE = {
    getAccountCredits: true,
    listModels: true,
    quoteCost: false,
    createUpload: false,
    createPost: false,
    searchStockImages: false,
    searchStockSoundEffects: false,
    searchStockMusic: false,
  };
  const flags = (operations: Readonly<Record<string, readonly unknown[]>>) =>
    Object.fromEntries(Object.entries(operations).map(([name, route]) => [name, route[3]]));

  it("the generated client resends only the reads that are not charged per request", () => {
    expect(flags(routeTable.operations)).toEqual(RESENDABLE);
  });

  it("the generator derives the same from the service model (a GET charged per request is never resendable)", () => {
    expect(flags(deriveRouteTable(model).operations)).toEqual(RESENDABLE);
  });
});

describe("request headers", () => {
  it("sends the client's headers with every request and a call's own on top; the key's Authorization always wins", async () => {
    const IA = slug("image", "I-A");
    const { server, client } = await clientOn(
      inOrder(created("img_1"), job("succeeded", { images: [{ url: "u" }] }), ok),
      {
        headers: { "X-Client": "batch-7", "X-Request-Id": "client-default", Authorization: "Bearer someone-else" },
      },
    );
    await drive(server, client.image.createAndWait(IA, { prompt: "x" }, { headers: { "X-Request-Id": "req-1" } }));
    await drive(server, client.getAccountCredits({ headers: { "X-Request-Id": "req-2" } }));
    await drive(server, client.image.get("img_1"));
    expect(
      server.requests.map(({ headers }) => [headers["x-client"], headers["x-request-id"], headers.authorization]),
    ).toEqual([
      ["batch-7", "req-1", `Bearer ${API_KEY}`],
      ["batch-7", "req-1", `Bearer ${API_KEY}`],
      ["batch-7", "req-2", `Bearer ${API_KEY}`],
      ["batch-7", "client-default", `Bearer ${API_KEY}`],
    ]);
  });

  it("middleware added with client.api.use sees the typed methods' requests and may add headers", async () => {
    const { server, client } = await clientOn(inOrder(ok));
    const seen: string[] = [];
    client.api.use({
      onRequest({ request, schemaPath }) {
        seen.push(`${request.method} ${schemaPath}`);
        request.headers.set("X-Request-Id", `mw-${seen.length}`);
        return request;
      },
    });
    await drive(server, client.image.get("img_1"));
    await drive(server, client.listModels({ type: "3d" }));
    expect(seen).toEqual(["GET /v1/images/{id}", "GET /v1/models"]);
    expect(server.requests.map(({ headers }) => headers["x-request-id"])).toEqual(["mw-1", "mw-2"]);
  });

  it("the raw openapi-fetch client shares the key and the headers", async () => {
    const { server, client } = await clientOn(inOrder(ok), { headers: { "X-Client": "raw" } });
    const { response } = await drive(server, client.api.GET("/v1/account/credits"));
    expect(response.status).toBe(200);
    expect(server.requests[0]).toMatchObject({
      path: "/v1/account/credits",
      authorization: `Bearer ${API_KEY}`,
      headers: { "x-client": "raw" },
    });
  });
});

describe("the offline quote beside create", () => {
  it("client.<area>.quote(slug, body) is the price table entry point's quote of that route, sending nothing", async () => {
    const IA = slug("image", "I-A");
    const { server, client } = await quotingClientOn(inOrder(ok));
    const quoted = client.image.quote(IA, { size: "2K", num_images: 2 });
    // I-A: 19 credits per 2K image, charged only on success (the specification's Billing).
    expect(quoted).toMatchObject({
      path: pathOf("I-A"),
      credits: 38,
      charged: "on-success",
      breakdown: [{ rate: 19, quantity: 2, credits: 38 }],
    });
    const LSA = slug("lipSync", "LS-A");
    expect(
      client.lipSync.quote(LSA, { image: "https://f/x.png", audio: "https://f/a.mp3" }, { audio: 7.5 }).credits,
    ).toBe(84 * 8);
    expect(server.requests).toHaveLength(0);
  });

  it("a client without the quote has none, and no price table reached it", async () => {
    const { client } = await clientOn(inOrder(ok));
    expect("quote" in client.image).toBe(false);
  });
});
