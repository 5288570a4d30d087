/**
 * The error-examples check (conformance/checks/error-examples.ts) run alone against a scripted
 * target on 127.0.0.1 that honours Prism's `Prefer: code=<status>, example=<name>` header as the
 * mock does: it answers each selection with the description's named example, X-RateLimit-* headers
 * on every answer and Retry-After on the 429s (the seconds the example names, where it names them).
 * Its run covers I-A's create, whose documented errors are written out here from the description:
 * 400 invalid-request and five moderation refusals, 401, 403, 410 model-retired, and the four 429s
 * of the specification's Errors table (rate-limited, queue-full, spend-limit-reached, cooldown,
 * the cooldown's example naming `retry_after_seconds: 17`). A planted fault per example shows each
 * condition of the check failing, its detail naming what was served.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorExamples } from "../../conformance/checks/error-examples.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { templateOf } from "../../conformance/rules.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";
import { checkSession } from "./support/check-session.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const I_A = contract.operations.find((op) => op.create?.label === "I-A") as ContractOperation;
/** I-A's create alone: the run sends only its selections. */
const NARROW: Partial<TargetConfig> = { areas: [I_A.area], models: ["I-A"], selectableExamples: true };

/** I-A's documented error examples, by status, as the description names them. */
const EXAMPLES: Record<string, string[]> = {
  "400": [
    "invalid-request",
    "moderation-input-csam",
    "moderation-input-explicit-adult",
    "moderation-input-upload-nudity",
    "moderation-input-celebrity-likeness",
    "moderation-strict-model-nsfw",
  ],
  "401": ["unauthorized"],
  "403": ["forbidden"],
  "410": ["model-retired"],
  "429": ["rate-limited", "queue-full", "spend-limit-reached", "cooldown"],
};
const nameOf = (status: string, example: string) => `${status} example "${example}" selectable`;
const ALL_PREFERS = Object.entries(EXAMPLES).flatMap(([status, names]) =>
  names.map((name) => `code=${status}, example=${name}`),
);
const ALL_NAMES = Object.entries(EXAMPLES).flatMap(([status, names]) => names.map((name) => nameOf(status, name)));

interface Served {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** What the scripted target serves for one selection, before a fault changes it. */
function honest(op: ContractOperation, status: string, example: string): Served {
  const response = op.responses[status];
  const value = response
    ? contract.responseExamples(response).find((named) => named.name === example)?.value
    : undefined;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-ratelimit-limit": "600",
    "x-ratelimit-remaining": "599",
    "x-ratelimit-reset": "42",
  };
  // The cooldown's example names its seconds in the body (17); the other 429s wait a minute.
  const seconds = (value as { retry_after_seconds?: number } | undefined)?.retry_after_seconds;
  if (status === "429") headers["retry-after"] = String(seconds ?? 60);
  return { status: Number(status), body: value ?? { error: { message: "no such example" } }, headers };
}

type Fault = (served: Served, status: string, example: string, op: ContractOperation) => Served;

interface Target {
  readonly url: string;
  /** The Prefer headers received, in order (the request of each selection). */
  readonly prefers: string[];
  close(): Promise<void>;
}

/** A target answering every request by its Prefer header, with the example it selects (then `fault`). */
async function startTarget(fault: Fault = (served) => served): Promise<Target> {
  const prefers: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on("end", () => {
      const prefer = String(request.headers.prefer ?? "");
      prefers.push(prefer);
      const [, status = "", example = ""] = /^code=(\d+), example=(.+)$/.exec(prefer) ?? [];
      const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
      const op = contract.operations.find(
        (candidate) =>
          candidate.method === request.method?.toLowerCase() &&
          new RegExp(`^${candidate.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path),
      );
      const served = op ? fault(honest(op, status, example), status, example, op) : honest(I_A, "404", "");
      response.writeHead(served.status, served.headers).end(JSON.stringify(served.body));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    prefers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The error-examples check run alone on `target`; positive requests go to `sendUrl` (the validation proxy's place). */
async function examplesRun(sendUrl: string, targetUrl = sendUrl): Promise<CheckResult[]> {
  const session: Session = checkSession({
    contract,
    config: { ...declared, ...NARROW },
    target: sendUrl,
    targetUrl,
    apiKey: declared.apiKey as string,
  });
  await errorExamples.run?.({ session, stage: async () => {}, status: () => {} });
  return session.results.all;
}

const byName = (results: CheckResult[]) => Object.fromEntries(results.map((result) => [result.name, result]));

describe("the error-examples check on a target that serves every selected example as it is", () => {
  let target: Target;
  let results: CheckResult[];
  beforeAll(async () => {
    target = await startTarget();
    results = await examplesRun(target.url);
  });
  afterAll(() => target.close());

  it("selects every named example of every documented error response, and no success's example", () => {
    const onCreate = results.filter((result) => result.route === I_A.route);
    expect(onCreate.map((result) => result.name).sort()).toEqual([...ALL_NAMES].sort());
    // One request per selection, none of them for a 2xx example ("accepted" is the create's 200).
    expect(target.prefers).toHaveLength(results.length);
    expect(target.prefers.filter((prefer) => prefer.startsWith("code=2"))).toEqual([]);
    expect(target.prefers).toEqual(expect.arrayContaining(ALL_PREFERS));
  });

  it("passes each: the status and body are the example's, and the cooldown's Retry-After is the 17 seconds its body names", () => {
    expect(results.filter((result) => result.outcome !== "pass")).toEqual([]);
  });

  it("names each result by a template of its rules (an example of the description, no rule of the specification)", () => {
    expect(new Set(results.map((result) => templateOf(errorExamples, result.name)))).toEqual(
      new Set(['{status} example "{name}" selectable']),
    );
    expect(errorExamples.rules).toEqual({ '{status} example "{name}" selectable': [] });
  });
});

describe("the error-examples check fails an example the target does not serve as it is", () => {
  let results: Record<string, CheckResult>;
  let polls: Record<string, CheckResult>;
  beforeAll(async () => {
    const padding = "x".repeat(400);
    const target = await startTarget((served, _status, example, op) => {
      // The poll route's cooldown without Retry-After: nothing to disagree with the body's seconds.
      if (op !== I_A && example === "cooldown") {
        const { "retry-after": _dropped, ...headers } = served.headers;
        return { ...served, headers };
      }
      if (example === "forbidden") return { ...served, status: 400 };
      if (example === "queue-full") return { ...served, body: { ...(served.body as object), padding } };
      // The cooldown's body says 17 seconds; the header another figure.
      if (example === "cooldown") return { ...served, headers: { ...served.headers, "retry-after": "30" } };
      return served;
    });
    try {
      const all = await examplesRun(target.url);
      results = byName(all.filter((result) => result.route === I_A.route));
      polls = byName(all.filter((result) => result.route !== I_A.route));
    } finally {
      await target.close();
    }
  });

  it("fails a selection answered with another status: answered 400, not 403", () => {
    expect(results[nameOf("403", "forbidden")]).toMatchObject({ outcome: "fail" });
    expect(results[nameOf("403", "forbidden")]?.detail).toContain("answered 400, not 403");
  });

  it("fails a body that is not the example, quoting at most 200 characters of what was served", () => {
    const detail = results[nameOf("429", "queue-full")]?.detail ?? "";
    expect(results[nameOf("429", "queue-full")]?.outcome).toBe("fail");
    expect(detail).toContain('body is not the example "queue-full": {"error":{');
    expect(detail).toContain("xxx");
    expect(detail).not.toContain("x".repeat(200));
    expect(detail).not.toContain("answered");
  });

  it("fails a 429 whose Retry-After is not the seconds its example names in the body", () => {
    expect(results[nameOf("429", "cooldown")]).toMatchObject({
      outcome: "fail",
      detail: "Retry-After is 30 beside retry_after_seconds: 17 in the example",
    });
  });

  it("compares Retry-After with the example's seconds only where the answer sends one", () => {
    expect(polls[nameOf("429", "cooldown")]).toBeDefined();
    expect(polls[nameOf("429", "cooldown")]?.detail ?? "").not.toContain("beside");
  });

  it("passes the examples served as they are, the other 429s with a Retry-After their bodies do not name", () => {
    expect(results[nameOf("429", "rate-limited")]?.outcome).toBe("pass");
    expect(results[nameOf("410", "model-retired")]?.outcome).toBe("pass");
    expect(results[nameOf("400", "invalid-request")]?.outcome).toBe("pass");
  });
});

describe("what the error-examples check sends and needs", () => {
  it("sends each selection as a request the description holds valid: through the validation proxy where one runs", async () => {
    const proxy = await startTarget();
    const direct = await startTarget((served) => ({ ...served, status: 500 }));
    try {
      const results = await examplesRun(proxy.url, direct.url);
      expect(results.filter((result) => result.outcome !== "pass")).toEqual([]);
      expect(direct.prefers).toEqual([]);
    } finally {
      await proxy.close();
      await direct.close();
    }
  });

  it("is blocked unless the declaration says the target honours Prism's Prefer header (selectableExamples)", () => {
    const sessionOf = (config: Partial<TargetConfig>) =>
      checkSession({ contract, config: { ...declared, ...config }, apiKey: declared.apiKey as string });
    expect(errorExamples.blockedBy?.(sessionOf({ selectableExamples: false }))).toBe(
      "not declared: the target honours Prism's Prefer header, as only the mock does (selectableExamples)",
    );
    expect(errorExamples.blockedBy?.(sessionOf({ selectableExamples: true }))).toBeNull();
  });

  it("is summed up in conformance/README.md's table of check groups as in --help", async () => {
    const { readFileSync } = await import("node:fs");
    expect(readFileSync("conformance/README.md", "utf8")).toContain(
      `| \`error-examples\` | ${errorExamples.summary} |`,
    );
  });
});
