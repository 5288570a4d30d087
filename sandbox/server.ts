/**
 * The sandbox as a library: `startSandbox({ config, port })` serves every operation of the
 * description on 127.0.0.1 and resolves to its URL and a `close()`. The CLI (cli.ts), the tests and
 * the bench all start it this way.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { loadServiceModel, type ServiceModel } from "../model/service-model.ts";
import { systemClock, type Clock } from "./clock.ts";
import { answerCors, corsOrigins } from "./cors.ts";
import { DEFAULT_CONFIG_FILE, readConfigFile, resolveConfig, type SandboxConfig } from "./config.ts";
import { handlersFor, type Handler } from "./handlers.ts";
import { SANDBOX_CODES, type Reply } from "./responses.ts";
import { Router } from "../model/router.ts";
import { BufferBudget, ClientGone, readBody } from "./body-reader.ts";
import { applyServerLimits, TIMEOUT_CHECK_MS } from "./http-limits.ts";
import { readTarget, unrouted } from "./request-target.ts";
import { RULES, type Call, type Rule } from "./rules.ts";
import { SandboxState } from "./state.ts";

const HOST = "127.0.0.1";

export interface SandboxOptions {
  /** A config object (checked like a file), or a file path; the default config when omitted. */
  config?: unknown;
  /** 0 or omitted: a free port. */
  port?: number;
  /** The description's service model; generated/openapi.json's when omitted. */
  model?: ServiceModel;
  clock?: Clock;
  /** The rules applied before each handler, in order (RULES when omitted). */
  rules?: readonly Rule[];
  /** Changes to the config, the rules and each answer (the mutation tests inject implementation bugs this way); none when omitted. */
  hooks?: SandboxHooks;
}

/** A response as it is about to be sent. */
export interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string | number>;
}

export interface SandboxHooks {
  config?(config: SandboxConfig): SandboxConfig;
  rules?(rules: readonly Rule[]): readonly Rule[];
  /** `call` is undefined for a request outside the description. */
  answer?(answer: Answer, call: Call | undefined, state: SandboxState): Answer;
}

export interface RunningSandbox {
  readonly url: string;
  readonly port: number;
  readonly state: SandboxState;
  close(): Promise<void>;
}

export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(`port ${port} on ${HOST} is already in use`);
  }
}

function configOf(config: unknown, model: ServiceModel): SandboxConfig {
  if (config === undefined) return readConfigFile(DEFAULT_CONFIG_FILE, model);
  if (typeof config === "string") return readConfigFile(config, model);
  return resolveConfig(config, model);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const model = options.model ?? loadServiceModel();
  const hooks = options.hooks ?? {};
  const config = configOf(options.config, model);
  const state = new SandboxState(model, hooks.config?.(config) ?? config, options.clock ?? systemClock);
  const rules = options.rules ?? RULES;
  const handle = createHandler(state, hooks.rules?.(rules) ?? rules, hooks.answer ?? ((answer) => answer));
  const corsAllowed = corsOrigins();
  const server: Server = createServer({ connectionsCheckingInterval: TIMEOUT_CHECK_MS }, (request, response) => answerCors(request, response, corsAllowed) || void handle(request, response));
  applyServerLimits(server, state.config.http);
  server.listen(options.port ?? 0, HOST);
  try {
    await Promise.race([once(server, "listening"), once(server, "error").then(([error]) => Promise.reject(error as Error))]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") throw new PortInUseError(options.port ?? 0);
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${HOST}:${port}`,
    port,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a request came to: the reply, the call the rules saw (if it reached them), and whether to close the connection. */
interface Outcome {
  readonly reply: Reply;
  readonly call?: Call;
  /** The body was left unread (refused or never wanted): the connection cannot carry another request. */
  readonly close?: boolean;
}

const hasBody = (request: IncomingMessage): boolean => Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"] !== undefined;

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decode(bytes: Buffer): { text: string; utf8: boolean } {
  try {
    return { text: utf8.decode(bytes), utf8: true };
  } catch {
    return { text: bytes.toString("utf8"), utf8: false };
  }
}

/**
 * The request listener. Every step that reads what the client sent (target, headers, body, JSON)
 * runs inside the try, so nothing a client sends escapes it: an unexpected error is one log line
 * and a 500 with the error body, and the server goes on serving.
 */
function createHandler(state: SandboxState, rules: readonly Rule[], answer: NonNullable<SandboxHooks["answer"]>) {
  const router = new Router(state.model.operations);
  const handlers: Map<string, Handler> = handlersFor(state.model.operations);
  const { rateLimitHeaders } = state.model;
  const { maxBodyBytes, maxBufferedBytes } = state.config.http;
  const budget = new BufferBudget(maxBufferedBytes);

  const outcomeOf = async (request: IncomingMessage, now: number, ip: string, hold: (release: () => void) => void): Promise<Outcome> => {
    const method = request.method ?? "GET";
    const read = readTarget(request.url ?? "/");
    if ("problem" in read) return { reply: state.responses.invalidRequest(read.problem), close: hasBody(request) };
    const { path, query } = read.target;
    const match = router.match(method, path);
    if (!match) {
      // Not a route of the description, or not this method: answered, with the window's headers, but not counted in it.
      const { status, type, code, message, headers } = unrouted(router, state.model, method, path);
      return { reply: state.responses.error(status, type, code, message, headers), close: hasBody(request) };
    }
    const body = await readBody(request, maxBodyBytes, budget);
    hold(body.release);
    if ("refused" in body.read) {
      const reply =
        body.read.refused === "too-large"
          ? state.responses.error(413, SANDBOX_CODES.bodyTooLarge.type, SANDBOX_CODES.bodyTooLarge.code, `body: larger than the sandbox accepts (${maxBodyBytes} bytes, config http.maxBodyBytes).`)
          : state.responses.error(503, SANDBOX_CODES.busy.type, SANDBOX_CODES.busy.code, `The sandbox is reading as many bodies as it buffers at once (${maxBufferedBytes} bytes, config http.maxBufferedBytes); send again shortly.`, { "retry-after": "1" });
      return { reply, close: true };
    }
    const { text, utf8 } = decode(body.read.bytes);
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "")?.[1] ?? null;
    const contentType = request.headers["content-type"] ?? null;
    const call: Call = { op: match.op, params: match.params, query, ip, key: bearer, now, text, contentType, utf8, account: null, body: undefined, window: null, quote: null, outcome: null };
    const reply = applyRules(call, state, rules) ?? handlers.get(match.op.operationId)!(call, state);
    if (reply.status === 200 && call.quote?.charged === "per-request") call.account!.ledger.charge(call.quote.credits ?? 0);
    return { reply, call };
  };

  return (request: IncomingMessage, response: ServerResponse): void => {
    const now = state.clock.now();
    const ip = request.socket.remoteAddress ?? "";
    let release = () => {};
    const respond = (outcome: Outcome) => {
      const window = outcome.call?.window ?? state.ipWindows.peek(ip, now);
      const headers: Record<string, string | number> = { [rateLimitHeaders.limit]: window.limit, [rateLimitHeaders.remaining]: window.remaining, [rateLimitHeaders.reset]: window.resetSeconds, ...outcome.reply.headers };
      if (outcome.close) headers.connection = "close";
      send(response, answer({ status: outcome.reply.status, body: outcome.reply.body, headers }, outcome.call, state));
    };
    const failed = (error: unknown): Outcome => {
      const message = error instanceof Error ? error.message : String(error);
      // One line per unexpected failure; a client gone mid-body is no failure of the server.
      if (!(error instanceof ClientGone)) console.error(`sandbox: ${request.method} ${(request.url ?? "").slice(0, 200)} failed: ${message}`);
      const { type, code } = SANDBOX_CODES.internal;
      return { reply: state.responses.error(500, type, code, `The sandbox failed: ${message}`), close: !request.complete };
    };
    outcomeOf(request, now, ip, (given) => (release = given))
      .catch(failed)
      .then(respond)
      .catch((error: unknown) => respond(failed(error)))
      .catch(() => response.destroy())
      .finally(() => release());
  };
}

function applyRules(call: Call, state: SandboxState, rules: readonly Rule[]): Reply | undefined {
  for (const rule of rules) {
    const reply = rule.check(call, state);
    if (reply) return reply;
  }
  return undefined;
}

function send(response: ServerResponse, answer: Answer): void {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify(answer.body);
  response.writeHead(answer.status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...answer.headers }).end(text);
}
