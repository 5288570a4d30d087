/** A create that gets no answer gives back the concurrency slot it held (conformance/jobs.ts createJob). */
import { describe, expect, it } from "vitest";
import type { Client } from "../../conformance/client.ts";
import { Contract } from "../../contract/contract.ts";
import { Slots } from "../../conformance/coordination.ts";
import { createJob } from "../../conformance/jobs.ts";

const contract = new Contract();
const op = contract.operations.find((candidate) => candidate.create)!;

describe("createJob", () => {
  it("releases its slot when the create gets no answer, so the cap does not fill with jobs that never started", async () => {
    const slots = new Slots(1);
    const client = { slots, send: () => Promise.reject(new Error("ECONNRESET")) } as unknown as Client;
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(createJob(client, op, { method: "post", path: op.path, headers: {} }, "accept")).rejects.toThrow(
        "ECONNRESET",
      );
      expect(slots.inFlight).toBe(0);
    }
  });
});
