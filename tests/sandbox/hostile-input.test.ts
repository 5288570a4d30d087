/**
 * The sandbox against hostile and careless clients, through HTTP (raw sockets where no client would
 * send the bytes): targets that once ended it, request hygiene (JSON Content-Type, UTF-8, percent
 * escapes, 405 with Allow), the body limit and the shared buffer budget, slow clients and the
 * connection cap, an unexpected error answered 500 while the sandbox keeps serving. The sandboxes
 * are checkedSandboxes': every answer to an operation of the description is checked against it,
 * though it went out on a raw socket.
 */
import { Agent, request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { once } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { rawExchange, type RawAnswer } from "../../fuzz/raw-http.ts";
import { defaultMaxBodyBytes, largestInlineMedia } from "../../sandbox/body-limit.ts";
import { startSandbox } from "../../sandbox/server.ts";
import { RULES } from "../../behaviour/rules.ts";
import { configWith, example, KEY, model, routeWhere, checkedSandboxes } from "./support.ts";

const sandbox = checkedSandboxes();

const image = routeWhere((route) => route.areaId === "image" && route.idType === "string" && route.family === null);
const { invalidRequest } = model.errors;

/** One raw request with Connection: close; `head` lines go after the request line. */
function raw(
  port: number,
  requestLine: string,
  head: string[] = [],
  body = Buffer.alloc(0),
): Promise<RawAnswer | null> {
  const lines = [
    requestLine,
    "Host: 127.0.0.1",
    ...head,
    ...(body.length ? [`Content-Length: ${body.length}`] : []),
    "Connection: close",
    "",
    "",
  ];
  return rawExchange(port, Buffer.concat([Buffer.from(lines.join("\r\n"), "latin1"), body]));
}

const errorOf = (answer: RawAnswer | null) =>
  (JSON.parse(answer!.body.toString("utf8")) as { error: { type: string; code: string; message: string } }).error;

/** The error body the description's error schema requires, and the X-RateLimit-* headers. */
function expectErrorBody(answer: RawAnswer | null, status: number): { type: string; code: string; message: string } {
  expect(answer?.status).toBe(status);
  const error = errorOf(answer);
  expect(Object.keys(error).sort()).toEqual(["code", "message", "type"]);
  for (const name of Object.values(model.rateLimitHeaders))
    expect(answer!.headers.has(name.toLowerCase()), name).toBe(true);
  return error;
}

/** One POST with a body over Node's HTTP client (as a program would send it), with Content-Length; the answer and the socket it came on. */
function post(
  port: number,
  path: string,
  body: Buffer,
  agent?: Agent,
): Promise<{ status: number; text: string; socket: unknown }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        agent,
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", "content-length": body.length },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString("utf8"),
            socket: outgoing.socket,
          }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const credits = (port: number) => raw(port, "GET /v1/account/credits HTTP/1.1", [`Authorization: Bearer ${KEY}`]);

describe("targets that once ended the sandbox", () => {
  it.each(["//x:99999", "//[", "http://127.0.0.1//x:99999"])(
    "GET %s answers 404 with the error body, and the next request is served",
    async (target) => {
      const sb = await sandbox();
      expectErrorBody(await raw(sb.running.port, `GET ${target} HTTP/1.1`), 404);
      expect((await credits(sb.running.port))?.status).toBe(200);
    },
  );

  it("OPTIONS * (a target that is no path) answers 400 with the description's 400 type and code", async () => {
    const sb = await sandbox();
    const error = expectErrorBody(await raw(sb.running.port, "OPTIONS * HTTP/1.1"), 400);
    expect([error.type, error.code]).toEqual([invalidRequest.type, invalidRequest.code]);
    expect(error.message).toContain("request target");
  });

  it.each([
    ["/v1/images/%zz", "malformed percent-encoding"],
    ["/v1/images/%E0%A4", "do not decode to UTF-8"],
    ["/v1/stock/images?query=%ff", "do not decode to UTF-8"],
    ["/v1/images/..", 'the dot segment ".."'],
    ["/v1/images/%2E%2e", 'the dot segment "%2E%2e"'],
  ])("%s answers a clear 400", async (target, words) => {
    const sb = await sandbox();
    expect(
      expectErrorBody(await raw(sb.running.port, `GET ${target} HTTP/1.1`, [`Authorization: Bearer ${KEY}`]), 400)
        .message,
    ).toContain(words);
  });
});

describe("methods a known path does not serve", () => {
  it.each(["HEAD", "OPTIONS", "DELETE", "PUT"])(
    "%s on the credits route answers 405 with Allow: GET",
    async (method) => {
      const sb = await sandbox();
      const answer = await raw(sb.running.port, `${method} /v1/account/credits HTTP/1.1`, [
        `Authorization: Bearer ${KEY}`,
      ]);
      expect(answer?.status).toBe(405);
      expect(answer?.headers.get("allow")).toBe("GET");
      if (method !== "HEAD") expect(errorOf(answer).code).toBe("method_not_allowed");
    },
  );

  it("GET on the quote route answers 405 with Allow: POST", async () => {
    const sb = await sandbox();
    const answer = await raw(sb.running.port, "GET /v1/cost HTTP/1.1");
    expect(expectErrorBody(answer, 405).message).toContain("POST");
    expect(answer?.headers.get("allow")).toBe("POST");
  });
});

describe("bodies are JSON", () => {
  const body = () => Buffer.from(JSON.stringify(example(image.path)));

  // The message names the header as sent, or says none was.
  it.each([
    ["text/plain", '"text/plain"'],
    [null, "none"],
    ["application/json; charset=latin1", '"application/json; charset=latin1"'],
  ])("Content-Type %s answers 400 naming it; no job is created, nothing is charged", async (type, named) => {
    const sb = await sandbox();
    const head = [`Authorization: Bearer ${KEY}`, ...(type ? [`Content-Type: ${type}`] : [])];
    const error = expectErrorBody(await raw(sb.running.port, `POST ${image.path} HTTP/1.1`, head, body()), 400);
    expect([error.type, error.code]).toEqual([invalidRequest.type, invalidRequest.code]);
    expect(error.message).toBe(`content-type: must be application/json, as every body is JSON (got ${named})`);
    expect(sb.running.state.accounts.byName.get("main")!.inFlight).toBe(0);
  });

  it.each(["application/json", "Application/JSON; Charset=UTF-8", 'application/json;charset="utf-8"'])(
    "Content-Type %s is accepted",
    async (type) => {
      const sb = await sandbox();
      const answer = await raw(
        sb.running.port,
        `POST ${image.path} HTTP/1.1`,
        [`Authorization: Bearer ${KEY}`, `Content-Type: ${type}`],
        body(),
      );
      expect(answer?.status).toBe(200);
    },
  );

  it("invalid UTF-8 inside a JSON string answers 400 naming UTF-8", async () => {
    const sb = await sandbox();
    const text = JSON.stringify({ ...example(image.path), prompt: "@@" });
    const bytes = Buffer.from(text, "utf8");
    bytes[bytes.indexOf("@@")] = 0xff;
    const error = expectErrorBody(
      await raw(
        sb.running.port,
        `POST ${image.path} HTTP/1.1`,
        [`Authorization: Bearer ${KEY}`, "Content-Type: application/json"],
        bytes,
      ),
      400,
    );
    expect(error.message).toBe("body: is not UTF-8 (JSON text is UTF-8)");
  });
});

describe("bounded resources", () => {
  it("derives the default body limit from the largest inline media of the description (LS-A's 15 MB audio, base64) plus 1 MiB", () => {
    const largest = largestInlineMedia(model)!;
    expect(largest.field).toBe(`POST ${routeWhere((route) => route.label === "LS-A").path} audio`);
    expect(largest.megabytes).toBe(15);
    expect(defaultMaxBodyBytes(model)).toBe(Math.ceil((15 * 2 ** 20 * 4) / 3) + 2 ** 20);
  });

  it("answers a body over the limit 413 from its Content-Length, and one sent in chunks 413 at the chunk that crosses it; the connection goes on", async () => {
    const sb = await sandbox(configWith({}, { http: { maxBodyBytes: 1000 } }));
    const declared = await rawExchange(
      sb.running.port,
      Buffer.from(
        `POST ${image.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 60000000\r\n\r\n{`,
      ),
    );
    expect(expectErrorBody(declared, 413).code).toBe("body_too_large");
    // The rest (up to 64 MiB) is read and thrown away, so the client still sending hears the 413.
    expect(declared?.headers.get("connection")).toBe("keep-alive");
    const chunk = "x".repeat(800);
    const chunked = await rawExchange(
      sb.running.port,
      Buffer.from(
        `POST ${image.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n320\r\n${chunk}\r\n320\r\n${chunk}\r\n`,
      ),
    );
    expect(expectErrorBody(chunked, 413).message).toContain("http.maxBodyBytes");
    expect((await credits(sb.running.port))?.status).toBe(200);
  });

  it("answers a body declared larger than it throws away (64 MiB) 413 at once, closing the connection", async () => {
    const sb = await sandbox(configWith({}, { http: { maxBodyBytes: 1000 } }));
    const declared = await rawExchange(
      sb.running.port,
      Buffer.from(
        `POST ${image.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${64 * 2 ** 20 + 1}\r\n\r\n{`,
      ),
    );
    expect(expectErrorBody(declared, 413).code).toBe("body_too_large");
    expect(declared?.headers.get("connection")).toBe("close");
  });

  it("lets a client that sends a whole 50 MB body read its 413 (no reset), and serves its next request on the same connection", async () => {
    const sb = await sandbox();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const body = Buffer.alloc(50 * 10 ** 6, 0x20);
      const answer = await post(sb.running.port, image.path, body, agent);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text).error.code).toBe("body_too_large");
      const next = await post(sb.running.port, image.path, Buffer.from(JSON.stringify(example(image.path))), agent);
      expect(next.status).toBe(200);
      expect(answer.socket).toBe(next.socket);
    } finally {
      agent.destroy();
    }
  });

  it("refuses a 10 MB array of numbers as reference_images in one short answer, and keeps serving", async () => {
    const sb = await sandbox();
    const numbers = `[${"0,".repeat(5 * 10 ** 6 - 1)}0]`;
    const text = JSON.stringify(example(image.path)).replace(/^\{/, `{"reference_images":${numbers},`);
    expect(text.length).toBeGreaterThan(10 * 10 ** 6);
    const pending = post(sb.running.port, image.path, Buffer.from(text));
    // Another client is answered while the large body is with the sandbox.
    expect((await sb.send("GET", "/v1/account/credits")).status).toBe(200);
    const answer = await pending;
    expect(answer.status).toBe(invalidRequest.status);
    const error = JSON.parse(answer.text).error as { message: string };
    // Five million items, and the body's two members (the example's prompt, and reference_images).
    expect(error.message).toBe("body: holds 5000002 array items and object members; a request holds at most 10000");
    expect((await sb.send("GET", "/v1/account/credits")).status).toBe(200);
  });

  it("names at most 20 problems of a body, the others counted", async () => {
    const sb = await sandbox();
    // 30 numbers: 30 items that are no string, and one more item than maxItems (10) allows: 31 problems.
    const body = { ...example(image.path), reference_images: Array.from({ length: 30 }, () => 0) };
    const answer = await sb.send("POST", image.path, { body });
    expect(answer.status).toBe(invalidRequest.status);
    const problems = (answer.json.error.message as string).split("; ");
    expect(problems).toHaveLength(21);
    expect(problems.at(-1)).toBe("and 11 more");
  });

  it("refuses new bodies with 503 while the shared buffer budget is held, and reads them again once it is free", async () => {
    const sb = await sandbox(configWith({}, { http: { maxBodyBytes: 1000, maxBufferedBytes: 1000 } }));
    const holder = connect(sb.running.port, "127.0.0.1");
    await once(holder, "connect");
    // A body that has sent 900 of its 1000 bytes holds 900 of the budget.
    holder.write(
      `POST ${image.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n${" ".repeat(900)}`,
    );
    let refused: RawAnswer | null = null;
    for (let attempt = 0; attempt < 50 && refused?.status !== 503; attempt += 1) {
      refused = await rawExchange(
        sb.running.port,
        Buffer.from(
          `POST ${image.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\nConnection: close\r\n\r\n${" ".repeat(200)}`,
        ),
      );
    }
    expect(expectErrorBody(refused, 503).code).toBe("sandbox_busy");
    holder.destroy();
    await once(holder, "close");
    let served: RawAnswer | null = null;
    for (let attempt = 0; attempt < 50 && served?.status !== 200; attempt += 1) {
      served = await raw(
        sb.running.port,
        `POST ${image.path} HTTP/1.1`,
        [`Authorization: Bearer ${KEY}`, "Content-Type: application/json"],
        Buffer.from(JSON.stringify(example(image.path))),
      );
    }
    expect(served?.status).toBe(200);
  });

  it("closes a connection whose headers do not arrive within the headers timeout, while serving others", async () => {
    const sb = await sandbox(configWith({}, { http: { headersTimeoutSeconds: 1, requestTimeoutSeconds: 2 } }));
    const slow = connect(sb.running.port, "127.0.0.1");
    const received: Buffer[] = [];
    slow.on("data", (chunk: Buffer) => received.push(chunk));
    slow.write("GET /v1/account/credits HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    expect((await credits(sb.running.port))?.status).toBe(200);
    await once(slow, "close");
    expect(Buffer.concat(received).toString("latin1")).toMatch(/^(HTTP\/1\.1 408|$)/);
  });

  it("holds at most maxConnections connections open; past it new ones are closed, and served again once one closes", async () => {
    const sb = await sandbox(configWith({}, { http: { maxConnections: 2 } }));
    const idle: Socket[] = [];
    for (let index = 0; index < 2; index += 1) {
      const socket = connect(sb.running.port, "127.0.0.1");
      await once(socket, "connect");
      idle.push(socket);
    }
    expect(await credits(sb.running.port)).toBeNull();
    idle[0]!.destroy();
    let served: RawAnswer | null = null;
    for (let attempt = 0; attempt < 50 && !served; attempt += 1) served = await credits(sb.running.port);
    expect(served?.status).toBe(200);
    idle[1]!.destroy();
  });

  it("refuses a config whose buffer budget cannot hold one body of the largest size", async () => {
    await expect(
      startSandbox({ config: configWith({}, { http: { maxBodyBytes: 2000, maxBufferedBytes: 1000 } }), model }),
    ).rejects.toThrow("config.http.maxBufferedBytes: must be at least http.maxBodyBytes (2000)");
  });
});

describe("an unexpected error", () => {
  it("answers 500 with the error body and no stack, logs one line, and the sandbox keeps serving", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const failing = {
        name: "failing",
        check: () => {
          throw new TypeError("a rule failed");
        },
      };
      const { running } = await sandbox(configWith(), { rules: [failing, ...RULES] });
      const error = expectErrorBody(await credits(running.port), 500);
      expect(error.message).toBe("The sandbox failed: a rule failed");
      expect(logged.mock.calls).toEqual([["sandbox: GET /v1/account/credits failed: a rule failed"]]);
      expect(expectErrorBody(await raw(running.port, "GET //x:99999 HTTP/1.1"), 404).code).toBe("not_found");
    } finally {
      logged.mockRestore();
    }
  });
});
