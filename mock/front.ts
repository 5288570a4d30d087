/**
 * A thin front on 127.0.0.1 that relays every request to the Prism mock and answers with Prism's
 * response, with two corrections:
 * - a 429 carries `Retry-After` only when its body's variant sends it: Prism sends every header a
 *   response declares whichever example `Prefer` selects;
 * - a `Prefer` header naming a status or an example the operation does not document is answered
 *   422 with the valid names, where Prism answers 500 or a 404 that reads like a missing route.
 * Nothing a client sends can stop it: the request target is read without `new URL` (a target that
 * is not a path, or malformed percent-encoding, is a 400), a method a known path does not serve is a
 * 405 with `Allow`, a body is read within Prism's own size limit (413 past it) and a shared budget,
 * relayed only to operations that take one, and replaced by a stand-in Prism refuses where it is not
 * UTF-8 JSON or is nested deep enough to end Prism,
 * and any unexpected error is one log line and a 500; every one of these answers carries the error
 * body. Slow clients meet the sandbox's timeouts and connection cap.
 */
import { once } from "node:events";
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { preferSelections } from "../model/prefer-selections.ts";
import { Router } from "../model/router.ts";
import { BufferBudget, ClientGone, readBody } from "../sandbox/body-reader.ts";
import { applyServerLimits, HTTP_DEFAULTS, TIMEOUT_CHECK_MS } from "../sandbox/http-limits.ts";
import { readTarget, unrouted, type Target } from "../sandbox/request-target.ts";
import { SANDBOX_CODES } from "../sandbox/responses.ts";
import type { Contract, ContractOperation } from "../conformance/contract.ts";
import { parseJson, type HttpAnswer } from "../conformance/http.ts";
import { retryAfterFor } from "../conformance/retry-after.ts";

/** Hop-by-hop headers belong to one connection and are not relayed; the length is set anew. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host", "content-length"]);

/** Prism refuses bodies over 10 MB with 413; the front refuses them itself rather than buffer them first. */
const PRISM_MAX_BODY_BYTES = 10 * 1024 * 1024;

const LIMITS = { ...HTTP_DEFAULTS, maxBodyBytes: PRISM_MAX_BODY_BYTES };

/** Far deeper than any body of the description; Prism's stack ends somewhere past a few thousand. */
const MAX_JSON_DEPTH = 256;
/** A JSON body every request schema refuses (they are all objects), which Prism answers with the documented 400. */
const STAND_IN = Buffer.from(JSON.stringify("the request body was not UTF-8 JSON the mock could relay"));
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body Prism gets. Prism answers malformed JSON with a 400 of its own (no error `type`, none of
 * the documented headers), and a body nested deep enough overflows its stack and ends it: such a
 * body, or one that is not UTF-8, goes on as the stand-in, so the answer is the documented 400.
 */
function relayedBody(bytes: Buffer): Buffer {
  if (bytes.length === 0) return bytes;
  if (jsonDepth(bytes) > MAX_JSON_DEPTH) return STAND_IN;
  try {
    JSON.parse(utf8.decode(bytes));
    return bytes;
  } catch {
    return STAND_IN;
  }
}

/** The deepest nesting of arrays and objects in a JSON text (strings skipped), read without parsing it. */
function jsonDepth(bytes: Buffer): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index]!;
    if (inString) {
      if (byte === 0x5c) index += 1;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (byte === 0x5d || byte === 0x7d) depth -= 1;
  }
  return deepest;
}

/** Keep-alive connections to Prism, as the suite's own requests use. */
const RELAY_AGENT = new Agent({ keepAlive: true });

interface FrontAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** An answer of the front itself, with the description's error body shape. */
function errorAnswer(status: number, type: string, code: string, message: string, headers: Record<string, string> = {}): FrontAnswer {
  return { status, headers: { "content-type": "application/json", ...headers }, body: Buffer.from(JSON.stringify({ error: { type, code, message } })) };
}

export interface MockFront {
  port: number;
  close(): Promise<void>;
}

/** Every `Prefer` value that selects a named example of an operation's responses, in document order. */
export function selections(contract: Contract, op: ContractOperation): string[] {
  return preferSelections(contract.doc, op.operation);
}


/** Why a `Prefer` header selects nothing the operation documents, with the valid choices; null when it does. */
export function preferProblem(contract: Contract, op: ContractOperation, prefer: string): string | null {
  const pairs = [...prefer.matchAll(/(\w+)=([^,;\s]+)/g)].map(([, key, value]) => [key!, value!] as const);
  // Repeated Prefer headers arrive joined; Prism would take the first of a key, the check below the last.
  const twice = pairs.find(([key], index) => pairs.findIndex(([other]) => other === key) !== index);
  if (twice) return `Prefer names ${twice[0]} more than once ("${prefer}"); send one selection`;
  const asked = Object.fromEntries(pairs);
  const { code, example } = asked;
  const valid = `valid for ${op.route}: ${selections(contract, op).map((selection) => `"${selection}"`).join("; ")}`;
  if (code !== undefined && !op.responses[code]) return `Prefer code=${code}: ${op.route} documents no ${code} response (documented: ${Object.keys(op.responses).join(", ")}); ${valid}`;
  if (example === undefined) return null;
  const statuses = code !== undefined ? [code] : Object.keys(op.responses).filter((status) => status.startsWith("2"));
  const offered = new Set(selections(contract, op));
  return statuses.some((status) => offered.has(`code=${status}, example=${example}`)) ? null : `Prefer example=${example}: no ${code ?? "success"} response of ${op.route} has an example of that name; ${valid}`;
}

export async function startMockFront(contract: Contract, upstream: string, port: number, host: string): Promise<MockFront> {
  const router = new Router(contract.model.operations);
  const budget = new BufferBudget(LIMITS.maxBufferedBytes);
  const invalid = contract.model.errors.invalidRequest;

  const answerOf = async (request: IncomingMessage, hold: (release: () => void) => void): Promise<FrontAnswer> => {
    const method = request.method ?? "GET";
    const read = readTarget(request.url ?? "/");
    if ("problem" in read) return errorAnswer(400, invalid.type, invalid.code, read.problem);
    const match = router.match(method, read.target.path);
    if (!match) {
      // Answered here: Prism answers some targets that are no route (`//x:99999`) with a 500 without the error body.
      const { status, type, code, message, headers } = unrouted(router, contract.model, method, read.target.path);
      return errorAnswer(status, type, code, message, headers);
    }
    const op = contract.byOperationId(match.op.operationId);
    const prefer = request.headers.prefer;
    const problem = op && typeof prefer === "string" ? preferProblem(contract, op, prefer) : null;
    if (problem) return errorAnswer(422, "mock_error", "unknown_prefer_selection", problem);
    const body = await readBody(request, LIMITS.maxBodyBytes, budget);
    hold(body.release);
    if ("refused" in body.read) {
      return body.read.refused === "too-large"
        ? errorAnswer(413, SANDBOX_CODES.bodyTooLarge.type, SANDBOX_CODES.bodyTooLarge.code, `body: larger than the mock accepts (${LIMITS.maxBodyBytes} bytes, as Prism).`)
        : errorAnswer(503, SANDBOX_CODES.busy.type, SANDBOX_CODES.busy.code, "The mock is reading as many bodies as it buffers at once; send again shortly.", { "retry-after": "1" });
    }
    const relayed = op?.requestSchema ? relayedBody(body.read.bytes) : Buffer.alloc(0);
    let answer: HttpAnswer;
    try {
      answer = await relay(request, read.target, relayed, upstream);
    } catch (error) {
      return errorAnswer(502, "mock_error", "prism_unavailable", `The mock's Prism did not answer: ${(error as Error).message}`);
    }
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name)) headers[name] = value;
    });
    if (answer.status === 429 && retryAfterFor(contract, parseJson(answer.body.toString("utf8"))).sends === false) {
      delete headers[contract.model.retryAfterHeader.toLowerCase()];
    }
    return { status: answer.status, headers, body: answer.body };
  };

  const server: Server = createServer({ connectionsCheckingInterval: TIMEOUT_CHECK_MS }, (request, response) => {
    let release = () => {};
    const failed = (error: unknown): FrontAnswer => {
      const message = error instanceof Error ? error.message : String(error);
      // One line per unexpected failure; a client gone mid-body is no failure of the server.
      if (!(error instanceof ClientGone)) console.error(`mock front: ${request.method} ${(request.url ?? "").slice(0, 200)} failed: ${message}`);
      return errorAnswer(500, "mock_error", "mock_front_error", `The mock's front failed: ${message}`);
    };
    answerOf(request, (given) => (release = given))
      .catch(failed)
      .then((answer) => send(response, answer, !request.complete))
      .catch(() => response.destroy())
      .finally(() => release());
  });
  applyServerLimits(server, LIMITS);
  server.listen(port, host);
  // A port in use rejects here (EADDRINUSE) rather than as an unhandled 'error' event.
  await Promise.race([once(server, "listening"), once(server, "error").then(([error]) => Promise.reject(error as Error))]);
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends the answer; a body left unread means the connection cannot carry another request. */
function send(response: ServerResponse, answer: FrontAnswer, unread: boolean): void {
  if (response.headersSent || response.destroyed) return;
  const headers = { ...answer.headers, "content-length": String(answer.body.length), ...(unread ? { connection: "close" } : {}) };
  response.writeHead(answer.status, headers).end(answer.body);
}

/**
 * Relays the request to Prism with its path exactly as sent: a URL object would resolve dot
 * segments (`/v1/images/..` is `/v1/`), and Prism would answer a route other than the one matched.
 */
function relay(request: IncomingMessage, target: Target, body: Buffer, upstream: string): Promise<HttpAnswer> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const method = request.method ?? "GET";
  const sent = body.length > 0 && method !== "GET" && method !== "HEAD" ? body : undefined;
  if (sent) headers["content-length"] = String(sent.length);
  const { hostname, port } = new URL(upstream);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ hostname, port, path: target.relative, method, headers, agent: RELAY_AGENT }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const answered = new Headers();
        for (let index = 0; index < response.rawHeaders.length; index += 2) answered.append(response.rawHeaders[index]!, response.rawHeaders[index + 1]!);
        resolve({ status: response.statusCode ?? 0, headers: answered, body: Buffer.concat(chunks) });
      });
    });
    outgoing.on("error", reject);
    outgoing.end(sent);
  });
}
