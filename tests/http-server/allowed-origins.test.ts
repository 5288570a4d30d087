/**
 * The origins a user allows (`--allow-origin`, repeatable and comma-separated, and its environment
 * variable), as the sandbox's and the mock's CLIs read them: exact origins as a browser sends them,
 * `null` by name, and an entry that is no origin a usage error naming it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { allowedOriginsSetting } from "../../http-server/loopback-guard.ts";
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
});
