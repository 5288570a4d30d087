/**
 * A thin front on 127.0.0.1 that relays every request to the Prism mock and answers with Prism's
 * response, with two corrections:
 * - a 429 carries `Retry-After` only when its body's variant sends it: Prism sends every header a
 *   response declares whichever example `Prefer` selects;
 * - a `Prefer` header naming a status or an example the operation does not document is answered
 *   422 with the valid names, where Prism answers 500 or a 404 that reads like a missing route.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { preferSelections } from "../model/prefer-selections.ts";
import { Router } from "../model/router.ts";
import type { Contract, ContractOperation } from "./contract.ts";
import { httpExchange, parseJson, type HttpAnswer } from "./http.ts";
import { retryAfterFor } from "./retry-after.ts";

/** Hop-by-hop headers belong to one connection and are not relayed; the length is set anew. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host", "content-length"]);

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
  const asked = Object.fromEntries([...prefer.matchAll(/(\w+)=([^,;\s]+)/g)].map(([, key, value]) => [key, value]));
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
  const server: Server = createServer((request, response) => {
    const match = router.match(request.method ?? "GET", (request.url ?? "/").split("?")[0] ?? "");
    const op = match && contract.byOperationId(match.op.operationId);
    const prefer = request.headers.prefer;
    const problem = op && typeof prefer === "string" ? preferProblem(contract, op, prefer) : null;
    if (problem) {
      const body = JSON.stringify({ error: { type: "mock_error", code: "unknown_prefer_selection", message: problem } });
      response.writeHead(422, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
      return;
    }
    relay(request, upstream)
      .then((answer) => {
        const headers: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!HOP_BY_HOP.has(name)) headers[name] = value;
        });
        if (answer.status === 429 && retryAfterFor(contract, parseJson(answer.body.toString("utf8"))).sends === false) {
          delete headers[contract.model.retryAfterHeader.toLowerCase()];
        }
        headers["content-length"] = String(answer.body.length);
        response.writeHead(answer.status, headers).end(answer.body);
      })
      .catch((error: Error) => {
        response.writeHead(502, { "content-type": "text/plain" }).end(`mock front: Prism did not answer: ${error.message}`);
      });
  });
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

async function relay(request: IncomingMessage, upstream: string): Promise<HttpAnswer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const method = request.method ?? "GET";
  const hasBody = chunks.length > 0 && method !== "GET" && method !== "HEAD";
  return httpExchange(upstream + (request.url ?? "/"), { method, headers, ...(hasBody ? { body: Buffer.concat(chunks) } : {}) });
}
