/**
 * A thin front on 127.0.0.1 that relays every request to the Prism mock and answers with Prism's
 * response, with two corrections:
 * - a 429 carries `Retry-After` only when its body's variant sends it: Prism sends every header a
 *   response declares whichever example `Prefer` selects;
 * - a `Prefer` header naming a status or an example the operation does not document is answered
 *   422 with the valid names, where Prism answers 500 or a 404 that reads like a missing route;
 * - a media field in a form its `x-media.forms` does not take (a data URI where only URLs are),
 *   which Prism cannot see, is answered with the documented 400 as a body the schema refuses.
 * Nothing a client sends can stop it: the request target is read without `new URL` (a target that
 * is not a path, or malformed percent-encoding, is a 400), a method a known path does not serve is a
 * 405 with `Allow`, a body is read within Prism's own size limit (413 past it) and a shared budget,
 * relayed only to operations that take one, refused (400) where it holds more array items and
 * object members than any request (as the sandbox refuses it), and replaced by a stand-in Prism
 * refuses where it is not UTF-8 JSON or is nested deep enough to end Prism,
 * and any unexpected error is one log line and a 500; every one of these answers carries the error
 * body. It is served by the project's HTTP layer (http-server/): the Host and Origin checks, CORS for
 * allowed pages, the sandbox's timeouts and connection cap.
 */
import { Agent, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { answerInTurn, sendWhole } from "../http-server/answer.ts";
import { BufferBudget, discardBody, readBody } from "../http-server/body-reader.ts";
import { errorBody, HTTP_CODES } from "../http-server/error-codes.ts";
import { jsonShape } from "../http-server/json-shape.ts";
import { HTTP_DEFAULTS } from "../http-server/limits.ts";
import { listenOnLoopback } from "../http-server/listen.ts";
import { DOCS_ORIGINS } from "../http-server/loopback-guard.ts";
import { readTarget, unrouted, type Target } from "../http-server/request-target.ts";
import { preferSelections } from "../model/prefer-selections.ts";
import { Router } from "../model/router.ts";
import type { Contract, ContractOperation } from "../contract/contract.ts";
import { mediaFormProblem } from "../contract/bodies/media-forms.ts";
import type { JsonSchema } from "../model/document.ts";
import { retryAfterForText } from "../contract/retry-after.ts";

/** Hop-by-hop headers belong to one connection and are not relayed; the length is set anew. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host", "content-length"]);

/** Prism refuses bodies over 10 MB with 413; the front refuses them itself rather than buffer them first. */
const PRISM_MAX_BODY_BYTES = 10 * 1024 * 1024;

const LIMITS = { ...HTTP_DEFAULTS, maxBodyBytes: PRISM_MAX_BODY_BYTES };

/** Far deeper than any body of the description; Prism's stack ends somewhere past a few thousand. */
const MAX_JSON_DEPTH = 256;
/**
 * Array items and object members a body may hold, all levels together: the sandbox's bound
 * (sandbox/validation.ts). The description's largest body holds a few hundred; ten megabytes of
 * `[0,0,…]` hold five million, which Prism, validating every one, took minutes and half a gigabyte
 * over while every other request waited: such a body is refused here, as the sandbox refuses it.
 */
const MAX_BODY_ENTRIES = 10_000;
/** A JSON body every request schema refuses (they are all objects), which Prism answers with the documented 400. */
const STAND_IN = Buffer.from(JSON.stringify("the request body was not one the mock could relay"));
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body Prism gets. Prism answers malformed JSON with a 400 of its own (no error `type`, none of
 * the documented headers), and a body nested deep enough overflows its stack and ends it: such a
 * body, or one that is not UTF-8, goes on as the stand-in, so the answer is the documented 400. So
 * does a media field in a form its `x-media.forms` does not take, which Prism cannot see.
 */
function relayedBody(bytes: Buffer, schema: JsonSchema | undefined, depth: number): Buffer {
  if (bytes.length === 0) return bytes;
  if (depth > MAX_JSON_DEPTH) return STAND_IN;
  try {
    return mediaFormProblem(schema, JSON.parse(utf8.decode(bytes))) === null ? bytes : STAND_IN;
  } catch {
    return STAND_IN;
  }
}

/** Keep-alive connections to Prism, as the suite's own requests use. */
const RELAY_AGENT = new Agent({ keepAlive: true });

/** Prism's answer as it came. */
interface RelayedAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
}

interface FrontAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** An answer of the front itself, with the description's error body shape. */
function errorAnswer(
  status: number,
  type: string,
  code: string,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): FrontAnswer {
  return {
    status,
    headers: { "content-type": "application/json", ...headers },
    body: Buffer.from(JSON.stringify(errorBody({ type, code, message }))),
  };
}

/** The answer to a request whose body is not read: thrown away, or the connection closed when it is more than that. */
function unread(request: IncomingMessage, answer: FrontAnswer): FrontAnswer {
  return discardBody(request) ? answer : { ...answer, headers: { ...answer.headers, connection: "close" } };
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
  const valid = `valid for ${op.route}: ${selections(contract, op)
    .map((selection) => `"${selection}"`)
    .join("; ")}`;
  if (code !== undefined && !op.responses[code])
    return `Prefer code=${code}: ${op.route} documents no ${code} response (documented: ${Object.keys(op.responses).join(", ")}); ${valid}`;
  if (example === undefined) return null;
  const statuses = code !== undefined ? [code] : Object.keys(op.responses).filter((status) => status.startsWith("2"));
  const offered = new Set(selections(contract, op));
  return statuses.some((status) => offered.has(`code=${status}, example=${example}`))
    ? null
    : `Prefer example=${example}: no ${code ?? "success"} response of ${op.route} has an example of that name; ${valid}`;
}

/**
 * The front on 127.0.0.1:`port`, relaying to Prism at `upstream`; pages of `allowedOrigins` (and of
 * the docs site at its default port) may call it, others are refused.
 */
export async function startMockFront(
  contract: Contract,
  upstream: string,
  port: number,
  // Stryker disable next-line ArrayDeclaration: equivalent: its default allows "Stryker was here", no page's origin
  allowedOrigins: readonly string[] = [],
): Promise<MockFront> {
  const router = new Router(contract.model.operations);
  const budget = new BufferBudget(LIMITS.maxBufferedBytes);
  const invalid = contract.model.errors.invalidRequest;

  const answerOf = async (request: IncomingMessage, hold: (release: () => void) => void): Promise<FrontAnswer> => {
    // Stryker disable next-line StringLiteral: equivalent: a request Node's server hands over always has its method
    const method = request.method ?? "GET";
    // Stryker disable next-line StringLiteral: equivalent: a request Node's server hands over always has its target
    const read = readTarget(request.url ?? "/");
    if ("problem" in read) return unread(request, errorAnswer(400, invalid.type, invalid.code, read.problem));
    const match = router.match(method, read.target.path);
    if (!match) {
      // Answered here: Prism answers some targets that are no route (`//x:99999`) with a 500 without the error body.
      const { status, type, code, message, headers } = unrouted(router, contract.model, method, read.target.path);
      return unread(request, errorAnswer(status, type, code, message, headers));
    }
    const op = contract.byOperationId(match.op.operationId);
    const prefer = request.headers.prefer;
    const problem = op && typeof prefer === "string" ? preferProblem(contract, op, prefer) : null;
    if (problem) return unread(request, errorAnswer(422, "mock_error", "unknown_prefer_selection", problem));
    const body = await readBody(request, LIMITS.maxBodyBytes, budget);
    hold(body.release);
    if ("refused" in body.read) {
      const close: Record<string, string> = body.read.close ? { connection: "close" } : {};
      return body.read.refused === "too-large"
        ? errorAnswer(
            413,
            HTTP_CODES.bodyTooLarge.type,
            HTTP_CODES.bodyTooLarge.code,
            `body: larger than the mock accepts (${LIMITS.maxBodyBytes} bytes, as Prism).`,
            close,
          )
        : errorAnswer(
            503,
            HTTP_CODES.busy.type,
            HTTP_CODES.busy.code,
            "The mock is reading as many bodies as it buffers at once; send again shortly.",
            { "retry-after": "1", ...close },
          );
    }
    const { bytes } = body.read;
    const { depth, entries } = op?.requestSchema ? jsonShape(bytes) : { depth: 0, entries: 0 };
    // A body deep enough to end Prism goes on as the stand-in (relayedBody), however crowded.
    if (depth <= MAX_JSON_DEPTH && entries > MAX_BODY_ENTRIES)
      return errorAnswer(
        400,
        invalid.type,
        invalid.code,
        `body: holds ${entries} array items and object members; a request holds at most ${MAX_BODY_ENTRIES}`,
      );
    const relayed = op?.requestSchema ? relayedBody(bytes, op.requestSchema, depth) : Buffer.alloc(0);
    let answer: RelayedAnswer;
    try {
      answer = await relay(request, read.target, relayed, upstream);
    } catch (error) {
      return errorAnswer(
        502,
        "mock_error",
        "prism_unavailable",
        `The mock's Prism did not answer: ${(error as Error).message}`,
      );
    }
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name)) headers[name] = value;
    });
    if (answer.status === 429 && retryAfterForText(contract, answer.body.toString("utf8")).sends === false) {
      delete headers[contract.model.retryAfterHeader.toLowerCase()];
    }
    return { status: answer.status, headers, body: answer.body };
  };

  const running = await listenOnLoopback({
    port,
    policy: { allowedOrigins: [...DOCS_ORIGINS, ...allowedOrigins], cors: true },
    limits: LIMITS,
    handle: (request, response) => {
      // A failure mid-body leaves the rest unread: the connection cannot carry another request.
      const failed = (message: string) =>
        errorAnswer(
          500,
          "mock_error",
          "mock_front_error",
          `The mock's front failed: ${message}`,
          request.complete ? {} : { connection: "close" },
        );
      answerInTurn(
        "mock front",
        request,
        response,
        (hold) => answerOf(request, hold),
        failed,
        (answer) => send(response, answer),
      );
    },
    refuse: (_request, response, { status, type, code, message, headers }) =>
      send(response, errorAnswer(status, type, code, message, headers)),
  });
  return { port: running.port, close: running.close };
}

function send(response: ServerResponse, answer: FrontAnswer): void {
  sendWhole(response, answer.status, answer.headers, answer.body);
}

/**
 * Relays the request to Prism with its path exactly as sent: a URL object would resolve dot
 * segments (`/v1/images/..` is `/v1/`), and Prism would answer a route other than the one matched.
 */
function relay(request: IncomingMessage, target: Target, body: Buffer, upstream: string): Promise<RelayedAnswer> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  // Stryker disable next-line StringLiteral: equivalent: a request Node's server hands over always has its method
  const method = request.method ?? "GET";
  // Only GET and POST reach here (the router answers other methods 405): a GET carries no body; a
  // POST's, even empty, goes with its length, as a chunked one would not.
  const sent = method === "GET" ? undefined : body;
  if (sent) headers["content-length"] = String(sent.length);
  const { hostname, port } = new URL(upstream);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { hostname, port, path: target.relative, method, headers, agent: RELAY_AGENT },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const answered = new Headers();
          for (let index = 0; index < response.rawHeaders.length; index += 2)
            answered.append(response.rawHeaders[index]!, response.rawHeaders[index + 1]!);
          resolve({ status: response.statusCode ?? 0, headers: answered, body: Buffer.concat(chunks) });
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(sent);
  });
}
