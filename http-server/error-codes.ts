/**
 * The error types and codes the servers' own HTTP answers carry (the description shows none of
 * them): a route that is not there, a method the path does not serve, a body too large or arriving
 * while the buffers are full, and a request refused for its Host or Origin. Every answer carries
 * the description's error body, `{ error: { type, code, message } }`.
 */
export const HTTP_CODES = {
  notFound: { type: "invalid_request_error", code: "not_found" },
  methodNotAllowed: { type: "invalid_request_error", code: "method_not_allowed" },
  bodyTooLarge: { type: "invalid_request_error", code: "body_too_large" },
  busy: { type: "api_error", code: "sandbox_busy" },
  hostNotAllowed: { type: "permission_error", code: "host_not_allowed" },
  originNotAllowed: { type: "permission_error", code: "origin_not_allowed" },
} as const;

/** An answer of the serving layer itself, before the server's routes: its status, type, code, message and headers. */
export interface HttpRefusal {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The description's error body of a refusal. */
export function errorBody(refusal: Pick<HttpRefusal, "type" | "code" | "message">): {
  error: { type: string; code: string; message: string };
} {
  return { error: { type: refusal.type, code: refusal.code, message: refusal.message } };
}
