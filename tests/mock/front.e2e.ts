/**
 * The mock's front against hostile clients, through HTTP: the targets that made it answer 502 or
 * let Prism answer 500 without the error body, methods a known path does not serve, a body over
 * Prism's limit refused unread; then the fuzz harness's small budget against it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Contract } from "../../contract/contract.ts";
import { freePort } from "../../http-server/listen.ts";
import { startMock, type RunningPrism } from "../../mock/prism.ts";
import { rawExchange, type RawAnswer } from "../../fuzz/raw-http.ts";
import { fuzz, report } from "../../fuzz/run.ts";

const contract = new Contract();
let mock: RunningPrism;
let port: number;
/** Prism's own port behind the front. */
let prismPort: number;

beforeAll(async () => {
  prismPort = await freePort();
  mock = await startMock({ snapshot: contract.doc, prismPort });
  port = Number(new URL(mock.baseUrl).port);
});
afterAll(async () => {
  await mock?.stop();
});

const raw = (head: string, body = ""): Promise<RawAnswer | null> =>
  rawExchange(port, Buffer.from(`${head}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n${body}`, "latin1"));

function errorOf(answer: RawAnswer | null, status: number): { type: string; code: string; message: string } {
  expect(answer?.status).toBe(status);
  const { error } = JSON.parse(answer!.body.toString("utf8")) as {
    error: { type: string; code: string; message: string };
  };
  expect(Object.keys(error).sort()).toEqual(["code", "message", "type"]);
  return error;
}

const credits = () => raw("GET /v1/account/credits HTTP/1.1\r\nAuthorization: Bearer k");

describe("the mock's front against hostile clients", () => {
  it("answers OPTIONS * with 400 and the error body, where it answered 502 'Invalid URL'", async () => {
    expect(errorOf(await raw("OPTIONS * HTTP/1.1"), 400).message).toContain("request target");
  });

  it.each(["//x:99999", "//["])("answers GET %s with 404 and the error body, and keeps serving", async (target) => {
    expect(errorOf(await raw(`GET ${target} HTTP/1.1`), 404).code).toBe("not_found");
    expect((await credits())?.status).toBe(200);
  });

  it("answers a malformed percent-escape with 400", async () => {
    expect(errorOf(await raw("GET /v1/images/%zz HTTP/1.1"), 400).message).toContain("malformed percent-encoding");
  });

  it.each(["DELETE", "OPTIONS", "PUT"])("answers %s on a known path with 405 and Allow", async (method) => {
    const answer = await raw(`${method} /v1/account/credits HTTP/1.1`);
    expect(errorOf(answer, 405).code).toBe("method_not_allowed");
    expect(answer?.headers.get("allow")).toBe("GET");
  });

  it("refuses pages of other sites and Origin null, serves the docs at their default address with CORS", async () => {
    for (const origin of ["null", "https://evil.example", "http://localhost:43117"]) {
      const answer = await raw(`GET /v1/account/credits HTTP/1.1\r\nAuthorization: Bearer k\r\nOrigin: ${origin}`);
      expect(errorOf(answer, 403).code, origin).toBe("origin_not_allowed");
      expect(answer?.headers.get("access-control-allow-origin"), origin).toBeUndefined();
    }
    const docs = await raw(
      "GET /v1/account/credits HTTP/1.1\r\nAuthorization: Bearer k\r\nOrigin: http://127.0.0.1:8080",
    );
    expect(docs?.status).toBe(200);
    expect(docs?.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:8080");
  });

  it("refuses a Host that does not name it (DNS rebinding)", async () => {
    const answer = await rawExchange(
      port,
      Buffer.from(
        `GET /v1/account/credits HTTP/1.1\r\nHost: evil.example:${port}\r\nAuthorization: Bearer k\r\nConnection: close\r\n\r\n`,
      ),
    );
    expect(errorOf(answer, 403).code).toBe("host_not_allowed");
  });

  it("Prism's own port behind it refuses a Host that does not name it too, and serves one that does", async () => {
    const ask = (host: string) =>
      rawExchange(
        prismPort,
        Buffer.from(
          `GET /v1/account/credits HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer k\r\nConnection: close\r\n\r\n`,
        ),
      );
    for (const host of [`evil.example:${prismPort}`, "evil.example", `127.0.0.1.evil.example:${prismPort}`])
      expect(errorOf(await ask(host), 403).code, host).toBe("host_not_allowed");
    for (const host of [`127.0.0.1:${prismPort}`, `localhost:${prismPort}`])
      expect((await ask(host))?.status).toBe(200);
  });

  it("answers a body over Prism's 10 MB limit with 413 from its Content-Length", async () => {
    const answer = await raw(
      "POST /v1/cost HTTP/1.1\r\nAuthorization: Bearer k\r\nContent-Type: application/json\r\nContent-Length: 60000000",
      "{",
    );
    expect(errorOf(answer, 413).code).toBe("body_too_large");
    expect((await credits())?.status).toBe(200);
  });

  it("answers a body nested deep enough to end Prism as Prism answers an invalid body (400), and keeps serving", async () => {
    const deep = `{"prompt":"x","a":${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}}`;
    const answer = await raw(
      `POST /v1/cost HTTP/1.1\r\nAuthorization: Bearer k\r\nContent-Type: application/json\r\nContent-Length: ${deep.length}`,
      deep,
    );
    expect(errorOf(answer, 400).type).toBe(contract.model.errors.invalidRequest.type);
    expect(answer?.headers.has(contract.model.rateLimitHeaders.limit.toLowerCase())).toBe(true);
    const get = await raw(
      `GET /v1/account/credits HTTP/1.1\r\nAuthorization: Bearer k\r\nContent-Length: ${deep.length}`,
      deep,
    );
    expect(get?.status).toBe(200);
    expect((await credits())?.status).toBe(200);
  });

  it("refuses a body of more array items and object members than any request holds, as the sandbox does, before Prism reads it; relays one of the bound", async () => {
    const post = (entries: number) => {
      const body = `[${Array(entries).fill("0").join(",")}]`;
      return raw(
        `POST /v1/cost HTTP/1.1\r\nAuthorization: Bearer k\r\nContent-Type: application/json\r\nContent-Length: ${body.length}`,
        body,
      );
    };
    // Ten megabytes of [0,0,…] held Prism for minutes (mock.e2e.ts sends them): now one line of the front's.
    expect(errorOf(await post(10_001), 400)).toEqual({
      type: contract.model.errors.invalidRequest.type,
      code: contract.model.errors.invalidRequest.code,
      message: "body: holds 10001 array items and object members; a request holds at most 10000",
    });
    // At the bound, Prism judges it: the description's 400 (an array is no body of POST /v1/cost).
    const relayed = errorOf(await post(10_000), 400);
    expect(relayed.message).not.toContain("array items");
    expect(relayed.type).toBe(contract.model.errors.invalidRequest.type);
    expect((await credits())?.status).toBe(200);
  });

  it("answers malformed JSON and invalid UTF-8 with the documented 400, not Prism's own body", async () => {
    for (const body of ['{"prompt":', '{"prompt":"\xff"}']) {
      const answer = await raw(
        `POST /v1/cost HTTP/1.1\r\nAuthorization: Bearer k\r\nContent-Type: application/json\r\nContent-Length: ${body.length}`,
        body,
      );
      expect(errorOf(answer, 400).type).toBe(contract.model.errors.invalidRequest.type);
    }
  });

  it("answers a media field in a form its x-media does not take with the documented 400, and relays the forms it lists", async () => {
    const route = contract.model.createRoutes.find((candidate) => candidate.label === "DM-A")!;
    const example = contract.byPath("post", route.path)!.requestExamples[0]!.value as Record<string, unknown>;
    const send = (video: string) => {
      const body = JSON.stringify({ ...example, video });
      return raw(
        `POST ${route.path} HTTP/1.1\r\nAuthorization: Bearer k\r\nContent-Type: application/json\r\nContent-Length: ${body.length}`,
        body,
      );
    };
    expect(errorOf(await send("data:video/mp4;base64,AAAA"), 400).type).toBe(contract.model.errors.invalidRequest.type);
    expect((await send("https://files.example.com/clip.mp4"))?.status).toBe(200);
  });

  it("answers a Prefer that names a key twice (repeated headers arrive joined) with 422", async () => {
    const answer = await raw(
      "GET /v1/account/credits HTTP/1.1\r\nAuthorization: Bearer k\r\nPrefer: code=999\r\nPrefer: code=429",
    );
    expect(errorOf(answer, 422).message).toBe(
      'Prefer names code more than once ("code=999, code=429"); send one selection',
    );
  });

  it("finds nothing in 40 hostile requests of the fuzz harness", async () => {
    const run = await fuzz("mock", { runs: 40, seed: 20, contract, at: mock.baseUrl });
    expect(report(run)).toEqual([expect.stringMatching(/^fuzz mock: 40 requests in .* seed 20: no problem found$/)]);
  });
});
