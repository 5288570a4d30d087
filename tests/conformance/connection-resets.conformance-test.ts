/**
 * A target that resets connections mid-run: the run still ends with its reports, each check that
 * got no answer failing with the route it sent to, never a crash with a stack. The creates are
 * reset once two jobs have started, so that the concurrency check's jobs added to fill the cap
 * (started now, awaited later) fail while it waits.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Contract } from "../../contract/contract.ts";
import { API_KEY, CREATE_PATH, startFakeService } from "./support/fake-service.ts";

const work = mkdtempSync(join(tmpdir(), "conformance-resets-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** In front of `upstream`: passes requests on, except that every create after the first `passed` has its connection reset. */
async function resetting(
  upstream: string,
  passed: number,
): Promise<{ url: string; resets: () => number; close(): Promise<void> }> {
  let creates = 0;
  let resets = 0;
  const server = createServer((incoming, outgoing) => {
    if (incoming.method === "POST" && incoming.url === CREATE_PATH && ++creates > passed) {
      resets++;
      incoming.socket.resetAndDestroy();
      return;
    }
    const forward = httpRequest(
      upstream + (incoming.url ?? "/"),
      { method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forward);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    resets: () => resets,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("npm run conformance against a target that resets connections mid-run", () => {
  it("writes its reports and fails the checks that got no answer, naming the route, without a stack", {
    timeout: 90_000,
  }, async () => {
    const service = await startFakeService(new Contract());
    const target = await resetting(service.baseUrl, 2);
    const config = join(work, "declaration.json");
    writeFileSync(
      config,
      JSON.stringify({
        areas: ["images"],
        models: ["I-A"],
        concurrency: 3,
        poll: { intervalMs: 0, timeoutSeconds: 10, stablePolls: 1 },
        timeoutSeconds: 60,
      }),
    );
    try {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "conformance/cli.ts", "--target", target.url, "--config", config, "--report-dir", work],
        {
          env: { ...process.env, CONFORMANCE_API_KEY: API_KEY },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let output = "";
      for (const stream of [child.stdout, child.stderr])
        stream.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const [code] = (await once(child, "exit")) as [number | null];
      expect(target.resets()).toBeGreaterThan(0);
      expect(code, output).toBe(1);
      expect(output).not.toMatch(/^\s+at /m);
      const report = JSON.parse(readFileSync(join(work, "conformance.json"), "utf8")) as {
        results: Array<{ group: string; route: string; name: string; outcome: string; detail?: string }>;
      };
      const unanswered = report.results.filter(
        (result) => result.outcome === "fail" && result.name === "the target answers every request",
      );
      expect(unanswered.length, output).toBeGreaterThan(0);
      for (const failure of unanswered) {
        expect(failure.route).toMatch(/^POST \/v1\/images\//);
        expect(failure.detail).toMatch(/got no HTTP answer: ECONNRESET/);
      }
      expect(
        report.results.some(
          (result) =>
            result.group === "concurrency" &&
            result.outcome === "fail" &&
            result.name === "the target answers every request",
        ),
        output,
      ).toBe(true);
      expect(readFileSync(join(work, "conformance.junit.xml"), "utf8")).toContain("the target answers every request");
    } finally {
      await target.close();
      await service.stop();
    }
  });
});
