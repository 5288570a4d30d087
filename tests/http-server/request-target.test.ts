/**
 * The request target as the servers read it (http-server/request-target.ts): a path, or an absolute
 * `http(s)://` URL as HTTP/1.1 allows (one with no path is the path `/`, RFC 9112 section 3.2.1);
 * a `%` must start two hex digits, and a problem names the part, the position of the first bad `%`
 * (counted from 1 in that part) and the three characters it starts, with the fix (`%25`); a path
 * has no dot segments (`.` or `..`, escaped or not), while a segment that only holds dots among
 * other characters is an ordinary name. The fragment is no part of the request.
 */
import { describe, expect, it } from "vitest";
import { Contract } from "../../contract/contract.ts";
import { readTarget, unrouted } from "../../http-server/request-target.ts";
import { Router } from "../../model/router.ts";

const problemOf = (raw: string) => {
  const read = readTarget(raw);
  return "problem" in read ? read.problem : null;
};

describe("readTarget", () => {
  it("reads an absolute URL without a path as the path /", () => {
    for (const raw of ["http://127.0.0.1:4010", "HTTPS://localhost"]) {
      const read = readTarget(raw);
      expect("target" in read, raw).toBe(true);
      if ("target" in read) {
        expect(read.target.path).toBe("/");
        expect(read.target.relative).toBe("/");
        expect([...read.target.query]).toEqual([]);
      }
    }
  });

  it("reads an absolute URL's path and query as the origin form would send them", () => {
    const read = readTarget("http://127.0.0.1:4010/v1/jobs/abc?wait=1");
    expect(read).toEqual({
      target: { path: "/v1/jobs/abc", query: new URLSearchParams("wait=1"), relative: "/v1/jobs/abc?wait=1" },
    });
  });

  it("refuses a % followed by one hex digit only, naming its position (from 1) and the three characters it starts", () => {
    expect(problemOf("/v1/a%2Gb/c")).toBe('path: malformed percent-encoding at character 6 ("%2G"); write % as %25');
  });

  it("refuses a % with no hex digit, and a % at the end of the path, naming what is there", () => {
    expect(problemOf("/%zz/more")).toBe('path: malformed percent-encoding at character 2 ("%zz"); write % as %25');
    expect(problemOf("/v1/50%")).toBe('path: malformed percent-encoding at character 7 ("%"); write % as %25');
  });

  it("counts a + of the query (a space) as one character before a bad %", () => {
    expect(problemOf("/v1/jobs?q=a+b&r=%zz")).toBe(
      'query: malformed percent-encoding at character 9 ("%zz"); write % as %25',
    );
  });

  it("counts a query's bad % from the start of the query", () => {
    expect(problemOf("/v1/jobs?a=1&b=%4x%41")).toBe(
      'query: malformed percent-encoding at character 7 ("%4x"); write % as %25',
    );
  });

  it("takes well-formed escapes of UTF-8 text, and refuses those that are not UTF-8 as such", () => {
    expect(problemOf("/v1/a%2Fb%C3%A9?q=%E2%82%AC")).toBeNull();
    expect(problemOf("/v1/a%E0%A4b")).toBe("path: its percent-escapes do not decode to UTF-8 text");
  });

  it("refuses the dot segments . and .., escaped or not, naming the segment", () => {
    expect(problemOf("/v1/images/../account")).toBe('path: has the dot segment ".."; resolve . and .. before sending');
    expect(problemOf("/v1/./images")).toBe('path: has the dot segment "."; resolve . and .. before sending');
    expect(problemOf("/v1/%2E%2e/x")).toBe('path: has the dot segment "%2E%2e"; resolve . and .. before sending');
  });

  it("takes segments that hold dots among other characters: they are names, not dot segments", () => {
    for (const raw of ["/v1/images/file.", "/v1/a../b", "/v1/x%2e", "/v1/.hidden", "/v1/..a"]) {
      expect(problemOf(raw), raw).toBeNull();
    }
  });

  it("drops the fragment, which is no part of what is requested", () => {
    expect(readTarget("/v1/jobs/abc?wait=1#top")).toEqual({
      target: { path: "/v1/jobs/abc", query: new URLSearchParams("wait=1"), relative: "/v1/jobs/abc?wait=1" },
    });
    expect(readTarget("/v1/jobs#a?b=1")).toEqual({
      target: { path: "/v1/jobs", query: new URLSearchParams(""), relative: "/v1/jobs" },
    });
  });

  it("refuses a target that is no path, quoting at most its first 80 characters", () => {
    expect(problemOf("*")).toBe('request target: must be a path starting with "/" (got "*")');
    const long = `v1/${"x".repeat(200)}`;
    expect(problemOf(long)).toBe(
      `request target: must be a path starting with "/" (got ${JSON.stringify(long.slice(0, 80))})`,
    );
  });
});

describe("unrouted", () => {
  const contract = new Contract();
  const router = new Router(contract.model.operations);
  const invalid = contract.model.errors.invalidRequest;

  it("answers a POST to an area's create path with a slug that is no model as the unavailable model (400), naming the area's models", () => {
    const images = contract.model.areas.find((area) =>
      area.createRoutes.some((route) => route.path.startsWith("/v1/images/")),
    )!;
    const slugs = images.createRoutes.map((route) => route.slug).join(", ");
    expect(unrouted(router, contract.model, "POST", "/v1/images/no-such-model")).toEqual({
      status: invalid.status,
      type: invalid.type,
      code: invalid.code,
      message: `no-such-model is not a model of this build; POST /v1/images/<model> takes ${slugs}.`,
      headers: {},
    });
  });

  it("answers a POST to an area's create path with no slug at all as no route (404), not as an unavailable model", () => {
    expect(unrouted(router, contract.model, "POST", "/v1/images/")).toEqual({
      status: 404,
      type: "invalid_request_error",
      code: "not_found",
      message: "POST /v1/images/ is not a route of the description.",
      headers: {},
    });
  });

  it("answers a method a path does not serve with 405 and Allow naming every method it serves", () => {
    // A create path is also a poll path (`{id}` takes the slug): it serves POST and GET. I-A's path
    // as this build has it (a slug map may give it its real slug).
    const path = contract.model.createRoutes.find((route) => route.label === "I-A")!.path;
    const answer = unrouted(router, contract.model, "DELETE", path);
    expect(answer).toMatchObject({ status: 405, code: "method_not_allowed" });
    expect(answer.headers.allow?.split(", ").sort()).toEqual(["GET", "POST"]);
    expect(answer.message).toBe(`${path} answers ${answer.headers.allow}, not DELETE.`);
  });
});
