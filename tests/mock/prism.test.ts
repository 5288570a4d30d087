/**
 * Starting the mock and the validation proxy (mock/prism.ts), the part that runs before any Prism
 * process: a port in use, the front's or Prism's, is a PortInUseError naming that port, found
 * before Prism spends its start-up (the front takes its port first, then Prism's port is tried),
 * and a front already started is closed again. Prism itself runs in the e2e tests.
 */
import { describe, expect, it } from "vitest";
import { Contract } from "../../contract/contract.ts";
import { freePort, listenOnLoopback, PortInUseError } from "../../http-server/listen.ts";
import { type RunningPrism, startMock, startProxy } from "../../mock/prism.ts";

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
