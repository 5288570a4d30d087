/**
 * The start-up probe (conformance/probe.ts): one request before any estimate or work stops a run,
 * in one line, whose target is not there, refuses the main key, gives no answer in time, or is not
 * the service; otherwise every check would fail with the same cause.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Contract } from "../../contract/contract.ts";
import { TargetError, targetUrl } from "../../conformance/http.ts";
import { freePort } from "../../http-server/listen.ts";
import { probeTarget, type Probe } from "../../conformance/probe.ts";
import { TARGET_DEFAULTS } from "../../conformance/config.ts";
import { runConformance } from "../../conformance/run.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { model } from "../support/description.ts";

const KEY = "main-key-test-key";
const contract = new Contract();
let sandbox: RunningSandbox;
const probe = (name: string, url: string, timeoutMs = 5_000): Probe => ({
  name,
  shownUrl: url,
  limits: { maxBytes: 1024, timeoutMs },
  shown: (text) => text,
});

beforeAll(async () => {
  sandbox = await startSandbox({
    config: { accounts: { main: { keys: [KEY], plan: "paid", credits: { monthlyLimit: 1_000, extra: 0 } } } },
    port: 0,
    model,
  });
});
afterAll(() => sandbox?.close());

async function serving(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler).listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
const stop = (server: Server): void => {
  server.closeAllConnections();
  server.close();
};

describe("the target's address", () => {
  it("names the variable or flag a bad target came from, and knows an http(s) URL", () => {
    const plain = (text: string): string => text;
    expect(() => targetUrl("--target", "//x:99999", plain)).toThrow(/^--target: "\/\/x:99999" is not a URL/);
    expect(() => targetUrl("--target", "ftp://127.0.0.1", plain)).toThrow(
      /^--target: "ftp:\/\/127.0.0.1" is not an http\(s\) URL with a host$/,
    );
    expect(() => targetUrl("--target", "http://127.0.0.1:99999", plain)).toThrow(
      /^--target: "http:\/\/127.0.0.1:99999" is not a URL/,
    );
    expect(targetUrl("CONFORMANCE_TARGET", "http://127.0.0.1:4020/", plain)).toBe("http://127.0.0.1:4020");
  });
});

describe("the start-up probe", () => {
  it("passes a key the target knows", async () => {
    await expect(
      probeTarget(contract, sandbox.url, KEY, "CONFORMANCE_API_KEY", probe("--target", sandbox.url)),
    ).resolves.toBeUndefined();
  });

  it("names the variable or flag of a target where no server answers", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    await expect(
      probeTarget(contract, url, KEY, "CONFORMANCE_API_KEY", probe("CONFORMANCE_TARGET", url)),
    ).rejects.toThrow(
      new TargetError(`CONFORMANCE_TARGET: no server answers at ${url} (connection refused: is it running?)`),
    );
  });

  it("stops a run whose main key the target refuses, naming where the key comes from and how to give one, before any progress line", async () => {
    const lines: string[] = [];
    const run = runConformance({ target: sandbox.url, contract, progress: (line) => lines.push(line) });
    await expect(run).rejects.toThrow(TargetError);
    await expect(run).rejects.toThrow(
      /^the target answers 401 to the main key on GET \/v1\/account\/credits \(no key was given\): set CONFORMANCE_API_KEY, or apiKey in the declaration \(--config\)/,
    );
    expect(lines).toEqual([]);
    await expect(
      probeTarget(contract, sandbox.url, "unknown", "the declaration's apiKey", probe("--target", sandbox.url)),
    ).rejects.toThrow("(the key comes from the declaration's apiKey)");
  });

  it("names the route and the wait when the target does not answer, in one line without ABORT_ERR", async () => {
    const { url, server } = await serving(() => undefined);
    try {
      await expect(probeTarget(contract, url, KEY, "CONFORMANCE_API_KEY", probe("--target", url, 200))).rejects.toThrow(
        new TargetError(
          `--target: ${url} gave no usable answer to GET /v1/account/credits, sent to check the target and the main key: no complete answer within 0.2 s (requestTimeoutSeconds, --request-timeout)`,
        ),
      );
    } finally {
      stop(server);
    }
  });
});

/**
 * A relay to the sandbox that answers the credits route with the main key otherwise than the
 * service does (`change`), and counts the requests it relays.
 */
interface Relayed {
  status: number;
  type: string;
  body: string;
}
async function relaying(
  change: (answer: Relayed) => Relayed,
): Promise<{ url: string; server: Server; seen: () => number }> {
  let seen = 0;
  const relay = await serving(async (request, response) => {
    seen += 1;
    const upstream = await fetch(`${sandbox.url}${request.url}`, {
      headers: request.headers.authorization ? { authorization: request.headers.authorization } : {},
    });
    const original: Relayed = {
      status: upstream.status,
      type: upstream.headers.get("content-type") ?? "",
      body: await upstream.text(),
    };
    const changed = request.url === CREDITS && request.headers.authorization ? change(original) : original;
    response.writeHead(changed.status, { "content-type": changed.type }).end(changed.body);
  });
  return { ...relay, seen: () => seen };
}
const CREDITS = contract.byOperationId(contract.model.account.creditsOperationId)!.path;

describe("a target that answers as the service does, with a wrong Content-Type, status or header", () => {
  it.each([
    ["the credits as text/plain", (answer: Relayed): Relayed => ({ ...answer, type: "text/plain" }), 1],
    [
      "the credits under 202, in no JSON type",
      (answer: Relayed): Relayed => ({ ...answer, status: 202, type: "application/octet-stream" }),
      1,
    ],
    [
      "a 500 page, while the service answers without a key",
      (): Relayed => ({ status: 500, type: "text/html", body: "<h1>oops</h1>" }),
      2,
    ],
  ])("is the service, so the run goes on: %s", async (_, change, requests) => {
    const { url, server, seen } = await relaying(change);
    try {
      await expect(
        probeTarget(contract, url, KEY, "CONFORMANCE_API_KEY", probe("--target", url)),
      ).resolves.toBeUndefined();
      // Only where the credits answer is no documented body is anything more sent, without a key.
      expect(seen()).toBe(requests);
    } finally {
      stop(server);
    }
  });

  it("is not the service where nothing answers as the service does, saying what each request saw", async () => {
    const { url, server } = await serving(
      (_, response) => void response.writeHead(404, { "content-type": "text/plain" }).end("Not Found"),
    );
    try {
      await expect(probeTarget(contract, url, KEY, "CONFORMANCE_API_KEY", probe("--target", url))).rejects.toThrow(
        new TargetError(
          `--target: ${url} is not the service: GET ${CREDITS} answered 404 with text/plain (9 bytes: "Not Found"), not a body the description documents for it; nor did anything else answer as the service does (without a key: GET ${CREDITS} answered 404 with text/plain (9 bytes: "Not Found"); GET /v1/models answered 404 with text/plain (9 bytes: "Not Found"))`,
        ),
      );
    } finally {
      stop(server);
    }
  });

  it("fails the wrong Content-Type in the run's checks (exit status 1), where it stopped the run as not the service (exit 2)", {
    timeout: 60_000,
  }, async () => {
    const { url, server } = await relaying((answer) => ({ ...answer, type: "text/plain" }));
    try {
      const { summary, results } = await runConformance({
        target: url,
        config: { ...TARGET_DEFAULTS, apiKey: KEY, areas: ["account"], timeoutSeconds: 50 },
        contract,
      });
      expect(summary.fail).toBeGreaterThan(0);
      expect(
        results.some(
          (result) =>
            result.outcome === "fail" &&
            result.route === `GET ${CREDITS}` &&
            result.detail?.includes('Content-Type of 200 is "text/plain", not application/json'),
        ),
      ).toBe(true);
    } finally {
      stop(server);
    }
  });
});
