/**
 * The mock's front (mock/front.ts) in process, in front of a stand-in for Prism: an HTTP server on
 * 127.0.0.1 that records what the front relays and answers what each test tells it to. What the
 * front answers itself carries the description's error body; what it relays reaches Prism with the
 * path as sent, without the hop-by-hop headers, with a body only for operations that take one,
 * and replaced by a stand-in every request schema refuses where Prism cannot take it (not UTF-8
 * JSON, nested deep enough to end Prism, a media field in a form its `x-media.forms` does not
 * take); Prism's answer comes back as it came, but for a 429's `Retry-After`, sent only where the
 * body's variant sends it (mock/README.md, the front's doc comment).
 */
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { rawExchange, type RawAnswer } from "../../fuzz/raw-http.ts";
import { MAX_DISCARDED_BYTES } from "../../http-server/limits.ts";
import { freePort } from "../../http-server/listen.ts";
import { type MockFront, preferProblem, selections, startMockFront } from "../../mock/front.ts";
import type { ResponseObject } from "../../model/document.ts";

const contract = new Contract();
const invalid = contract.model.errors.invalidRequest;
const MB = 1024 * 1024;
/** Prism's own body limit, which the front holds bodies to (mock/README.md: "bodies over Prism's 10 MB (413)"). */
const PRISM_MAX_BODY_BYTES = 10 * MB;

/** What the stand-in Prism received. */
interface Relayed {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** What the stand-in Prism answers. */
interface Reply {
  readonly status: number;
  readonly headers?: Record<string, string | string[]>;
  readonly body?: string;
  /** Sent in two writes without a length (chunked), as Prism may send it. */
  readonly chunked?: boolean;
}

const OK: Reply = { status: 200, headers: { "content-type": "application/json" }, body: '{"credits":1}' };

let prism: Server;
let front: MockFront;
const relayed: Relayed[] = [];
let reply: Reply = OK;

beforeAll(async () => {
  prism = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      relayed.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      response.writeHead(reply.status, reply.headers ?? {});
      if (reply.chunked) {
        response.write((reply.body ?? "").slice(0, 3));
        response.end((reply.body ?? "").slice(3));
      } else response.end(reply.body ?? "");
    });
  });
  await new Promise<void>((resolve) => prism.listen(0, "127.0.0.1", resolve));
  const { port } = prism.address() as { port: number };
  front = await startMockFront(contract, `http://127.0.0.1:${port}`, 0, ["https://console.example"]);
});
afterAll(async () => {
  await front?.close();
  prism?.closeAllConnections();
  await new Promise((resolve) => prism?.close(resolve));
});
beforeEach(() => {
  relayed.length = 0;
  reply = OK;
});

const prismPort = () => (prism.address() as { port: number }).port;

/** One request to the front, its exact head (request line and headers) and body. */
function ask(head: string[], body: string | Buffer = "", port = front.port): Promise<RawAnswer | null> {
  const bodyBytes = typeof body === "string" ? Buffer.from(body, "latin1") : body;
  return rawExchange(port, Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "latin1"), bodyBytes]));
}

/** A request with a Host naming the front, and a Content-Length for its body. */
function call(
  method: string,
  target: string,
  headers: string[] = [],
  body: string | Buffer = "",
): Promise<RawAnswer | null> {
  const length = typeof body === "string" ? Buffer.byteLength(body, "latin1") : body.length;
  return ask(
    [
      `${method} ${target} HTTP/1.1`,
      "Host: 127.0.0.1",
      "Authorization: Bearer k",
      ...headers,
      `Content-Length: ${length}`,
    ],
    body,
  );
}

const postJson = (target: string, body: string | Buffer) =>
  call("POST", target, ["Content-Type: application/json"], body);

function errorOf(answer: RawAnswer | null): { status: number; type: string; code: string; message: string } {
  expect(answer?.headers.get("content-type")).toBe("application/json");
  const parsed = JSON.parse(answer?.body.toString("utf8") ?? "null") as {
    error: { type: string; code: string; message: string };
  };
  expect(Object.keys(parsed)).toEqual(["error"]);
  expect(Object.keys(parsed.error).sort()).toEqual(["code", "message", "type"]);
  return { status: answer?.status ?? 0, ...parsed.error };
}

const operation = (method: string, path: string): ContractOperation => contract.byPath(method, path)!;

/** The value of a named example of an operation's response. */
function example(op: ContractOperation, status: string, name: string): unknown {
  const response = contract.deref<ResponseObject>(op.responses[status]!);
  const named = response.content?.["application/json"]?.examples?.[name];
  return contract.deref<{ value?: unknown }>(named as { value?: unknown }).value;
}

/** The body Prism got is the stand-in: JSON, and no object, so every request schema (all objects) refuses it. */
function expectStandIn(body: Buffer): void {
  const value: unknown = JSON.parse(body.toString("utf8"));
  expect(typeof value === "object" && value !== null).toBe(false);
}

const credits = "/v1/account/credits";
const cost = "/v1/cost";
const quote = () => operation("post", cost).requestExamples[0]!.value as Record<string, unknown>;

describe("the mock's front: what it relays to Prism", () => {
  it("relays the request with its path and query as sent, to Prism's own address, without the hop-by-hop headers", async () => {
    const answer = await call("GET", `${credits}?x=%41b`, [
      "X-Trace: t1",
      "Connection: keep-alive",
      "Keep-Alive: timeout=9",
    ]);
    expect(answer?.status).toBe(200);
    expect(relayed).toHaveLength(1);
    const [request] = relayed;
    expect(request).toMatchObject({ method: "GET", url: `${credits}?x=%41b` });
    expect(request?.headers["x-trace"]).toBe("t1");
    expect(request?.headers.authorization).toBe("Bearer k");
    // Prism's port answers only a Host naming it: the front's own Host is not relayed.
    expect(request?.headers.host).toBe(`127.0.0.1:${prismPort()}`);
    expect(request?.headers["keep-alive"]).toBeUndefined();
  });

  it("relays an absolute-form target in origin form", async () => {
    await call("GET", `http://127.0.0.1:${front.port}${credits}`);
    expect(relayed[0]?.url).toBe(credits);
  });

  it("relays a repeated request header as one value, its values joined with commas", async () => {
    await call("GET", credits, ["Set-Cookie: a=1", "Set-Cookie: b=2"]);
    expect(relayed[0]?.headers["set-cookie"]).toEqual(["a=1, b=2"]);
  });

  it("relays a JSON body to an operation that takes one, as sent, with its length", async () => {
    const body = JSON.stringify(quote());
    expect((await postJson(cost, body))?.status).toBe(200);
    expect(relayed[0]?.body.toString("utf8")).toBe(body);
    expect(relayed[0]?.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
  });

  it("relays a chunked body with its length, not its transfer coding", async () => {
    const body = JSON.stringify(quote());
    await ask(
      [`POST ${cost} HTTP/1.1`, "Host: 127.0.0.1", "Content-Type: application/json", "Transfer-Encoding: chunked"],
      `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    );
    expect(relayed[0]?.body.toString("utf8")).toBe(body);
    expect(relayed[0]?.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(relayed[0]?.headers["transfer-encoding"]).toBeUndefined();
  });

  it("relays an empty body as empty", async () => {
    await postJson(cost, "");
    expect(relayed[0]?.body.length).toBe(0);
    expect(relayed[0]?.headers["content-length"]).toBe("0");
  });

  it("relays an empty chunked body with its length, 0, not its transfer coding", async () => {
    await ask(
      [`POST ${cost} HTTP/1.1`, "Host: 127.0.0.1", "Content-Type: application/json", "Transfer-Encoding: chunked"],
      "0\r\n\r\n",
    );
    expect(relayed[0]?.body.length).toBe(0);
    expect(relayed[0]?.headers["content-length"]).toBe("0");
    expect(relayed[0]?.headers["transfer-encoding"]).toBeUndefined();
  });

  it("relays no body to an operation that takes none, however large or crowded it is", async () => {
    const crowded = `[${Array(10_001).fill("0").join(",")}]`;
    const answer = await call("GET", credits, ["Content-Type: application/json"], crowded);
    expect(answer?.status).toBe(200);
    expect(relayed[0]?.body.length).toBe(0);
    expect(relayed[0]?.headers["content-length"]).toBeUndefined();
  });

  it("relays no body to a POST operation that takes none, nor with a GET to one that declares one", async () => {
    // A variant of the description: POST /v1/cost takes no body, GET /v1/account/credits declares one.
    const doc = structuredClone(contract.doc) as unknown as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    const costPost = doc.paths[cost]!.post!;
    doc.paths[credits]!.get!.requestBody = costPost.requestBody;
    delete costPost.requestBody;
    const variant = new Contract(doc as unknown as Contract["doc"]);
    const other = await startMockFront(variant, `http://127.0.0.1:${prismPort()}`, 0);
    try {
      const body = JSON.stringify(quote());
      for (const method of ["POST", "GET"]) {
        const target = method === "POST" ? cost : credits;
        const answer = await ask(
          [
            `${method} ${target} HTTP/1.1`,
            "Host: 127.0.0.1",
            "Content-Type: application/json",
            `Content-Length: ${body.length}`,
          ],
          body,
          other.port,
        );
        expect(answer?.status, method).toBe(200);
      }
      expect(relayed.map((request) => [request.method, request.body.length])).toEqual([
        ["POST", 0],
        ["GET", 0],
      ]);
      expect(relayed[1]?.headers["content-length"]).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it("replaces malformed JSON, and bytes that are not UTF-8, by the stand-in Prism refuses with the documented 400", async () => {
    for (const body of [Buffer.from('{"prompt":'), Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])]) {
      relayed.length = 0;
      await postJson(cost, body);
      expect(relayed).toHaveLength(1);
      expectStandIn(relayed[0]!.body);
    }
  });

  it("replaces a media field in a form its x-media.forms does not take by the stand-in, and relays the forms it lists", async () => {
    const route = contract.model.createRoutes.find((candidate) => candidate.label === "DM-A")!;
    const base = operation("post", route.path).requestExamples[0]!.value as Record<string, unknown>;
    await postJson(route.path, JSON.stringify({ ...base, video: "data:video/mp4;base64,AAAA" }));
    expectStandIn(relayed[0]!.body);
    const listed = JSON.stringify({ ...base, video: "https://files.example.com/clip.mp4" });
    await postJson(route.path, listed);
    expect(relayed[1]?.body.toString("utf8")).toBe(listed);
  });

  it("relays a body nested 256 levels deep as sent, and replaces one nested deeper by the stand-in", async () => {
    /** `{"prompt":…,"a":{"a":…1…}}`: `levels` objects deep in all. */
    const nested = (levels: number) => `{"prompt":"x","a":${'{"a":'.repeat(levels - 1)}1${"}".repeat(levels - 1)}}`;
    await postJson(cost, nested(256));
    expect(relayed[0]?.body.toString("utf8")).toBe(nested(256));
    await postJson(cost, nested(257));
    expectStandIn(relayed[1]!.body);
  });
});

describe("the mock's front: bodies it answers itself", () => {
  const array = (entries: number) => `[${Array(entries).fill("0").join(",")}]`;

  it("refuses a body of more than 10,000 array items and object members with the description's 400, before Prism reads it", async () => {
    const answer = await postJson(cost, array(10_001));
    expect(errorOf(answer)).toEqual({
      status: 400,
      type: invalid.type,
      code: invalid.code,
      message: "body: holds 10001 array items and object members; a request holds at most 10000",
    });
    expect(relayed).toEqual([]);
  });

  it("relays a body of 10,000 entries: Prism judges it", async () => {
    await postJson(cost, array(10_000));
    expect(relayed[0]?.body.toString("utf8")).toBe(array(10_000));
  });

  it("refuses a crowded body nested 256 levels deep, which Prism can take, with the 400 of a crowded body", async () => {
    const body = `${"[".repeat(255)}${array(10_001)}${"]".repeat(255)}`;
    expect(errorOf(await postJson(cost, body))).toMatchObject({
      status: 400,
      // Each of the 255 arrays around it holds one item: the next.
      message: `body: holds ${255 + 10_001} array items and object members; a request holds at most 10000`,
    });
    expect(relayed).toEqual([]);
  });

  it("relays a body both crowded and nested deep enough to end Prism as the stand-in, not the 400 of a crowded body", async () => {
    const body = `${"[".repeat(300)}${array(10_001)}${"]".repeat(300)}`;
    const answer = await postJson(cost, body);
    expect(answer?.status).toBe(200);
    expectStandIn(relayed[0]!.body);
  });

  it("refuses a body declared over Prism's 10 MB with 413 body_too_large before reading it, the connection kept", async () => {
    const answer = await ask([
      `POST ${cost} HTTP/1.1`,
      "Host: 127.0.0.1",
      "Content-Type: application/json",
      `Content-Length: ${PRISM_MAX_BODY_BYTES + 1}`,
    ]);
    expect(errorOf(answer)).toEqual({
      status: 413,
      type: "invalid_request_error",
      code: "body_too_large",
      message: `body: larger than the mock accepts (${PRISM_MAX_BODY_BYTES} bytes, as Prism).`,
    });
    expect(answer?.headers.get("connection")).toBe("keep-alive");
    expect(relayed).toEqual([]);
  });

  it("closes the connection after its 413 when the body is declared larger than it reads to throw away", async () => {
    const answer = await ask([
      `POST ${cost} HTTP/1.1`,
      "Host: 127.0.0.1",
      "Content-Type: application/json",
      `Content-Length: ${MAX_DISCARDED_BYTES + 1}`,
    ]);
    expect(answer?.status).toBe(413);
    expect(answer?.headers.get("connection")).toBe("close");
  });

  it("answers 503 sandbox_busy with Retry-After: 1 when the bodies in flight fill its buffers", async () => {
    // A front of its own: the bodies left in flight hold its buffers until it closes.
    const crowded = await startMockFront(contract, `http://127.0.0.1:${prismPort()}`, 0);
    try {
      // Seven bodies of 10 MB, each one byte short of its end, hold more than the 64 MB it buffers
      // at once: whichever crosses the bound first is refused, and nothing else is answered.
      const length = PRISM_MAX_BODY_BYTES;
      const chunk = Buffer.alloc(length - 1, 0x20);
      const head = Buffer.from(
        `POST ${cost} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
      );
      const answer = await Promise.race(
        Array.from({ length: 7 }, () =>
          rawExchange(crowded.port, Buffer.concat([head, chunk]), { timeoutMs: 20_000 }).then((got) =>
            got ? got : new Promise<never>(() => {}),
          ),
        ),
      );
      expect(errorOf(answer)).toEqual({
        status: 503,
        type: "api_error",
        code: "sandbox_busy",
        message: "The mock is reading as many bodies as it buffers at once; send again shortly.",
      });
      expect(answer.headers.get("retry-after")).toBe("1");
      expect(answer.headers.get("connection")).toBe("keep-alive");
      expect(relayed).toEqual([]);
    } finally {
      // Closing ends the bodies still in flight.
      await crowded.close();
    }
  });
});

describe("the mock's front: targets and routes it answers itself", () => {
  it("answers a target that is no path with the description's 400 naming the rule", async () => {
    const answer = await call("OPTIONS", "*");
    const error = errorOf(answer);
    expect(error).toMatchObject({ status: 400, type: invalid.type, code: invalid.code });
    expect(error.message).toContain("request target");
    expect(relayed).toEqual([]);
  });

  it("answers a path that is no route with 404 not_found", async () => {
    expect(errorOf(await call("GET", "/v1/nowhere"))).toEqual({
      status: 404,
      type: "invalid_request_error",
      code: "not_found",
      message: "GET /v1/nowhere is not a route of the description.",
    });
    expect(relayed).toEqual([]);
  });

  it("answers a method a known path does not serve with 405 and Allow", async () => {
    const answer = await call("DELETE", credits);
    expect(errorOf(answer)).toMatchObject({ status: 405, code: "method_not_allowed" });
    expect(answer?.headers.get("allow")).toBe("GET");
    expect(relayed).toEqual([]);
  });

  it("answers a create with a slug that is no model with the description's 400, as the sandbox does", async () => {
    const error = errorOf(await postJson("/v1/images/no-such-model", "{}"));
    expect(error).toMatchObject({ status: invalid.status, type: invalid.type, code: invalid.code });
    expect(error.message).toContain("no-such-model is not a model of this build");
    expect(relayed).toEqual([]);
  });

  it("closes the connection after answering an unread request whose body is larger than it reads to throw away", async () => {
    const large = await ask([
      "GET /v1/nowhere HTTP/1.1",
      "Host: 127.0.0.1",
      `Content-Length: ${MAX_DISCARDED_BYTES + 1}`,
    ]);
    expect(large?.status).toBe(404);
    expect(large?.headers.get("connection")).toBe("close");
    const small = await call("GET", "/v1/nowhere", [], "abc");
    expect(small?.status).toBe(404);
    expect(small?.headers.get("connection")).toBe("keep-alive");
  });
});

describe("the mock's front: Prefer", () => {
  it("answers a Prefer naming a status the operation does not document with 422 and the valid choices, unrelayed", async () => {
    const answer = await call("GET", credits, ["Prefer: code=418"]);
    const error = errorOf(answer);
    expect(error).toMatchObject({ status: 422, type: "mock_error", code: "unknown_prefer_selection" });
    expect(error.message).toContain("documents no 418 response");
    expect(error.message).toContain('"code=429, example=queue-full"');
    expect(relayed).toEqual([]);
  });

  it("relays a Prefer naming a documented example", async () => {
    const answer = await call("GET", credits, ["Prefer: code=429, example=queue-full"]);
    expect(answer?.status).toBe(200);
    expect(relayed[0]?.headers.prefer).toBe("code=429, example=queue-full");
  });
});

describe("the mock's front: Prism's answer", () => {
  it("comes back with Prism's status, headers and body, its length set anew, no hop-by-hop header of Prism's", async () => {
    reply = {
      status: 201,
      headers: { "x-request-id": "r1", "content-type": "application/json" },
      body: '{"é":1}',
      chunked: true,
    };
    const answer = await call("GET", credits);
    expect(answer?.status).toBe(201);
    expect(answer?.headers.get("x-request-id")).toBe("r1");
    expect(answer?.body.toString("utf8")).toBe('{"é":1}');
    expect(answer?.headers.get("content-length")).toBe(String(Buffer.byteLength('{"é":1}')));
    expect(answer?.headers.has("transfer-encoding")).toBe(false);
    // Prism's headers and nothing more, but for those of the front's own connection.
    expect([...(answer?.headers.keys() ?? [])].sort()).toEqual(
      ["connection", "content-length", "content-type", "date", "keep-alive", "x-request-id"].sort(),
    );
  });

  it("drops Retry-After from a 429 whose body's variant does not send it (queue full)", async () => {
    const op = operation("get", credits);
    reply = {
      status: 429,
      headers: { "content-type": "application/json", "retry-after": "7" },
      body: JSON.stringify(example(op, "429", "queue-full")),
    };
    const answer = await call("GET", credits);
    expect(answer?.status).toBe(429);
    expect(answer?.headers.has("retry-after")).toBe(false);
  });

  it("keeps Retry-After on a 429 whose variant sends it, on one no variant matches, and on other statuses", async () => {
    const op = operation("get", credits);
    const bodies: Array<[number, string]> = [
      [429, JSON.stringify(example(op, "429", "rate-limited"))],
      [429, "not json"],
      [200, JSON.stringify(example(op, "429", "queue-full"))],
    ];
    for (const [status, body] of bodies) {
      reply = { status, headers: { "content-type": "application/json", "retry-after": "7" }, body };
      const answer = await call("GET", credits);
      expect(answer?.headers.get("retry-after"), `${status} ${body}`).toBe("7");
    }
  });

  it("answers 502 prism_unavailable with the error body when Prism does not answer", async () => {
    const nowhere = await freePort();
    const lonely = await startMockFront(contract, `http://127.0.0.1:${nowhere}`, 0);
    try {
      const error = errorOf(
        await ask([`GET ${credits} HTTP/1.1`, "Host: 127.0.0.1", "Authorization: Bearer k"], "", lonely.port),
      );
      expect(error).toMatchObject({ status: 502, type: "mock_error", code: "prism_unavailable" });
      expect(error.message).toMatch(/^The mock's Prism did not answer: .*ECONNREFUSED/);
    } finally {
      await lonely.close();
    }
  });
});

describe("the mock's front: Prism's answer broken off", () => {
  let broken: TcpServer | undefined;
  afterEach(async () => {
    if (broken) await new Promise((resolve) => broken?.close(resolve));
    broken = undefined;
  });

  it("answers 502 prism_unavailable when Prism's answer ends before its body does", async () => {
    broken = createTcpServer((socket) =>
      socket.once("data", () => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"cred');
        setImmediate(() => socket.destroy());
      }),
    );
    const server = broken;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const brokenFront = await startMockFront(
      contract,
      `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      0,
    );
    try {
      const answer = await ask(
        [`GET ${credits} HTTP/1.1`, "Host: 127.0.0.1", "Authorization: Bearer k"],
        "",
        brokenFront.port,
      );
      expect(errorOf(answer)).toMatchObject({ status: 502, type: "mock_error", code: "prism_unavailable" });
    } finally {
      await brokenFront.close();
    }
  });
});

describe("the mock's front: an unexpected error", () => {
  let logged: MockInstance<typeof console.error>;
  let odd: TcpServer | undefined;
  beforeEach(() => {
    logged = vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(async () => {
    logged.mockRestore();
    if (odd) await new Promise((resolve) => odd?.close(resolve));
    odd = undefined;
  });

  it("closes the connection after its 500 when the failure came before the body was read", async () => {
    // A contract whose operation lookup fails: the failure comes before the front reads the body.
    const failing = Object.create(contract, {
      byOperationId: {
        value: () => {
          throw new Error("lookup failed");
        },
      },
    }) as Contract;
    const failingFront = await startMockFront(failing, `http://127.0.0.1:${prismPort()}`, 0);
    try {
      // Five of its ten bytes sent: the body is not complete when the front fails.
      const answer = await ask(
        [`POST ${cost} HTTP/1.1`, "Host: 127.0.0.1", "Content-Type: application/json", "Content-Length: 10"],
        '{"a":',
        failingFront.port,
      );
      expect(errorOf(answer)).toEqual({
        status: 500,
        type: "mock_error",
        code: "mock_front_error",
        message: "The mock's front failed: lookup failed",
      });
      expect(answer?.headers.get("connection")).toBe("close");
      expect(logged.mock.calls).toEqual([[`mock front: POST ${cost} failed: lookup failed`]]);
    } finally {
      await failingFront.close();
    }
  });

  it("is one log line and a 500 mock_front_error with the error body, and the front keeps serving", async () => {
    // A Prism answering a status no HTTP server may send (099): the front cannot send it on.
    odd = createTcpServer((socket) =>
      socket.once("data", () => socket.end("HTTP/1.1 099 Odd\r\nContent-Length: 2\r\n\r\nok")),
    );
    const server = odd;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const oddFront = await startMockFront(
      contract,
      `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      0,
    );
    try {
      const answer = await ask(
        ["GET /v1/account/credits HTTP/1.1", "Host: 127.0.0.1", "Authorization: Bearer k"],
        "",
        oddFront.port,
      );
      const error = errorOf(answer);
      expect(error).toMatchObject({ status: 500, type: "mock_error", code: "mock_front_error" });
      expect(error.message).toMatch(/^The mock's front failed: .*99/);
      expect(answer?.headers.get("connection")).toBe("keep-alive");
      expect(logged).toHaveBeenCalledTimes(1);
      expect(String(logged.mock.calls[0]?.[0])).toMatch(/^mock front: GET \/v1\/account\/credits failed: /);
    } finally {
      await oddFront.close();
    }
  });
});

describe("the mock's front: Host and Origin", () => {
  it("refuses a Host that does not name it with 403 host_not_allowed and the error body, unrelayed", async () => {
    const answer = await ask([`GET ${credits} HTTP/1.1`, `Host: evil.example:${front.port}`]);
    expect(errorOf(answer)).toMatchObject({ status: 403, type: "permission_error", code: "host_not_allowed" });
    expect(relayed).toEqual([]);
  });

  it("closes the connection after a refusal whose body is larger than it reads to throw away", async () => {
    const answer = await ask([
      `POST ${cost} HTTP/1.1`,
      "Host: evil.example",
      `Content-Length: ${MAX_DISCARDED_BYTES + 1}`,
    ]);
    expect(answer?.status).toBe(403);
    expect(answer?.headers.get("connection")).toBe("close");
  });

  it("serves the docs at their default address and the origins it was given, with CORS; refuses other pages", async () => {
    for (const origin of ["http://127.0.0.1:8080", "http://localhost:8080", "https://console.example"]) {
      const answer = await call("GET", credits, [`Origin: ${origin}`]);
      expect(answer?.status, origin).toBe(200);
      expect(answer?.headers.get("access-control-allow-origin"), origin).toBe(origin);
    }
    for (const origin of ["null", "https://evil.example", "http://127.0.0.1:8081"]) {
      const answer = await call("GET", credits, [`Origin: ${origin}`]);
      expect(errorOf(answer), origin).toMatchObject({ status: 403, code: "origin_not_allowed" });
    }
  });

  it("allows no other page when started without origins", async () => {
    const plain = await startMockFront(contract, `http://127.0.0.1:${prismPort()}`, 0);
    try {
      const answer = await ask(
        [`GET ${credits} HTTP/1.1`, "Host: 127.0.0.1", "Authorization: Bearer k", "Origin: https://console.example"],
        "",
        plain.port,
      );
      expect(errorOf(answer)).toMatchObject({ status: 403, code: "origin_not_allowed" });
      const docs = await ask(
        [`GET ${credits} HTTP/1.1`, "Host: 127.0.0.1", "Authorization: Bearer k", "Origin: http://127.0.0.1:8080"],
        "",
        plain.port,
      );
      expect(docs?.status).toBe(200);
    } finally {
      await plain.close();
    }
  });
});

describe("preferProblem", () => {
  const op = operation("get", credits);
  const valid = selections(contract, op);

  it("takes a Prefer that selects a documented status, a documented example, or nothing", () => {
    for (const prefer of ["code=429", "code=429, example=queue-full", "example=balance", "dynamic=true", ""]) {
      expect(preferProblem(contract, op, prefer), prefer).toBeNull();
    }
  });

  it("lists every named example of the operation's responses as the valid choices", () => {
    expect(valid).toContain("code=200, example=balance");
    expect(valid).toContain("code=429, example=queue-full");
    expect(valid.every((choice) => /^code=\d{3}, example=[\w-]+$/.test(choice))).toBe(true);
  });

  it("refuses a status the operation does not document, naming the documented ones and the valid choices", () => {
    expect(preferProblem(contract, op, "code=418")).toBe(
      `Prefer code=418: GET /v1/account/credits documents no 418 response (documented: ${Object.keys(op.responses).join(", ")}); valid for GET /v1/account/credits: ${valid.map((choice) => `"${choice}"`).join("; ")}`,
    );
  });

  it("refuses an example no success response has when no status is named", () => {
    expect(preferProblem(contract, op, "example=queue-full")).toBe(
      `Prefer example=queue-full: no success response of GET /v1/account/credits has an example of that name; valid for GET /v1/account/credits: ${valid.map((choice) => `"${choice}"`).join("; ")}`,
    );
  });

  it("refuses an example the named status does not have", () => {
    expect(preferProblem(contract, op, "code=429, example=balance")).toMatch(
      /^Prefer example=balance: no 429 response of GET \/v1\/account\/credits has an example of that name; /,
    );
  });

  it("refuses a key named twice (repeated headers arrive joined), whichever the values", () => {
    expect(preferProblem(contract, op, "code=429, code=429")).toBe(
      'Prefer names code more than once ("code=429, code=429"); send one selection',
    );
    expect(preferProblem(contract, op, "example=balance;example=x")).toBe(
      'Prefer names example more than once ("example=balance;example=x"); send one selection',
    );
  });

  it("takes an example named without a status when any success response of the operation has it", () => {
    // An operation with two success responses, each with its own example (the description's have one).
    const responses = {
      "200": { description: "done", content: { "application/json": { examples: { done: { value: {} } } } } },
      "202": { description: "queued", content: { "application/json": { examples: { queued: { value: {} } } } } },
    };
    const twoSuccesses = {
      route: "POST /v1/things",
      responses,
      operation: { responses },
    } as unknown as ContractOperation;
    const bare = { doc: { openapi: "3.1.0", paths: {} } } as unknown as Contract;
    expect(preferProblem(bare, twoSuccesses, "example=done")).toBeNull();
    expect(preferProblem(bare, twoSuccesses, "example=queued")).toBeNull();
    expect(preferProblem(bare, twoSuccesses, "example=other")).toBe(
      'Prefer example=other: no success response of POST /v1/things has an example of that name; valid for POST /v1/things: "code=200, example=done"; "code=202, example=queued"',
    );
  });
});
