/**
 * One HTTP/1.1 exchange over a raw socket: the request's exact bytes go out (CRLFs in headers,
 * invalid UTF-8, a body shorter than its Content-Length), and the first response is read back. No
 * HTTP client would send such requests, which is why the fuzz harness and its tests use this.
 */
import { connect } from "node:net";

export interface RawAnswer {
  readonly status: number;
  /** Header names lower-cased; a repeated header's values joined with ", ". */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Buffer;
}

/** Parses the first response of `data`; null until its head and its Content-Length's body are all there. */
function parseResponse(data: Buffer, ended: boolean): RawAnswer | null {
  const end = data.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [statusLine, ...lines] = data.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "")?.[1] ?? NaN);
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
  }
  const length = headers.has("content-length") ? Number(headers.get("content-length")) : null;
  const body = data.subarray(end + 4);
  if (length !== null && body.length < length) return ended ? { status, headers, body } : null;
  if (length === null && !ended) return null;
  return { status, headers, body: length === null ? body : body.subarray(0, length) };
}

/**
 * Sends `bytes` to 127.0.0.1:`port` and resolves with the first response, or null when the server
 * closed the connection or said nothing within `timeoutMs` (as it may for an incomplete request).
 * `halfClose` ends the sending side after the bytes, so a server waiting for more sees the end.
 */
export function rawExchange(
  port: number,
  bytes: Buffer,
  { timeoutMs = 3000, halfClose = false } = {},
): Promise<RawAnswer | null> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (ended: boolean) => {
      if (settled) return;
      const answer = parseResponse(Buffer.concat(chunks), ended);
      if (!answer && !ended) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer && Number.isFinite(answer.status) ? answer : null);
    };
    const timer = setTimeout(() => finish(true), timeoutMs);
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      finish(false);
    });
    socket.on("end", () => finish(true));
    socket.on("close", () => finish(true));
    // A reset after the server answered and closed while the client was still writing: what arrived stands.
    socket.on("error", () => finish(true));
    socket.write(bytes, () => {
      if (halfClose) socket.end();
    });
  });
}
