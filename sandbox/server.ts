/**
 * The sandbox as a library: `startSandbox({ config, port })` serves every operation of the
 * description on 127.0.0.1 and resolves to its URL and a `close()`. The CLI (cli.ts), the tests and
 * the bench all start it this way.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { answerInTurn, sendWhole } from "../http-server/answer.ts";
import { BufferBudget, discardBody, readBody } from "../http-server/body-reader.ts";
import type { HttpRefusal } from "../http-server/error-codes.ts";
import { listenOnLoopback, type LoopbackServerOptions } from "../http-server/listen.ts";
import { DOCS_ORIGINS } from "../http-server/loopback-guard.ts";
import { readTarget, unrouted } from "../http-server/request-target.ts";
import { SANDBOX_CODES, type Reply } from "../behaviour/responses.ts";
import type { WindowState } from "../behaviour/rate-windows.ts";
import { countInWindows, newCall, RULES, type Call, type Rule } from "../behaviour/rules.ts";
import { answer as answerOf } from "../behaviour/service.ts";
import { ServiceState } from "../behaviour/state.ts";
import { loadServiceModel, type ServiceModel } from "../model/service-model.ts";
import { Router } from "../model/router.ts";
import { sandboxChoices } from "./choices.ts";
import { systemClock, type Clock } from "./clock.ts";
import { DEFAULT_CONFIG_FILE, readConfigFile, resolveConfig, type SandboxConfig } from "./config.ts";

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
  /**
   * Origins of pages allowed to call the sandbox, besides the docs site served here at its default
   * port (DOCS_ORIGINS); `null` allows pages opened from disk. Other pages are refused (403).
   */
  allowedOrigins?: readonly string[];
  /** Hears of each request the Host and Origin checks refused (the CLI logs them); none when omitted. */
  onRefusal?: LoopbackServerOptions["onRefusal"];
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
  answer?(answer: Answer, call: Call | undefined, state: ServiceState): Answer;
}

export interface RunningSandbox {
  readonly url: string;
  readonly port: number;
  /** The service model's state behind it (behaviour/), whose config is the sandbox's. */
  readonly state: ServiceState & { readonly config: SandboxConfig };
  close(): Promise<void>;
}

function configOf(config: unknown, model: ServiceModel): SandboxConfig {
  if (config === undefined) return readConfigFile(DEFAULT_CONFIG_FILE, model);
  if (typeof config === "string") return readConfigFile(config, model);
  return resolveConfig(config, model);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const model = options.model ?? loadServiceModel();
  const hooks = options.hooks ?? {};
  const given = configOf(options.config, model);
  const config = hooks.config?.(given) ?? given;
  const state = new ServiceState(model, config, sandboxChoices(model, config)) as RunningSandbox["state"];
  const rules = options.rules ?? RULES;
  const { handle, refuse } = createHandler(
    state,
    options.clock ?? systemClock,
    hooks.rules?.(rules) ?? rules,
    hooks.answer ?? ((answer) => answer),
  );
  const running = await listenOnLoopback({
    port: options.port ?? 0,
    policy: { allowedOrigins: [...DOCS_ORIGINS, ...(options.allowedOrigins ?? [])], cors: true },
    limits: config.http,
    handle,
    refuse,
    ...(options.onRefusal && { onRefusal: options.onRefusal }),
  });
  return { url: running.url, port: running.port, state, close: running.close };
}

/** What a request came to: the reply, the call the rules saw (if it reached them), and whether to close the connection. */
interface Outcome {
  readonly reply: Reply;
  readonly call?: Call;
  /** The window a request refused before the rules was counted in (the rules count the others'). */
  readonly window?: WindowState;
  /** The rest of the body is more than is thrown away, or the request failed mid-body: the connection cannot carry another request. */
  readonly close?: boolean;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decode(bytes: Buffer): { text: string; utf8: boolean } {
  try {
    return { text: utf8.decode(bytes), utf8: true };
  } catch {
    return { text: bytes.toString("utf8"), utf8: false };
  }
}

/**
 * The request listener and the answer to the loopback guard's refusals. Every step that reads what
 * the client sent (target, headers, body, JSON) runs inside one chain (answerInTurn), so nothing a
 * client sends escapes it: an unexpected error is one log line and a 500 with the error body, and
 * the server goes on serving.
 */
function createHandler(
  state: RunningSandbox["state"],
  clock: Clock,
  rules: readonly Rule[],
  answer: NonNullable<SandboxHooks["answer"]>,
) {
  const router = new Router(state.model.operations);
  const { rateLimitHeaders } = state.model;
  const { maxBodyBytes, maxBufferedBytes } = state.config.http;
  const budget = new BufferBudget(maxBufferedBytes);

  const outcomeOf = async (
    request: IncomingMessage,
    now: number,
    ip: string,
    hold: (release: () => void) => void,
  ): Promise<Outcome> => {
    const method = request.method ?? "GET";
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "")?.[1] ?? null;
    // A request refused before the rules (its target, its route, its body's size) still counts in
    // the windows, as the specification says of rejected requests; past a limit, it is the 429.
    const refusedEarly = (reply: Reply, close: boolean): Outcome => {
      const { window, tooMany } = countInWindows({ ip, key: bearer, now }, state);
      return { reply: tooMany ?? reply, window, close };
    };
    const read = readTarget(request.url ?? "/");
    if ("problem" in read) return refusedEarly(state.responses.invalidRequest(read.problem), !discardBody(request));
    const { path, query } = read.target;
    const match = router.match(method, path);
    if (!match) {
      // Not a route of the description, or not this method (an unknown model's create among them).
      const { status, type, code, message, headers } = unrouted(router, state.model, method, path);
      return refusedEarly(state.responses.error(status, type, code, message, headers), !discardBody(request));
    }
    const body = await readBody(request, maxBodyBytes, budget);
    hold(body.release);
    if ("refused" in body.read) {
      return refusedEarly(
        body.read.refused === "too-large"
          ? state.responses.error(
              413,
              SANDBOX_CODES.bodyTooLarge.type,
              SANDBOX_CODES.bodyTooLarge.code,
              `body: larger than the sandbox accepts (${maxBodyBytes} bytes, config http.maxBodyBytes).`,
            )
          : state.responses.error(
              503,
              SANDBOX_CODES.busy.type,
              SANDBOX_CODES.busy.code,
              `The sandbox is reading as many bodies as it buffers at once (${maxBufferedBytes} bytes, config http.maxBufferedBytes); send again shortly.`,
              { "retry-after": "1" },
            ),
        body.read.close,
      );
    }
    const { text, utf8 } = decode(body.read.bytes);
    const contentType = request.headers["content-type"] ?? null;
    const call = newCall({
      op: match.op,
      params: match.params,
      query,
      ip,
      key: bearer,
      authorization: request.headers.authorization ?? null,
      now,
      text,
      contentType,
      utf8,
    });
    return { reply: answerOf(state, call, rules), call };
  };

  const respond = (request: IncomingMessage, response: ServerResponse, outcome: Outcome, now: number) => {
    const ip = request.socket.remoteAddress ?? "";
    const window = outcome.window ?? outcome.call?.window ?? state.ipWindows.peek(ip, now);
    const headers: Record<string, string | number> = {
      [rateLimitHeaders.limit]: window.limit,
      [rateLimitHeaders.remaining]: window.remaining,
      [rateLimitHeaders.reset]: window.resetSeconds,
      ...outcome.reply.headers,
    };
    if (outcome.close) headers.connection = "close";
    send(response, answer({ status: outcome.reply.status, body: outcome.reply.body, headers }, outcome.call, state));
  };

  return {
    handle: (request: IncomingMessage, response: ServerResponse): void => {
      const now = clock.now();
      const failed = (message: string): Outcome => {
        const { type, code } = SANDBOX_CODES.internal;
        return {
          reply: state.responses.error(500, type, code, `The sandbox failed: ${message}`),
          close: !request.complete,
        };
      };
      answerInTurn(
        "sandbox",
        request,
        response,
        (hold) => outcomeOf(request, now, request.socket.remoteAddress ?? "", hold),
        failed,
        (outcome) => respond(request, response, outcome, now),
      );
    },
    refuse: (request: IncomingMessage, response: ServerResponse, refusal: HttpRefusal): void => {
      const { status, type, code, message, headers } = refusal;
      respond(
        request,
        response,
        {
          reply: state.responses.error(status, type, code, message, headers ? { ...headers } : undefined),
          close: headers?.connection === "close",
        },
        clock.now(),
      );
    },
  };
}

function send(response: ServerResponse, answer: Answer): void {
  sendWhole(
    response,
    answer.status,
    { "content-type": "application/json", ...answer.headers },
    JSON.stringify(answer.body),
  );
}
