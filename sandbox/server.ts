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
import { RULES, type Call, type Rule } from "./rules.ts";
import { SandboxState } from "./state.ts";

const HOST = "127.0.0.1";
/** Bodies carry data URIs and base64 media; past this the request is refused rather than buffered. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

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
  const server: Server = createServer((request, response) => answerCors(request, response, corsAllowed) || void handle(request, response));
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

function createHandler(state: SandboxState, rules: readonly Rule[], answer: NonNullable<SandboxHooks["answer"]>) {
  const router = new Router(state.model.operations);
  const handlers: Map<string, Handler> = handlersFor(state.model.operations);
  const { rateLimitHeaders } = state.model;

  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const now = state.clock.now();
    const url = new URL(request.url ?? "/", "http://sandbox");
    const ip = request.socket.remoteAddress ?? "";
    let reply: Reply;
    let call: Call | undefined;
    try {
      const text = await readBody(request);
      const match = router.match(request.method ?? "GET", url.pathname);
      if (match) {
        const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "")?.[1] ?? null;
        call = { op: match.op, params: match.params, query: url.searchParams, ip, key: bearer, now, text, account: null, body: undefined, window: null, quote: null, outcome: null };
        reply = applyRules(call, state, rules) ?? handlers.get(match.op.operationId)!(call, state);
        if (reply.status === 200 && call.quote?.charged === "per-request") call.account!.ledger.charge(call.quote.credits ?? 0);
      } else {
        // Not a route of the description: answered, with the window's headers, but not counted in it.
        const { type, code } = SANDBOX_CODES.notFound;
        reply = state.responses.error(404, type, code, `${request.method} ${url.pathname} is not a route of the description.`);
      }
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) console.error(error);
      reply =
        error instanceof BodyTooLarge
          ? state.responses.invalidRequest(`body: larger than the sandbox accepts (${MAX_BODY_BYTES} bytes)`)
          : state.responses.error(500, SANDBOX_CODES.internal.type, SANDBOX_CODES.internal.code, `The sandbox failed: ${(error as Error).message}`);
    }
    const window = call?.window ?? state.ipWindows.peek(ip, now);
    const headers = { [rateLimitHeaders.limit]: window.limit, [rateLimitHeaders.remaining]: window.remaining, [rateLimitHeaders.reset]: window.resetSeconds, ...reply.headers };
    send(response, answer({ status: reply.status, body: reply.body, headers }, call, state));
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
  const text = JSON.stringify(answer.body);
  response.writeHead(answer.status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...answer.headers }).end(text);
}

class BodyTooLarge extends Error {}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
