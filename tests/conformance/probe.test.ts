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
