/**
 * A small implementation of the image area (I-A's create route and its poll route) for the
 * conformance tests, correct by default, with at most one deliberate fault. Jobs advance one
 * state per poll, so a run needs no waiting. Bound to 127.0.0.1 on a free port.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Contract } from "../../../contract/contract.ts";
import { models } from "../../../generated/models.ts";
import { pricedPathOf } from "../../client/labels.ts";
import { serveOnLoopback } from "../../support/loopback-server.ts";

export const FAULTS = [
  "missing-required-field",
  "wrong-enum-value",
  "accepts-invalid-body",
  "missing-rate-limit-header",
  "accepts-unauthenticated",
  "illegal-status-sequence",
] as const;
export type Fault = (typeof FAULTS)[number];

export const API_KEY = "test-live-key";
/** I-A's create route, with this build's slug. */
export const CREATE_PATH = pricedPathOf("I-A");
const SLUG = models["I-A"].slug;
const SEQUENCE = ["pending", "processing", "succeeded"];

export interface FakeService {
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startFakeService(contract: Contract, fault?: Fault): Promise<FakeService> {
  const schema = contract.operations.find((op) => op.method === "post" && op.path === CREATE_PATH)?.requestSchema;
  if (!schema) throw new Error(`the description has no request schema for POST ${CREATE_PATH}`);
  const validBody = contract.registry.compile(schema);
  const polls = new Map<string, number>();

  const reply = (response: ServerResponse, status: number, body: unknown): void => {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "x-ratelimit-limit": "600",
      "x-ratelimit-reset": "42",
    };
    if (fault !== "missing-rate-limit-header") headers["x-ratelimit-remaining"] = "599";
    response.writeHead(status, headers).end(JSON.stringify(body));
  };
  const error = (type: string, code: string, message: string) => ({ error: { type, code, message } });

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (fault !== "accepts-unauthenticated" && request.headers.authorization !== `Bearer ${API_KEY}`) {
      return reply(response, 401, error("authentication_error", "invalid_api_key", "Missing or invalid API key."));
    }
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method === "POST" && url.pathname === CREATE_PATH) {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = undefined;
      }
      if (fault !== "accepts-invalid-body" && !validBody(body)) {
        return reply(response, 400, error("invalid_request_error", "invalid_request", "The request body is invalid."));
      }
      const id = `img_${polls.size + 1}`;
      polls.set(id, 0);
      const created: Record<string, unknown> = { id, message: "Job accepted.", model: SLUG, status: "pending" };
      if (fault === "missing-required-field") delete created.model;
      return reply(response, 200, created);
    }
    const job = /^\/v1\/images\/([^/]+)$/.exec(url.pathname)?.[1];
    if (request.method === "GET" && job && polls.has(job)) {
      const count = (polls.get(job) ?? 0) + 1;
      polls.set(job, count);
      let status = SEQUENCE[Math.min(count - 1, SEQUENCE.length - 1)] as string;
      if (fault === "wrong-enum-value" && status === "succeeded") status = "done";
      // One poll after reaching succeeded, the job claims to be processing again.
      if (fault === "illegal-status-sequence" && count === SEQUENCE.length + 1) status = "processing";
      return reply(
        response,
        200,
        status === "succeeded"
          ? { status, images: [{ url: `https://files.example.com/${job}.png`, position: 1 }] }
          : { status },
      );
    }
    return reply(response, 404, error("invalid_request_error", "not_found", "No such route or job."));
  };

  const server = await serveOnLoopback((request, response) => {
    handle(request, response).catch((failure: Error) =>
      reply(response, 500, error("api_error", "internal", failure.message)),
    );
  });
  return {
    baseUrl: server.url,
    stop: server.close,
  };
}
