/**
 * A negative create carries the failed-outcome marker only where the marked body still breaks its
 * rule (conformance/requests.ts, markedInvalid): a marker must never make a negative valid, nor turn
 * a body that is no object into one.
 */
import { describe, expect, it } from "vitest";
import { TARGET_DEFAULTS } from "../../conformance/config.ts";
import { Contract } from "../../contract/contract.ts";
import type { RequestSpec } from "../../conformance/http.ts";
import { markedInvalid } from "../../conformance/requests.ts";
import type { Session } from "../../conformance/session.ts";

const contract = new Contract();
const session = {
  contract,
  config: { ...TARGET_DEFAULTS, outcomeMarkers: { failed: "[fail-me]" } },
} as unknown as Session;
const op = contract.operations.find((candidate) => candidate.create?.label === "I-A")!;
const spec = (body: unknown): RequestSpec => ({ method: "post", path: op.path, headers: {}, body });

describe("the failed-outcome marker of a negative create", () => {
  it("goes into the prompt of an object body that stays invalid with it", () => {
    const sent = markedInvalid(session, op, spec({ prompt: "a cat", num_images: 0 }));
    expect(sent.body).toEqual({ prompt: "a cat [fail-me]", num_images: 0 });
  });

  it("is left out where it would make the body valid, change a prompt of the wrong type, or make an object of a body that is none", () => {
    for (const body of [{ num_images: 1 }, { prompt: 7 }, "a cat", ["a cat"], null])
      expect(markedInvalid(session, op, spec(body)).body, JSON.stringify(body)).toEqual(body);
  });

  it("is left out where none is declared", () => {
    const plain = { ...session, config: TARGET_DEFAULTS } as unknown as Session;
    expect(markedInvalid(plain, op, spec({ prompt: "a cat", num_images: 0 })).body).toEqual({
      prompt: "a cat",
      num_images: 0,
    });
  });
});
