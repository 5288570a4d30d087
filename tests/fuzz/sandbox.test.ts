/**
 * The HTTP fuzz harness's small budget against the sandbox (npm run fuzz runs the large one): a
 * few hundred hostile requests over raw sockets, each answered as answer-requirements.ts requires, with
 * the sandbox still answering a well-formed request after each. A fixed seed, so a failure here
 * replays with `npm run fuzz -- --server sandbox --seed <seed>`.
 */
import { describe, expect, it } from "vitest";
import { Contract } from "../../contract/contract.ts";
import { AnswerRequirements } from "../../fuzz/answer-requirements.ts";
import { FUZZ_KEY, hostileRequests, replayLines } from "../../fuzz/hostile-requests.ts";
import { fuzz, report } from "../../fuzz/run.ts";
import fc from "fast-check";

const contract = new Contract();

describe("fuzzing the sandbox", () => {
  it("finds nothing in 150 hostile requests", async () => {
    const run = await fuzz("sandbox", { runs: 150, seed: 20, contract });
    expect(report(run)).toEqual([
      expect.stringMatching(/^fuzz sandbox: 150 requests in .* seed 20: no problem found$/),
    ]);
  });

  it("replays a request as a curl line and as its exact bytes, CRLFs and invalid UTF-8 included", async () => {
    const [request] = fc.sample(hostileRequests(contract), { numRuns: 1, seed: 7 });
    const lines = replayLines(
      { ...request!, method: "GET", target: "//x:99999", headers: [["X-Note", "a\r\nb"]], body: Buffer.from([0xff]) },
      "http://127.0.0.1:4020",
    );
    expect(lines.curl).toBe(
      "curl -sS -i -X $'GET' --request-target $'//x:99999' http://127.0.0.1:4020 -H $'X-Note: a\\x0d\\x0ab' --data-binary $'\\xff'",
    );
    expect(lines.exact).toMatch(
      /^printf '%s' \$'GET \/\/x:99999 HTTP\/1\.1\\x0d\\x0aHost: 127\.0\.0\.1\\x0d\\x0aX-Note: a\\x0d\\x0ab\\x0d\\x0a.*' \| nc 127\.0\.0\.1 4020$/,
    );
  });

  it("the answer requirements refuse what a broken server would send: a stack trace, an echoed key, an undocumented status, a missing X-RateLimit header", () => {
    const required = new AnswerRequirements(contract, "sandbox", [FUZZ_KEY]);
    const request = {
      method: "GET",
      target: "/v1/account/credits",
      headers: [],
      body: Buffer.alloc(0),
      truncated: false,
    };
    const answer = (status: number, body: string, headers: Record<string, string> = {}) => ({
      status,
      headers: new Map(Object.entries({ "content-type": "application/json", ...headers })),
      body: Buffer.from(body),
    });
    const error = (message: string) => JSON.stringify({ error: { type: "t", code: "c", message } });
    expect(required.problems(request, answer(401, error(`bad key ${FUZZ_KEY}`)))).toContain(
      "the body echoes an API key",
    );
    expect(required.problems(request, answer(500, error("TypeError: x\n    at f (/a/b.ts:1:2)")))).toContain(
      "the body shows a stack trace",
    );
    expect(required.problems(request, answer(418, error("teapot"))).join()).toContain("status 418 is not documented");
    expect(required.problems(request, answer(401, error("no key"))).join()).toContain("lacks X-RateLimit-Limit");
    expect(required.problems(request, null)).toEqual(["no answer to a complete request"]);
  });
});
