/** What the suite shows of a target URL's credentials: each form a run may print is redacted, the URL's userinfo left out whole. */
import { describe, expect, it } from "vitest";
import { redactor, urlCredentials, withoutCredentials } from "../../conformance/shown-text.ts";

const base64 = (text: string) => Buffer.from(text).toString("base64");

describe("a target URL's credentials", () => {
  it("a password holding a raw @ is read to the last @, as the URL parser reads it, and hidden in every form", () => {
    const target = "http://bob:p@ss-secret-1@127.0.0.1:4020/v1";
    const redact = redactor(urlCredentials(target));
    // What a run may print: the target as given, as a URL object prints it, the Basic header, the password alone.
    const printed = [
      target,
      new URL(target).href,
      `Authorization: Basic ${base64("bob:p@ss-secret-1")}`,
      "p@ss-secret-1",
    ];
    for (const line of printed) expect(redact(line)).not.toMatch(/ss-secret-1|c3Mtc2VjcmV0LT/);
    expect(withoutCredentials(target)).toBe("http://[redacted]@127.0.0.1:4020/v1");
    expect(new URL(target).host).toBe("127.0.0.1:4020");
  });

  it("percent-encoded credentials are hidden as given and decoded; a URL with backslashes for slashes too", () => {
    const target = "http://admin:s%40cret%3Apass@127.0.0.1:1/";
    const redact = redactor(urlCredentials(target));
    expect(redact(`${target} admin:s@cret:pass ${base64("admin:s@cret:pass")}`)).not.toMatch(/cret/);
    const backslashed = "http:\\\\admin:s3cret-pass@127.0.0.1:1/";
    expect(new URL(backslashed).password).toBe("s3cret-pass");
    expect(redactor(urlCredentials(backslashed))(`GET ${new URL(backslashed).href}`)).not.toContain("s3cret-pass");
    expect(withoutCredentials(backslashed)).toBe("http:\\\\[redacted]@127.0.0.1:1/");
  });

  it("a URL without credentials is shown as it is, and an @ in its path or query is no userinfo", () => {
    for (const target of ["http://127.0.0.1:4020/v1", "http://127.0.0.1:4020/a@b?c=d@e"]) {
      expect(urlCredentials(target)).toEqual([]);
      expect(withoutCredentials(target)).toBe(target);
    }
    expect(urlCredentials(undefined)).toEqual([]);
  });
});
