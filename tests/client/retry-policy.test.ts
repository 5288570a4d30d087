/** The retry policy alone: which failures are resent, after how long, and the rule behind each. */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  CooldownError,
  RateLimitedError,
  TooManyRequestsError,
  TransportError,
  UnexpectedStatusError,
} from "../../runtime/client/errors.ts";
import { backoffMs, retryDelay } from "../../runtime/client/retry-policy.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

const facts = (status: number) => ({ status, headers: new Headers(), body: {} });
const lost = new TransportError("GET /v1/images/x: no usable response", false);
const MAX_PAUSE = 300_000;

describe("the retry policy", () => {
  it("backs off 1 s, 2 s, 4 s, 8 s: doubling from one second (the middle of the jitter)", () => {
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    expect([0, 1, 2, 3].map(backoffMs)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect([0, 1, 2].map((resends) => retryDelay(lost, resends, 3, true, MAX_PAUSE))).toEqual([1_000, 2_000, 4_000]);
  });

  it("spreads each step by up to half either way", () => {
    vi.spyOn(Math, "random").mockReturnValue(0);
    expect(backoffMs(2)).toBe(2_000);
    vi.spyOn(Math, "random").mockReturnValue(0.999);
    expect(backoffMs(2)).toBeCloseTo(5_996, 6);
  });

  it("gives up once `resends` reaches the bound, for every kind of failure", () => {
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const rateLimited = new RateLimitedError("m", facts(429), 2);
    expect(retryDelay(lost, 2, 3, true, MAX_PAUSE)).toBe(4_000);
    expect(retryDelay(lost, 3, 3, true, MAX_PAUSE)).toBeNull();
    expect(retryDelay(rateLimited, 3, 3, false, MAX_PAUSE)).toBeNull();
    expect(retryDelay(lost, 0, 0, true, MAX_PAUSE)).toBeNull();
  });

  it("a rate-limit 429 is resent even when the request is not resendable: with Retry-After at once (the pause spaces it), without it after the backoff", () => {
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    expect(retryDelay(new RateLimitedError("m", facts(429), 7), 0, 3, false, MAX_PAUSE)).toBe(0);
    expect(retryDelay(new RateLimitedError("m", facts(429), null), 1, 3, false, MAX_PAUSE)).toBe(2_000);
  });

  it("a Retry-After up to maxPauseMs is waited out and resent; one longer is not", () => {
    expect(retryDelay(new RateLimitedError("m", facts(429), 300), 0, 3, true, MAX_PAUSE)).toBe(0);
    expect(retryDelay(new RateLimitedError("m", facts(429), 301), 0, 3, true, MAX_PAUSE)).toBeNull();
  });

  it("a cooldown is a wait named like a Retry-After: up to maxPauseMs resent at once (the pause spaces it), a create included; longer, or past the bound, not", () => {
    expect(retryDelay(new CooldownError("m", facts(429), 300), 0, 3, false, MAX_PAUSE)).toBe(0);
    expect(retryDelay(new CooldownError("m", facts(429), 301), 0, 3, false, MAX_PAUSE)).toBeNull();
    expect(retryDelay(new CooldownError("m", facts(429), 600), 0, 3, false, 600_000)).toBe(0);
    expect(retryDelay(new CooldownError("m", facts(429), 30), 3, 3, true, MAX_PAUSE)).toBeNull();
  });

  it("a lost answer or a 5xx is resent only when resendable; a 4xx or a 429 that names no wait never", () => {
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    expect(retryDelay(lost, 0, 3, false, MAX_PAUSE)).toBeNull();
    expect(retryDelay(new UnexpectedStatusError("m", facts(500)), 0, 3, true, MAX_PAUSE)).toBe(1_000);
    expect(retryDelay(new UnexpectedStatusError("m", facts(500)), 0, 3, false, MAX_PAUSE)).toBeNull();
    // 499 is the last status that is not a server error.
    expect(retryDelay(new UnexpectedStatusError("m", facts(499)), 0, 3, true, MAX_PAUSE)).toBeNull();
    expect(retryDelay(new TooManyRequestsError("m", facts(429)), 0, 3, true, MAX_PAUSE)).toBeNull();
  });
});
