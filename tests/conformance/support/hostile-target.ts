/**
 * Hostile targets for the suite, each a small HTTP server on 127.0.0.1 that answers the start-up
 * probe (the credits route) as the service does and every other request as an attacker would:
 *
 * - `echo`    a 400 error quoting the Authorization header: as JSON to the probe, and to every
 *             other request raw, with ANSI and OSC escapes, line breaks, a CI workflow command
 *             (`::error`) and a bidirectional override
 * - `huge`    an answer of `bytes` bytes, streamed without Content-Length
 * - `drip`    one byte of an answer every `dripMs`, never ending
 * - `static`  a static file server: an HTML index, a 404 in plain text for everything else
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { serveOnLoopback } from "../../support/loopback-server.ts";

export type HostileKind = "echo" | "huge" | "drip" | "static";

export interface HostileOptions {
  readonly bytes?: number;
  readonly dripMs?: number;
}

export interface HostileTarget {
  readonly url: string;
  /** Requests answered, by path. */
  readonly seen: Map<string, number>;
  stop(): Promise<void>;
}

/** What the echo target adds to each answer: every way its text could take over a terminal or a CI log. */
export const HOSTILE_TEXT =
  "\u001b[31mred\u001b[0m \u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007\r\n::error file=x.ts::pwned\n\u202eesrever";

const json = (response: ServerResponse, status: number, body: unknown): void =>
  void response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

function answer(
  kind: HostileKind,
  options: HostileOptions,
  request: IncomingMessage,
  response: ServerResponse,
  credits: boolean,
): void {
  if (kind === "static") {
    if (request.url === "/" || request.url === "/index.html")
      return void response
        .writeHead(200, { "content-type": "text/html" })
        .end("<!DOCTYPE html><html><body><h1>It works!</h1></body></html>");
    return void response.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
  }
  if (credits && kind !== "echo") return json(response, 200, { total_available: 1_000 });
  if (kind === "echo") {
    const message = `you sent ${request.headers.authorization}`;
    if (credits) return json(response, 400, { error: { type: "invalid_request_error", code: "invalid", message } });
    return void response
      .writeHead(400, { "content-type": "application/json" })
      .end(`{"error": {"message": "${message} ${HOSTILE_TEXT}"}}`);
  }
  if (kind === "huge") {
    response.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let left = options.bytes ?? 16 * 1024 * 1024;
    const pump = (): void => {
      while (left > 0) {
        left -= chunk.length;
        if (!response.write(chunk)) return void response.once("drain", pump);
      }
      response.end();
    };
    response.on("close", () => (left = 0));
    return pump();
  }
  response.writeHead(200, { "content-type": "application/json" });
  const timer = setInterval(() => response.write(" "), options.dripMs ?? 200);
  response.on("close", () => clearInterval(timer));
}

export async function startHostileTarget(
  kind: HostileKind,
  creditsPath: string,
  options: HostileOptions = {},
): Promise<HostileTarget> {
  const seen = new Map<string, number>();
  const server = await serveOnLoopback((request, response) => {
    request.resume();
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    seen.set(path, (seen.get(path) ?? 0) + 1);
    answer(kind, options, request, response, path === creditsPath);
  });
  return {
    url: server.url,
    seen,
    stop: server.close,
  };
}
