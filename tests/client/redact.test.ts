/**
 * The key never reaches an error, whole or in pieces: a hostile upstream that echoes it in a body cut
 * short, or names it as a job id (what the client fuzz found, fuzz/client-fuzz.ts).
 */
import { describe, expect, it } from "vitest";
import { redact, redactBody } from "../../runtime/client/redact.ts";

const KEY = "live_0123456789abcdefghij";

describe("redact", () => {
  it("hides the key wherever it stands, whole or repeated", () => {
    expect(redact(`Bearer ${KEY}, again ${KEY}${KEY}.`, KEY)).toBe("Bearer [redacted], again [redacted].");
  });

  it("hides a piece of eight characters or more: an echo cut short at either end", () => {
    expect(redact(`HTTP 429: Bearer ${KEY.slice(0, 14)}`, KEY)).toBe("HTTP 429: Bearer [redacted]");
    expect(redact(`${KEY.slice(9)} tail`, KEY)).toBe("[redacted] tail");
  });

  it("leaves text with no piece that long, and a shorter key only where it stands whole", () => {
    expect(redact(`${KEY.slice(0, 8)} is a piece; ${KEY.slice(0, 7)}x is not`, KEY)).toBe(
      `[redacted] is a piece; ${KEY.slice(0, 7)}x is not`,
    );
    expect(redact("a key abc, ab and bc", "abc")).toBe("a key [redacted], ab and bc");
  });

  it("hides the key in every string of a parsed body: keys and values, in objects and arrays at any depth", () => {
    const body = { error: [`echo ${KEY}`, { [KEY]: [KEY, 7, null] }], ok: true };
    expect(redactBody(body, KEY)).toEqual({
      error: ["echo [redacted]", { "[redacted]": ["[redacted]", 7, null] }],
      ok: true,
    });
  });
});
