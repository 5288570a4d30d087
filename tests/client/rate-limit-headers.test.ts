/**
 * The rate-limit header names come from the description through the route table: the runtime reads
 * whatever names the table gives and spells none itself.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { routeTable } from "../../generated/client.ts";
import { carriesRateLimit, readRateLimit, retryAfterSeconds } from "../../runtime/client/rate-limit.ts";
import { model } from "../support/description.ts";

const RUNTIME = fileURLToPath(new URL("../../runtime/", import.meta.url));

describe("rate-limit header names", () => {
  it("are the model's, in the generated route table", () => {
    expect(routeTable.headers).toEqual({ ...model.rateLimitHeaders, retryAfter: model.retryAfterHeader });
  });

  it("are read by the names the table gives", () => {
    const names = { limit: "L", remaining: "R", reset: "Z", retryAfter: "W" };
    const headers = new Headers({ L: "10", R: "3", Z: "7", W: "2", "X-RateLimit-Limit": "99", "Retry-After": "99" });
    expect(readRateLimit(headers, names)).toEqual({ limit: 10, remaining: 3, resetSeconds: 7 });
    expect(retryAfterSeconds(headers, names)).toBe(2);
    expect(carriesRateLimit(new Headers({ "X-RateLimit-Limit": "1" }), names)).toBe(false);
    expect(carriesRateLimit(new Headers({ R: "1" }), names)).toBe(true);
  });

  it("a value is a number of at least 0 and finite: 0 counts, a negative, an infinite or an empty value is none", () => {
    const names = { limit: "L", remaining: "R", reset: "Z", retryAfter: "W" };
    expect(readRateLimit(new Headers({ L: "0", R: "-1", Z: "Infinity" }), names)).toEqual({
      limit: 0,
      remaining: null,
      resetSeconds: null,
    });
    expect(retryAfterSeconds(new Headers({ W: "" }), names)).toBeNull();
    expect(retryAfterSeconds(new Headers({ W: "1.5" }), names)).toBe(1.5);
  });

  it("are spelled nowhere in runtime/", () => {
    const { limit, remaining, reset, retryAfter } = routeTable.headers;
    const files = readdirSync(RUNTIME, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readFileSync(join(RUNTIME, file), "utf8");
      for (const name of [limit, remaining, reset, retryAfter])
        expect(text.includes(`"${name}"`), `${file} spells "${name}"`).toBe(false);
    }
  });
});
