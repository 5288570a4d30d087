/**
 * Hostile and careless HTTP requests as fast-check arbitraries, and their exact bytes: random
 * methods; targets built from the description's paths with `//`, `%`, `..`, very long and non-ASCII
 * pieces; headers with CRLFs, huge and repeated values, odd Content-Types and keys; bodies deeply
 * nested, with huge numbers, invalid UTF-8, wrong JSON types, truncated, or shorter than their
 * declared length. Each request also renders as a curl line (and as exact bytes for printf | nc,
 * since curl cannot send every one of them) so that a failure can be replayed.
 */
import fc from "fast-check";
import type { Contract } from "../contract/contract.ts";

export interface HostileRequest {
  readonly method: string;
  /** The request target as sent (non-ASCII goes out as UTF-8). */
  readonly target: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
  /** Content-Length declares more than is sent, and the client then stops sending. */
  readonly truncated: boolean;
}

const METHODS = ["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "TRACE", "get", "CONNECT"];

/** Pieces that have broken request-target parsing (`//x:99999`, `//[`) or could: escapes, traversal, odd forms. */
const TARGET_PIECES = [
  "//",
  "//x:99999",
  "//[",
  "%",
  "%zz",
  "%E0%A4",
  "%00",
  "%2F",
  "/..",
  "/../..",
  "?",
  "?a=%ff",
  "?query=%E2%82%AC&type=3d",
  "#frag",
  "é",
  "日本",
  ";x",
  "*",
  "?&&==",
  "/",
];

function targets(contract: Contract): fc.Arbitrary<string> {
  const paths = contract.operations.map((op) => op.path);
  const concrete = fc
    .tuple(fc.constantFrom(...paths), fc.constantFrom("img_1", "9", "%20", "..", "x".repeat(300)))
    .map(([path, id]) => path.replace(/\{[^}]+\}/g, id));
  const piece = fc.constantFrom(...TARGET_PIECES);
  return fc.oneof(
    { weight: 4, arbitrary: concrete },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.option(piece), concrete, fc.array(piece, { maxLength: 3 }))
        .map(([before, path, after]) => (before ?? "") + path + after.join("")),
    },
    { weight: 1, arbitrary: fc.array(piece, { minLength: 1, maxLength: 5 }).map((parts) => parts.join("")) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(concrete, fc.integer({ min: 1_000, max: 60_000 }))
        .map(([path, length]) => `${path}?q=${"a".repeat(length)}`),
    },
    { weight: 1, arbitrary: concrete.map((path) => `http://127.0.0.1${path}`) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }).map((text) => `/${text}`) },
  );
}

/** The key the fuzz sandbox's account uses; answers must never echo a key. */
export const FUZZ_KEY = "fuzz-key-0123456789";

const CONTENT_TYPES = [
  "application/json",
  "APPLICATION/JSON; CHARSET=UTF-8",
  "application/json;charset=utf-8",
  "text/plain",
  "application/json; charset=latin1",
  "",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
];

const header = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES).map((value) => ["Content-Type", value] as const) },
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(
        `Bearer ${FUZZ_KEY}`,
        `bearer   ${FUZZ_KEY}  `,
        "Bearer ",
        "Basic eDp5",
        `Bearer ${FUZZ_KEY}x`,
        "Bearer a b",
      )
      .map((value) => ["Authorization", value] as const),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("code=429", "code=400, example=x", "example=queue-full", "code=999")
      .map((value) => ["Prefer", value] as const),
  },
  // A CRLF inside a value: a protocol error the server must answer (or close), not a header it believes.
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("a\r\nX-Injected: 1", "a\nb", "\r\n\r\nGET / HTTP/1.1")
      .map((value) => ["X-Note", value] as const),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 100, max: 40_000 }).map((length) => ["X-Huge", "h".repeat(length)] as const),
  },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 30 }).map((value) => ["X-Any", value] as const) },
  {
    weight: 1,
    arbitrary: fc.constantFrom("chunked", "gzip", "identity").map((value) => ["Transfer-Encoding", value] as const),
  },
  { weight: 1, arbitrary: fc.constantFrom("x", "(", "").map((name) => [name, "1"] as const) },
);

/** A header list, sometimes with one header repeated. */
const headers = fc
  .tuple(fc.array(header, { maxLength: 5 }), fc.boolean())
  .map(([list, repeat]) => (repeat && list.length ? [...list, list[0]!] : list));

function bodies(contract: Contract): fc.Arbitrary<Buffer> {
  const examples = contract.operations.flatMap((op) =>
    op.requestExamples.map((example) => JSON.stringify(example.value)),
  );
  const example = examples.length ? fc.constantFrom(...examples) : fc.constant("{}");
  const utf8 = (text: string) => Buffer.from(text, "utf8");
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(Buffer.alloc(0)) },
    { weight: 3, arbitrary: example.map(utf8) },
    { weight: 2, arbitrary: fc.jsonValue().map((value) => utf8(JSON.stringify(value) ?? "null")) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 10, max: 200_000 }).map((depth) => utf8("[".repeat(depth) + "]".repeat(depth))),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 10, max: 50_000 })
        .map((depth) => utf8(`{"prompt":"x","a":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`)),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          "1e999999",
          "-0",
          "123456789012345678901234567890",
          '{"num_images":1e308,"prompt":"x"}',
          '{"num_images":-1e-400}',
          '{"model":9007199254740993}',
        )
        .map(utf8),
    },
    // Invalid UTF-8 inside a JSON string.
    {
      weight: 1,
      arbitrary: fc
        .tuple(example, fc.constantFrom([0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc0, 0xaf]))
        .map(([text, bad]) => Buffer.concat([utf8(text.slice(0, text.length - 2)), Buffer.from(bad), utf8('"}')])),
    },
    // Wrong JSON types for every field of an example.
    {
      weight: 1,
      arbitrary: fc
        .tuple(example, fc.jsonValue())
        .map(([text, value]) =>
          utf8(JSON.stringify(Object.fromEntries(Object.keys(JSON.parse(text) as object).map((key) => [key, value])))),
        ),
    },
    // Truncated JSON.
    {
      weight: 1,
      arbitrary: fc.tuple(example, fc.nat()).map(([text, cut]) => utf8(text.slice(0, cut % Math.max(1, text.length)))),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
  );
}

export function hostileRequests(contract: Contract): fc.Arbitrary<HostileRequest> {
  return fc.record({
    method: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...METHODS) },
      { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", minLength: 1, maxLength: 8 }) },
    ),
    target: targets(contract),
    headers,
    body: bodies(contract),
    truncated: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  });
}

/**
 * The request may end before the server can tell it has (a body shorter than declared, or chunked
 * framing the body does not follow): the client stops sending, and no answer is owed.
 */
export function incomplete(request: HostileRequest): boolean {
  return request.truncated || request.headers.some(([name]) => name.toLowerCase() === "transfer-encoding");
}

/** The request's exact bytes: Host, the fuzzed headers, Content-Length (more than sent when truncated), Connection: close. */
export function requestBytes(request: HostileRequest): Buffer {
  const lines = [
    `${request.method} ${request.target} HTTP/1.1`,
    "Host: 127.0.0.1",
    ...request.headers.map(([name, value]) => `${name}: ${value}`),
  ];
  if (request.body.length > 0 || request.truncated)
    lines.push(`Content-Length: ${request.body.length + (request.truncated ? 10 : 0)}`);
  lines.push("Connection: close", "", "");
  return Buffer.concat([Buffer.from(lines.join("\r\n"), "utf8"), request.body]);
}

/** `$'...'` quoting with every byte outside printable ASCII escaped, so the bytes survive the shell. */
function ansiQuote(bytes: Buffer): string {
  let text = "";
  for (const byte of bytes) {
    if (byte === 0x27 || byte === 0x5c) text += `\\${String.fromCharCode(byte)}`;
    else if (byte >= 0x20 && byte < 0x7f) text += String.fromCharCode(byte);
    else text += `\\x${byte.toString(16).padStart(2, "0")}`;
  }
  return `$'${text}'`;
}

/** Long runs shown shortened in the replay lines of a failure report (the bytes are regenerated from the seed). */
const shorten = (bytes: Buffer): Buffer =>
  bytes.length > 2_000
    ? Buffer.concat([bytes.subarray(0, 1_000), Buffer.from(`...(${bytes.length} bytes)...`), bytes.subarray(-500)])
    : bytes;

/** A curl line replaying the request against `url`, and the exact bytes as a printf | nc line. */
export function replayLines(request: HostileRequest, url: string): { curl: string; exact: string } {
  // --request-target sends the target exactly (`//x:99999`, `..`, an absolute URL), where a URL would be resolved.
  const parts = [
    "curl",
    "-sS",
    "-i",
    "-X",
    ansiQuote(Buffer.from(request.method)),
    "--request-target",
    ansiQuote(shorten(Buffer.from(request.target))),
    url,
  ];
  for (const [name, value] of request.headers) parts.push("-H", ansiQuote(shorten(Buffer.from(`${name}: ${value}`))));
  if (request.body.length) parts.push("--data-binary", ansiQuote(shorten(request.body)));
  const { port } = new URL(url);
  return {
    curl: parts.join(" "),
    exact: `printf '%s' ${ansiQuote(shorten(requestBytes(request)))} | nc 127.0.0.1 ${port}`,
  };
}
