/**
 * A hostile upstream for the typed client, as fast-check arbitraries and a real HTTP server on
 * 127.0.0.1 that plays them: each answer has a random status (2xx to 5xx), body (empty, `null`,
 * truncated JSON, huge, not JSON, the wrong shape, the documented error body with random fields,
 * a job or a created job), headers (Retry-After huge, negative, not a number or an HTTP date;
 * X-RateLimit-* garbage; a Content-Length that lies), a redirect (to another origin or to the same
 * URL), a delay before its head, a body dripped byte by byte (or forever), or a connection reset
 * before the head or mid-body. Delays and drips run on the fuzz's fake clock (fake-clock.ts), and
 * the server counts the answers parked on it, so the harness knows when only timers are left.
 * An answer may echo the Authorization header it got (`{key}` in its text), as a hostile or
 * careless proxy does: the client must keep the key out of its errors all the same.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import fc from "fast-check";

/** The client call a scenario drives. */
export type ClientCall = "create" | "createAndWait" | "get" | "wait" | "getAccountCredits";

export type Body =
  | { readonly kind: "empty" }
  | { readonly kind: "null" }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "truncated"; readonly value: unknown; readonly cut: number }
  | { readonly kind: "huge"; readonly bytes: number }
  | { readonly kind: "error"; readonly error: Record<string, unknown>; readonly top: Record<string, unknown> }
  | { readonly kind: "job"; readonly status: string; readonly extra: Record<string, unknown> }
  | { readonly kind: "created"; readonly id: unknown; readonly status: string };

export interface Answer {
  readonly status: number;
  readonly body: Body;
  readonly headers: readonly (readonly [string, string])[];
  /** Fake milliseconds before the head is sent. */
  readonly delayMs: number;
  /** The body sent in about 20 drops, one every `everyMs` fake milliseconds; `forever`: spaces keep coming after it, with no Content-Length. */
  readonly drip: { readonly everyMs: number; readonly forever: boolean } | null;
  /** Content-Length declares more or fewer bytes than are sent. */
  readonly lengthLie: "none" | "more" | "fewer";
  readonly reset: "none" | "beforeHead" | "midBody";
  /** A Location to the other origin's server or to the very URL asked for (with a 3xx status). */
  readonly redirect: "none" | "cross" | "same";
}

export interface Scenario {
  readonly call: ClientCall;
  /** The answer to each request in turn; the last repeats. */
  readonly answers: readonly Answer[];
}

/** Replaced by the Authorization header the request carried. */
export const ECHO = "{key}";
/** Replaced by the key alone, as a proxy that echoes the token it checked does. */
export const ECHO_TOKEN = "{token}";

const STATUSES = [
  200, 201, 202, 204, 206, 301, 302, 303, 307, 308, 400, 401, 403, 404, 409, 410, 413, 418, 422, 429, 500, 502, 503,
  504,
];
const JOB_STATUSES = ["pending", "processing", "succeeded", "failed", "timeout", "", "SUCCEEDED", "unknown"];

const shortText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(ECHO, ECHO_TOKEN, "rate_limited", "\u001b[31mred", "<script>x</script>"),
);
const anyField = fc.oneof(shortText, fc.integer(), fc.constant(null), fc.boolean(), fc.jsonValue({ maxDepth: 2 }));

const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<Body>({ kind: "empty" }) },
  { weight: 2, arbitrary: fc.constant<Body>({ kind: "null" }) },
  fc
    .constantFrom(
      "<html><body>502 Bad Gateway</body></html>",
      "OK",
      "not json",
      `unauthorized: ${ECHO}`,
      `{"note": ${ECHO_TOKEN}}`,
      ECHO_TOKEN,
      "{",
      "\u0000\u00ff",
    )
    .map((text): Body => ({ kind: "text", text })),
  fc.jsonValue({ maxDepth: 3 }).map((value): Body => ({ kind: "json", value })),
  fc
    .tuple(fc.jsonValue({ maxDepth: 3 }), fc.nat())
    .map(([value, cut]): Body => ({ kind: "truncated", value: { note: ECHO, value }, cut })),
  fc.integer({ min: 100_000, max: 400_000 }).map((bytes): Body => ({ kind: "huge", bytes })),
  fc
    .record(
      {
        type: fc.oneof(shortText, anyField),
        code: fc.oneof(fc.constantFrom("rate_limited", "queue_full", "invalid_request", "not_found"), anyField),
        message: fc.oneof(shortText, anyField),
        retry_after_seconds: fc.oneof(fc.constantFrom(-1, 3_000_000, 1e308, 0.5), fc.nat(100), shortText),
        restriction_reason: fc.oneof(fc.constantFrom("input_csam", "strict_model_nsfw", "other"), anyField),
      },
      { requiredKeys: [] },
    )
    .chain((error) =>
      fc
        .record(
          {
            restriction_reason: fc.oneof(fc.constantFrom("input_csam", "made_up"), anyField),
            retry_after_seconds: fc.oneof(fc.nat(100), fc.constant(3_000_000), shortText),
          },
          { requiredKeys: [] },
        )
        .map((top): Body => ({ kind: "error", error, top })),
    ),
  fc
    .tuple(
      fc.constantFrom(...JOB_STATUSES),
      fc.dictionary(fc.constantFrom("images", "note", "error", "id", "video_url"), anyField, { maxKeys: 3 }),
    )
    .map(([status, extra]): Body => ({ kind: "job", status, extra })),
  fc
    .tuple(
      fc.oneof(fc.constantFrom("img_1", "", "../x", ECHO), fc.integer(), fc.constant(null)),
      fc.constantFrom(...JOB_STATUSES),
    )
    .map(([id, status]): Body => ({ kind: "created", id, status })),
);

const RETRY_AFTER = [
  "3000000",
  "2147484",
  "99999999999",
  "-5",
  "abc",
  "",
  "1e9",
  "0",
  "1.5",
  "Wed, 21 Oct 2015 07:28:00 GMT",
  "Fri, 31 Dec 9999 23:59:59 GMT",
  "Infinity",
  "NaN",
];
const GARBAGE = ["-1", "abc", "1e999", "", "99999999999999999999", "0x10", "NaN", ECHO];

const header: fc.Arbitrary<readonly [string, string]> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .oneof(fc.constantFrom(...RETRY_AFTER), fc.nat(600).map(String))
      .map((value) => ["Retry-After", value] as const),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"),
        fc.constantFrom(...GARBAGE),
      )
      .map(([name, value]) => [name, value] as const),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom("application/json", "text/html", "application/json; charset=latin1", "application/problem+json", "")
      .map((value) => ["Content-Type", value] as const),
  },
  { weight: 1, arbitrary: fc.constantFrom(ECHO, ECHO_TOKEN).map((value) => ["X-Echo", value] as const) },
  {
    weight: 1,
    arbitrary: fc
      .string({ unit: "grapheme-ascii", maxLength: 20 })
      .map((value) => ["X-Any", value.replace(/[\r\n]/g, "")] as const),
  },
);

const answer: fc.Arbitrary<Answer> = fc.record({
  status: fc.oneof(
    { weight: 2, arbitrary: fc.constant(200) },
    { weight: 4, arbitrary: fc.constantFrom(...STATUSES) },
    // Not 421: fetch itself answers it by sending the request again on a new connection (the Fetch
    // standard), which takes the next scripted answer out of the client's hands.
    { weight: 1, arbitrary: fc.integer({ min: 200, max: 599 }).filter((status) => status !== 421) },
  ),
  body,
  headers: fc.array(header, { maxLength: 4 }),
  delayMs: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 600_000 }) },
  ),
  drip: fc.oneof(
    { weight: 5, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.record({ everyMs: fc.integer({ min: 50, max: 5_000 }), forever: fc.boolean() }) },
  ),
  lengthLie: fc.oneof(
    { weight: 6, arbitrary: fc.constant("none" as const) },
    { weight: 1, arbitrary: fc.constantFrom("more" as const, "fewer" as const) },
  ),
  reset: fc.oneof(
    { weight: 8, arbitrary: fc.constant("none" as const) },
    { weight: 1, arbitrary: fc.constantFrom("beforeHead" as const, "midBody" as const) },
  ),
  redirect: fc.oneof(
    { weight: 6, arbitrary: fc.constant("none" as const) },
    { weight: 1, arbitrary: fc.constantFrom("cross" as const, "same" as const) },
  ),
});

/** A sane job answer, so that scenarios also reach the states a hostile one interrupts. */
const sane: fc.Arbitrary<Answer> = fc
  .constantFrom<Body>(
    { kind: "created", id: "img_1", status: "pending" },
    { kind: "job", status: "processing", extra: {} },
  )
  .map((saneBody) => ({
    status: 200,
    body: saneBody,
    headers: [],
    delayMs: 0,
    drip: null,
    lengthLie: "none" as const,
    reset: "none" as const,
    redirect: "none" as const,
  }));

/** The documented rate-limit 429 with a hostile Retry-After: the one answer that pauses the whole client and is resent. */
const rateLimited: fc.Arbitrary<Answer> = fc
  .tuple(answer, fc.constantFrom(...RETRY_AFTER))
  .map(([hostile, retryAfter]) => ({
    ...hostile,
    status: 429,
    body: {
      kind: "error",
      error: { type: "rate_limit_error", code: "rate_limited", message: "Too many requests." },
      top: {},
    },
    headers: [["Retry-After", retryAfter] as const, ...hostile.headers.filter(([name]) => name !== "Retry-After")],
  }));

export const scenarios: fc.Arbitrary<Scenario> = fc.record({
  call: fc.constantFrom<ClientCall>("create", "createAndWait", "get", "wait", "getAccountCredits"),
  answers: fc.array(
    fc.oneof({ weight: 4, arbitrary: answer }, { weight: 1, arbitrary: rateLimited }, { weight: 1, arbitrary: sane }),
    { minLength: 1, maxLength: 5 },
  ),
});

/** `text` with the echo placeholders replaced by what the request's Authorization header carried. */
const echoed = (text: string, authorization: string): string =>
  text
    .split(ECHO)
    .join(authorization)
    .split(ECHO_TOKEN)
    .join(authorization.replace(/^Bearer /, ""));

/** The body's bytes, its echo placeholders replaced. */
function bodyText(of: Body, authorization: string): string {
  const json = (value: unknown) => JSON.stringify(value) ?? "null";
  const text = (() => {
    switch (of.kind) {
      case "empty":
        return "";
      case "null":
        return "null";
      case "text":
        return of.text;
      case "json":
        return json(of.value);
      case "truncated": {
        const whole = json(of.value);
        return whole.slice(0, of.cut % whole.length);
      }
      case "huge":
        return json({ status: "processing", pad: "x".repeat(of.bytes) });
      case "error":
        return json({ error: of.error, ...of.top });
      case "job":
        return json({ status: of.status, ...of.extra });
      case "created":
        return json({ id: of.id, job_id: of.id, status: of.status, message: "Job accepted." });
    }
  })();
  return echoed(text, authorization);
}

/** What the upstream saw of one request, and what it did. */
export interface Seen {
  readonly origin: "upstream" | "other";
  readonly method: string;
  readonly path: string;
  /** The status whose head it sent (null: the connection was reset before it). */
  readonly status: number | null;
  /** Whether that head carried a Location. */
  readonly location: boolean;
  /** Fake-clock times (Date.now) the request arrived and its head was sent (or the connection reset). */
  readonly at: number;
  readonly answeredAt: number;
}

export interface Clock {
  setTimeout(callback: () => void, ms: number): unknown;
}

export interface HostileUpstream {
  readonly baseUrl: string;
  /** The other origin a cross-origin redirect names: it answers a job of its own. */
  readonly otherUrl: string;
  readonly seen: Seen[];
  /** Answers waiting on the fake clock (a delay or a drip) on a connection still open. */
  readonly parked: number;
  close(): Promise<void>;
}

/** Starts the upstream and the other origin on 127.0.0.1, playing `scenario` on `clock`. */
export async function startUpstream(scenario: Scenario, clock: Clock): Promise<HostileUpstream> {
  let parked = 0;
  const seen: Seen[] = [];
  const servers: Server[] = [];
  const urls: string[] = [];
  /** Resolves after `ms` fake milliseconds; never, when the connection closes first. */
  const park = (socket: Socket, ms: number) =>
    new Promise<void>((resolve) => {
      parked += 1;
      let done = false;
      const finish = (go: boolean) => {
        if (done) return;
        done = true;
        parked -= 1;
        socket.off("close", onClose);
        if (go) resolve();
      };
      const onClose = () => finish(false);
      socket.on("close", onClose);
      clock.setTimeout(() => finish(true), ms);
    });

  async function play(origin: Seen["origin"], request: IncomingMessage, reply: Answer): Promise<void> {
    const socket = request.socket;
    const at = Date.now();
    const record = (status: number | null, location = false) =>
      seen.push({
        origin,
        method: request.method ?? "",
        path: request.url ?? "",
        status,
        location,
        at,
        answeredAt: Date.now(),
      });
    if (reply.delayMs > 0) await park(socket, reply.delayMs);
    if (reply.reset === "beforeHead") {
      record(null);
      return void socket.destroy();
    }
    const bytes = Buffer.from(bodyText(reply.body, request.headers.authorization ?? ""), "utf8");
    const length =
      reply.lengthLie === "more"
        ? bytes.length + 7
        : reply.lengthLie === "fewer"
          ? Math.max(0, bytes.length - 3)
          : bytes.length;
    const location =
      reply.redirect === "cross"
        ? `${urls[1]}${request.url}`
        : reply.redirect === "same"
          ? `${urls[0]}${request.url}`
          : null;
    const forever = reply.drip?.forever === true;
    const lines = [`HTTP/1.1 ${reply.status} Hostile`, "Connection: close"];
    if (!reply.headers.some(([name]) => name === "Content-Type")) lines.push("Content-Type: application/json");
    for (const [name, value] of reply.headers)
      lines.push(`${name}: ${echoed(value, request.headers.authorization ?? "")}`);
    if (location) lines.push(`Location: ${location}`);
    if (!forever) lines.push(`Content-Length: ${length}`);
    record(reply.status, location !== null);
    socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    const cut = reply.reset === "midBody" ? bytes.length >> 1 : bytes.length;
    if (!reply.drip) socket.write(bytes.subarray(0, cut));
    else {
      // In about 20 drops whatever the size, so that a huge body is not thousands of timer events.
      const drop = Math.max(16, Math.ceil(cut / 20));
      for (let at = 0; at < cut && !socket.destroyed; at += drop) {
        socket.write(bytes.subarray(at, Math.min(cut, at + drop)));
        await park(socket, reply.drip.everyMs);
      }
      while (forever && !socket.destroyed) {
        socket.write(" ");
        await park(socket, reply.drip.everyMs);
      }
    }
    if (reply.reset === "midBody") socket.destroy();
    else socket.end();
  }

  let next = 0;
  const other: Answer = {
    status: 200,
    body: { kind: "created", id: "other_origin_job", status: "succeeded" },
    headers: [],
    delayMs: 0,
    drip: null,
    lengthLie: "none",
    reset: "none",
    redirect: "none",
  };
  for (const origin of ["upstream", "other"] as const) {
    const server = createServer((request) => {
      request.resume();
      request.on("end", () => {
        const reply = origin === "other" ? other : scenario.answers[Math.min(next++, scenario.answers.length - 1)]!;
        void play(origin, request, reply);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  return {
    baseUrl: urls[0]!,
    otherUrl: urls[1]!,
    seen,
    get parked() {
      return parked;
    },
    close: () =>
      Promise.all(
        servers.map((server) => {
          server.closeAllConnections();
          return new Promise<void>((resolve) => server.close(() => resolve()));
        }),
      ).then(() => undefined),
  };
}
