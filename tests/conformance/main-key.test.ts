/**
 * The run refuses, in one line and before any estimate, a main key the target answers 401 to
 * (conformance/main-key.ts): otherwise every check would fail with the same 401.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Contract } from "../../conformance/contract.ts";
import { TargetError } from "../../conformance/http.ts";
import { checkMainKey } from "../../conformance/main-key.ts";
import { runConformance } from "../../conformance/run.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { model } from "../support/description.ts";

const KEY = "main-key-test-key";
const contract = new Contract();
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ config: { accounts: { main: { keys: [KEY], plan: "paid", credits: { monthlyLimit: 1_000, extra: 0 } } } }, port: 0, model });
});
afterAll(() => sandbox?.close());

describe("the main key check", () => {
  it("passes a key the target knows", async () => {
    await expect(checkMainKey(contract, sandbox.url, KEY, "CONFORMANCE_API_KEY")).resolves.toBeUndefined();
  });

  it("stops a run whose main key the target refuses, naming where the key comes from and how to give one, before any progress line", async () => {
    const lines: string[] = [];
    const run = runConformance({ target: sandbox.url, contract, progress: (line) => lines.push(line) });
    await expect(run).rejects.toThrow(TargetError);
    await expect(run).rejects.toThrow(/^the target answers 401 to the main key on GET \/v1\/account\/credits \(no key was given\): set CONFORMANCE_API_KEY, or apiKey in the declaration \(--config\)/);
    expect(lines).toEqual([]);
    await expect(checkMainKey(contract, sandbox.url, "unknown", "the declaration's apiKey")).rejects.toThrow("(the key comes from the declaration's apiKey)");
  });

  it("names the route and the wait when the target does not answer the check, in one line", async () => {
    const silent = createServer(() => undefined).listen(0, "127.0.0.1");
    await once(silent, "listening");
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      await expect(checkMainKey(contract, url, KEY, "CONFORMANCE_API_KEY", 200)).rejects.toThrow(new TargetError("the target did not answer GET /v1/account/credits, sent to check the main key (no answer within 0.2 s)"));
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
