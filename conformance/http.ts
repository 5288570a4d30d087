/** Sends the suite's requests and keeps each exchange, so any failure can be replayed with curl. */
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

export interface RequestSpec {
  method: string;
  /** Path and query, e.g. `/v1/images/i-a`. */
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface Exchange {
  request: RequestSpec;
  /** Milliseconds since the epoch when the request was sent (the target saw it after). */
  sentAt: number;
  /** Milliseconds since the epoch when the answer arrived. */
  receivedAt: number;
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
  /** Prism proxy violations (`sl-violations`) when the request went through the validation proxy. */
  violations: ProxyViolation[];
}

/** A target that is no http(s) URL, where no server answers, or that is not the service: reported by its message alone. */
export class TargetError extends Error {}

/**
 * The base URL of `value`, given by `name` (a flag or a variable); throws TargetError unless it is an
 * http(s) URL with a host. Whether the service answers there is the start-up probe's (probe.ts).
 */
export function targetUrl(name: string, value: string, shown: (text: string) => string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TargetError(`${name}: "${shown(value)}" is not a URL (expected http://HOST:PORT or https://...)`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "")
    throw new TargetError(`${name}: "${shown(value)}" is not an http(s) URL with a host`);
  return value.replace(/\/$/, "");
}

/** A 2xx answer. */
export const accepted = (exchange: Exchange): boolean => exchange.status >= 200 && exchange.status < 300;

export interface ProxyViolation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

export interface Transport {
  /** The base URL positive requests are sent to: the Prism validation proxy when one runs, else the target. */
  sendUrl: string;
  /** The target's own base URL: other requests go here directly, and curl commands name it. */
  targetUrl: string;
  /** The keys curl commands print as variables instead of their values (`$CONFORMANCE_API_KEY`). */
  secrets: Record<string, string>;
}

export function bearer(apiKey: string): Record<string, string> {
  return { authorization: `Bearer ${apiKey}` };
}

// node:http with keep-alive agents rather than fetch: a run sends thousands of small requests, and
// fetch's per-request streams and abort signals cost over twice the CPU time.
const AGENTS = { "http:": new HttpAgent({ keepAlive: true }), "https:": new HttpsAgent({ keepAlive: true }) };

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** The bounds of one exchange: the answer body's size and the time to its last byte. */
export interface AnswerLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/** An answer past its bounds (AnswerLimits): too large, or not complete in time. Its message names the bound and the setting. */
export class AnswerBoundError extends Error {
  constructor(
    readonly code: "ANSWER_TOO_LARGE" | "REQUEST_TIMEOUT",
    message: string,
  ) {
    super(message);
  }
}

type ExchangeInit = {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
  limits?: AnswerLimits;
};

/**
 * One HTTP request to `url` (http or https) and its whole answer; `content-length` is set from the body.
 * A kept-alive socket the server closed as idle just as the request went out fails with ECONNRESET
 * before the server read anything; such a request is sent once more on a new socket, as Node's
 * documentation advises.
 */
export async function httpExchange(url: string, init: ExchangeInit): Promise<HttpAnswer> {
  try {
    return await exchangeOnce(url, init);
  } catch (error) {
    if (!(error instanceof StaleSocketError)) throw error;
    // On a connection of its own: the pool may hold other sockets the server closed as idle.
    return exchangeOnce(url, init, false);
  }
}

class StaleSocketError extends Error {
  readonly code = "ECONNRESET";
}

function exchangeOnce(url: string, init: ExchangeInit, pooled = true): Promise<HttpAnswer> {
  const target = new URL(url);
  const protocol = target.protocol === "https:" ? "https:" : "http:";
  const headers = { ...init.headers };
  if (init.body !== undefined) headers["content-length"] = String(Buffer.byteLength(init.body));
  const limits = init.limits;
  return new Promise((resolve, reject) => {
    const options = {
      method: init.method,
      headers,
      agent: pooled ? AGENTS[protocol] : false,
      ...(init.signal ? { signal: init.signal } : {}),
    };
    const tooLarge = (): AnswerBoundError =>
      new AnswerBoundError(
        "ANSWER_TOO_LARGE",
        `the answer's body passed ${limits?.maxBytes} bytes (maxAnswerBytes, --max-answer-bytes); the rest was not read`,
      );
    const outgoing = (protocol === "https:" ? httpsRequest : httpRequest)(target, options, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      // Listening before anything may destroy the answer: its error is the request's failure.
      response.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      if (limits && Number(response.headers["content-length"]) > limits.maxBytes)
        return void response.destroy(tooLarge());
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (limits && size > limits.maxBytes) return void response.destroy(tooLarge());
        chunks.push(chunk);
      });
      response.on("end", () => {
        clearTimeout(timer);
        const answered = new Headers();
        const raw = response.rawHeaders;
        for (let index = 0; index < raw.length; index += 2) answered.append(raw[index]!, raw[index + 1]!);
        resolve({ status: response.statusCode ?? 0, headers: answered, body: Buffer.concat(chunks) });
      });
    });
    // A target that answers slowly, or drips its answer, holds one request at most this long.
    const timer = limits
      ? setTimeout(
          () =>
            outgoing.destroy(
              new AnswerBoundError(
                "REQUEST_TIMEOUT",
                `no complete answer within ${limits.timeoutMs / 1000} s (requestTimeoutSeconds, --request-timeout)`,
              ),
            ),
          limits.timeoutMs,
        )
      : undefined;
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        outgoing.reusedSocket && error.code === "ECONNRESET" && !init.signal?.aborted
          ? new StaleSocketError(error.message)
          : error,
      );
    });
    outgoing.end(init.body);
  });
}

/** Sends `request` to `baseUrl` (the target, or Prism's validation proxy in front of it). */
export async function send(
  baseUrl: string,
  request: RequestSpec,
  signal?: AbortSignal,
  limits?: AnswerLimits,
): Promise<Exchange> {
  const headers = { ...request.headers };
  if (request.body !== undefined) headers["content-type"] = "application/json";
  const sentAt = Date.now();
  const answer = await httpExchange(baseUrl + request.path, {
    method: request.method.toUpperCase(),
    headers,
    ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    ...(signal ? { signal } : {}),
    ...(limits ? { limits } : {}),
  });
  const text = answer.body.toString("utf8");
  return {
    request,
    sentAt,
    receivedAt: Date.now(),
    status: answer.status,
    headers: answer.headers,
    text,
    json: parseJson(text),
    violations: parseViolations(answer.headers.get("sl-violations")),
  };
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseViolations(header: string | null): ProxyViolation[] {
  if (!header) return [];
  const parsed = parseJson(header);
  if (Array.isArray(parsed)) return parsed as ProxyViolation[];
  // Prism truncates a long list ("Too many violations! ..."): keep it as one violation.
  return [{ location: ["response"], severity: "Error", code: "truncated", message: header }];
}

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A curl command reproducing `request` against the target itself (never through the proxy); each
 * API key is left as its variable.
 */
export function curl(transport: Transport, request: RequestSpec): string {
  const parts = ["curl -sS -i", "-X", request.method.toUpperCase(), shellQuote(transport.targetUrl + request.path)];
  for (const [name, value] of Object.entries(request.headers)) {
    let shown = value;
    // The longest first: a key that another key starts with would otherwise be cut in two.
    for (const [variable, secret] of Object.entries(transport.secrets).sort(([, a], [, b]) => b.length - a.length))
      if (secret) shown = shown.split(secret).join(`$${variable}`);
    // Double quotes so the shell expands the key's variable; the header text itself is plain.
    parts.push("-H", shown === value ? shellQuote(`${name}: ${shown}`) : `"${name}: ${shown}"`);
  }
  if (request.body !== undefined) {
    parts.push(
      "-H",
      shellQuote("content-type: application/json"),
      "--data-raw",
      shellQuote(JSON.stringify(request.body)),
    );
  }
  return parts.join(" ");
}
