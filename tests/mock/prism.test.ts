/**
 * Starting the mock and the validation proxy (mock/prism.ts), the part that runs before any Prism
 * process: a port in use, the front's or Prism's, is a PortInUseError naming that port, found
 * before Prism spends its start-up (the front takes its port first, then Prism's port is tried),
 * and a front already started is closed again; and the command line a Prism child is started with,
 * its Host guard run on a plain server. The child's life: prism-process.test.ts; Prism itself runs in
 * the e2e tests.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Contract } from "../../contract/contract.ts";
import { freePort, listenOnLoopback, PortInUseError } from "../../http-server/listen.ts";
import {
  hostGuard,
  PrismUnavailableError,
  prismArguments,
  requirePrism,
  type RunningPrism,
  startMock,
  startProxy,
} from "../../mock/prism.ts";

const contract = new Contract();

/** The error a start is refused with; one that starts after all is stopped first, then fails the test. */
async function refusal(start: Promise<RunningPrism>): Promise<unknown> {
  return start.then(
    async (running) => {
      await running.stop();
      return expect.unreachable("it started");
    },
    (reason: unknown) => reason,
  );
}

/** Holds a port of 127.0.0.1 for the length of `use`. */
async function holding<T>(use: (port: number) => Promise<T>): Promise<T> {
  const taken = await listenOnLoopback({
    port: 0,
    policy: { allowedOrigins: [], cors: false },
    handle: () => {},
    refuse: () => {},
  });
  try {
    return await use(taken.port);
  } finally {
    await taken.close();
  }
}

describe("startMock and startProxy before Prism starts", () => {
  it("report the front's port in use as a PortInUseError naming it", async () => {
    await holding(async (port) => {
      const error = await refusal(startMock({ snapshot: contract.doc, port }));
      expect(error).toBeInstanceOf(PortInUseError);
      expect(error).toMatchObject({ code: "EADDRINUSE", port });
    });
  });

  it("report Prism's port in use as a PortInUseError naming it, and close the front they started", async () => {
    const frontPort = await freePort();
    await holding(async (prismPort) => {
      const error = await refusal(startMock({ snapshot: contract.doc, port: frontPort, prismPort }));
      expect(error).toBeInstanceOf(PortInUseError);
      expect(error).toMatchObject({ code: "EADDRINUSE", port: prismPort });
    });
    // The front's port is free again.
    expect(await freePort(frontPort)).toBe(frontPort);
  });

  it("report the proxy's port in use as a PortInUseError naming it", async () => {
    await holding(async (port) => {
      const error = await refusal(startProxy({ port, upstream: "http://127.0.0.1:1" }));
      expect(error).toBeInstanceOf(PortInUseError);
      expect(error).toMatchObject({ code: "EADDRINUSE", port });
    });
  });

  it("serve the snapshot they are given, not the bundle: a snapshot that is no description of the service is refused first", async () => {
    // HEAD operations are outside the service model: the snapshot's own error, before any port is tried.
    const doc = structuredClone(contract.doc) as unknown as { paths: Record<string, Record<string, unknown>> };
    const credits = doc.paths["/v1/account/credits"]!;
    credits.head = { ...(credits.get as object), operationId: "headCredits" };
    await holding(async (prismPort) => {
      const error = await refusal(startMock({ snapshot: doc, prismPort }));
      expect(error).not.toBeInstanceOf(PortInUseError);
      expect((error as Error).message).toContain("only GET and POST operations are modelled");
    });
  });
});

describe("the Prism child's command line", () => {
  const mockFile = (name: string) => fileURLToPath(new URL(`../../mock/${name}`, import.meta.url));
  const PRISM_CLI = fileURLToPath(new URL("../../node_modules/@stoplight/prism-cli/dist/index.js", import.meta.url));
  const preloads = [
    "--require",
    mockFile("prism-exits-with-parent.cjs"),
    "--require",
    mockFile("prism-host-guard.cjs"),
  ];
  const served = ["--host", "127.0.0.1", "--port", "4010", "--no-multiprocess", "--no-cors"];

  it("preloads the guards, then runs the pinned CLI on the document, the proxy's upstream after it, on 127.0.0.1 in one process", () => {
    expect(prismArguments("mock", "doc.yaml", 4010)).toEqual([...preloads, PRISM_CLI, "mock", "doc.yaml", ...served]);
    expect(prismArguments("proxy", "doc.yaml", 4010, "http://127.0.0.1:9")).toEqual([
      ...preloads,
      PRISM_CLI,
      "proxy",
      "doc.yaml",
      "http://127.0.0.1:9",
      ...served,
    ]);
    for (const file of [preloads[1]!, preloads[3]!, PRISM_CLI]) expect(existsSync(file), file).toBe(true);
  });

  it("has its port answer only a Host naming it, 403 host_not_allowed in the error body else (prism-host-guard.cjs)", async () => {
    const port = await freePort();
    const server = spawn(
      process.execPath,
      [
        "--require",
        fileURLToPath(new URL("../../mock/prism-host-guard.cjs", import.meta.url)),
        "-e",
        `require("node:http").createServer((q, r) => r.end("served")).listen(${port}, "127.0.0.1", () => console.log("up"))`,
      ],
      { env: { ...process.env, PRISM_HOST_GUARD: hostGuard(port) }, stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      await once(server.stdout, "data");
      const ask = (host: string) =>
        new Promise<[number, string]>((resolve, reject) => {
          const request = httpRequest({ host: "127.0.0.1", port, headers: { host } }, (response) => {
            let body = "";
            response.on("data", (chunk: Buffer) => (body += chunk.toString()));
            response.on("end", () => resolve([response.statusCode ?? 0, body]));
          });
          request.on("error", reject).end();
        });
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "LOCALHOST", "127.0.0.1"])
        expect(await ask(host), host).toEqual([200, "served"]);
      for (const host of ["rebound.example", `rebound.example:${port}`, `127.0.0.1:${port + 1}`]) {
        const [status, body] = await ask(host);
        expect([status, JSON.parse(body)], host).toEqual([
          403,
          {
            error: {
              type: "permission_error",
              code: "host_not_allowed",
              message: `Host: must name this server, 127.0.0.1:${port} or localhost:${port}; a name resolving here is refused, as DNS rebinding would use one`,
            },
          },
        ]);
      }
    } finally {
      server.kill();
    }
  });
});

describe("requirePrism", () => {
  it("lets the repository's mock and proxy start", () => {
    expect(() => requirePrism("mock", false)).not.toThrow();
  });

  it("refuses them in the tools package, which ships no Prism, saying to run against an implementation", () => {
    const lacking =
      "is not part of the tools package (Prism is a development tool of the description's repository): run against an implementation with --target URL";
    expect(() => requirePrism("mock", true)).toThrow(new PrismUnavailableError(`the Prism mock ${lacking}`));
    expect(() => requirePrism("proxy", true)).toThrow(
      new PrismUnavailableError(`the Prism proxy ${lacking}, without --proxy`),
    );
  });
});
