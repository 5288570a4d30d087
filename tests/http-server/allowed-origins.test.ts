/**
 * The origins a user allows (`--allow-origin`, repeatable and comma-separated, and its environment
 * variable), as the sandbox's and the mock's CLIs read them: exact origins as a browser sends them,
 * `null` by name, and an entry that is no origin a usage error naming it; the hint a refusal gives
 * names the flag that allows the page.
 */
import { afterEach, describe, expect, it } from "vitest";
import { allowedOriginsSetting, allowOriginHint } from "../../http-server/loopback-guard.ts";
import { UsageError } from "../../tools/command.ts";

const VARIABLE = "ALLOWED_ORIGINS_TEST";
afterEach(() => {
  delete process.env[VARIABLE];
});

describe("allowedOriginsSetting", () => {
  it("joins the flag's values and the variable's list, each split at commas, blanks left out", () => {
    process.env[VARIABLE] = " https://docs.example.test , ";
    expect(allowedOriginsSetting(["null", "http://127.0.0.1:8081,http://localhost:8081"], VARIABLE)).toEqual([
      "null",
      "http://127.0.0.1:8081",
      "http://localhost:8081",
      "https://docs.example.test",
    ]);
  });

  it("allows nothing more when neither is given", () => {
    expect(allowedOriginsSetting(undefined, VARIABLE)).toEqual([]);
  });

  it.each(["http://127.0.0.1:8081/", "127.0.0.1:8081", "*", "http://x/docs"])(
    "refuses %s, which is no origin a browser sends, naming it",
    (origin) => {
      expect(() => allowedOriginsSetting([origin], VARIABLE)).toThrow(UsageError);
      expect(() => allowedOriginsSetting([origin], VARIABLE)).toThrow(
        `--allow-origin or ${VARIABLE}: "${origin}" is not an origin (null, or scheme://host[:port] with no path, as a browser sends it)`,
      );
    },
  );

  it("names an entry that is no origin by its first 100 characters", () => {
    const long = `http://x/${"p".repeat(200)}`;
    expect(() => allowedOriginsSetting([long], VARIABLE)).toThrow(`"${long.slice(0, 100)}" is not an origin`);
    expect(() => allowedOriginsSetting([long], VARIABLE)).not.toThrow(long.slice(0, 101));
  });
});

describe("allowOriginHint", () => {
  it("tells how to allow pages opened from disk for Origin null", () => {
    expect(allowOriginHint("null")).toBe("allow null (pages opened from disk) with --allow-origin null");
  });

  it("tells the flag with the origin as the browser sent it, at most its first 100 characters", () => {
    expect(allowOriginHint("http://127.0.0.1:8081")).toBe("allow it with --allow-origin http://127.0.0.1:8081");
    const long = `https://${"a".repeat(200)}.example`;
    expect(allowOriginHint(long)).toBe(`allow it with --allow-origin ${long.slice(0, 100)}`);
  });
});
