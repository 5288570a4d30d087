import { describe, expect, it } from "vitest";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import {
  drawn,
  effectiveNearMisses,
  negativeArbitrary,
  operationSeed,
  positiveArbitrary,
} from "../../conformance/generation/generated.ts";
import { NEAR_MISS_KINDS, type NearMiss, type NearMissKind } from "../../contract/bodies/near-misses.ts";

const contract = new Contract();
const byLabel = (label: string): ContractOperation => {
  const op = contract.operations.find((candidate) => candidate.create?.label === label);
  if (!op) throw new Error(`no create route labelled ${label}`);
  return op;
};
const validator = (op: ContractOperation) => contract.registry.compile(op.requestSchema ?? {});
/** The body each near miss of `kind` on `field` makes of the operation's first example. */
const sent = (op: ContractOperation, kind: NearMissKind, field: string): unknown[] => {
  const base = op.requestExamples[0]?.value as Record<string, unknown>;
  return effectiveNearMisses(contract, op)
    .filter((miss) => miss.kind === kind && miss.fields.includes(field))
    .map((miss) => miss.apply(base)[field]);
};

describe("near-miss negatives", () => {
  it("send one past each bound: I-B's num_images (exactly 1) as 2 and 0, I-D's reference_images (at least 1) empty", () => {
    expect(sent(byLabel("I-B"), "off-by-one", "num_images").sort()).toEqual([0, 2]);
    expect(sent(byLabel("I-D"), "off-by-one", "reference_images")).toEqual([[]]);
  });

  it("send one item too many: I-A's reference_images with 11 items", () => {
    expect(
      sent(byLabel("I-A"), "one-too-many", "reference_images").map((items) => (items as unknown[]).length),
    ).toEqual([11]);
  });

  it("send values another model of the same area allows: I-A's size as I-H's 1MP, I-B's quality never another area's", () => {
    const sizes = sent(byLabel("I-A"), "sibling-value", "size");
    expect(sizes).toEqual(expect.arrayContaining(["0.5MP", "1MP", "2MP", "4MP"]));
    expect(sizes).not.toContain("1K");
    // I-B's num_images bound 1 is also a sibling's range: I-A allows 4.
    expect(sent(byLabel("I-B"), "sibling-value", "num_images")).toContain(4);
  });

  it("send enum values in another case: I-A's size 1k for 1K, and never a value the enum lists", () => {
    const variants = sent(byLabel("I-A"), "case-variant", "size");
    expect(variants).toEqual(expect.arrayContaining(["1k", "1.5k", "768PX"]));
    expect(variants).not.toContain("1K");
  });

  it("send fields that exclude each other together: V-A's image with reference_images", () => {
    const op = byLabel("V-A");
    const pair = effectiveNearMisses(contract, op).find(
      (miss) => miss.kind === "exclusive-pair" && miss.fields.join() === "image,reference_images",
    );
    expect(pair?.rule).toContain("cannot be combined");
    const body = pair?.apply({ prompt: "p" }) ?? {};
    expect(Object.keys(body).sort()).toEqual(["image", "prompt", "reference_images"]);
    expect(validator(op)(body)).toBe(false);
  });

  it("send a value allowed only in another mode: V-A's resolution 2k without a video to extend", () => {
    const miss = effectiveNearMisses(contract, byLabel("V-A")).find(
      (candidate) => candidate.kind === "other-mode-value" && candidate.fields.includes("resolution"),
    );
    expect(miss?.apply({ prompt: "p", video: "https://files.example.com/v.mp4" })).toEqual({
      prompt: "p",
      resolution: "2k",
    });
  });

  it('send a required field as null and values in the wrong JSON type: I-A\'s prompt null, num_images "2"', () => {
    expect(sent(byLabel("I-A"), "required-null", "prompt")).toEqual([null]);
    const op = byLabel("I-A");
    const wrong = effectiveNearMisses(contract, op).find(
      (miss) => miss.kind === "wrong-type" && miss.fields[0] === "num_images",
    ) as NearMiss;
    expect(wrong.apply({ prompt: "p", num_images: 2 })).toEqual({ prompt: "p", num_images: "2" });
    expect(wrong.apply({ prompt: "p", reference_images: ["u"] }).num_images).toBe("1");
  });

  it("send a video or audio inlined where only URLs are taken: V-A's video and each reference_videos item, never A-A's video (any form)", () => {
    const misses = effectiveNearMisses(contract, byLabel("V-A")).filter((miss) => miss.kind === "other-form");
    const video = misses.filter((miss) => miss.fields[0] === "video");
    expect(video.map((miss) => miss.apply({ prompt: "p", video: "https://files.example.com/v.mp4" }).video)).toEqual([
      "data:video/mp4;base64,AAAAGGZ0eXBtcDQyAAAAAG1wNDJpc29t",
      "AAAAGGZ0eXBtcDQyAAAAAG1wNDJpc29t",
    ]);
    // A body without the field is left as it is: only a body that sends it is a near miss of its form.
    expect(video[0]?.apply({ prompt: "p" })).toEqual({ prompt: "p" });
    const listed = misses.find((miss) => miss.fields[0] === "reference_videos")!;
    expect(
      listed.apply({ prompt: "p", reference_videos: ["https://a/1.mp4", "https://a/2.mp4"] }).reference_videos,
    ).toEqual([
      "data:video/mp4;base64,AAAAGGZ0eXBtcDQyAAAAAG1wNDJpc29t",
      "data:video/mp4;base64,AAAAGGZ0eXBtcDQyAAAAAG1wNDJpc29t",
    ]);
    expect(effectiveNearMisses(contract, byLabel("A-A")).filter((miss) => miss.kind === "other-form")).toEqual([]);
  });

  it("are drawn kind by kind: over enough cases V-A's negatives cover every kind it has, and every one breaks the schema or a field's input forms", () => {
    const op = byLabel("V-A");
    const misses = effectiveNearMisses(contract, op);
    expect(new Set(misses.map((miss) => miss.kind))).toEqual(
      new Set(NEAR_MISS_KINDS.filter((kind) => kind !== "sibling-value" || misses.some((miss) => miss.kind === kind))),
    );
    const cases = drawn(negativeArbitrary(contract, op, misses)!, 7, 200);
    expect(new Set(cases.map((negative) => negative.miss.kind))).toEqual(new Set(misses.map((miss) => miss.kind)));
    expect(cases.filter((negative) => contract.validBody(op, negative.body))).toEqual([]);
  });
});

describe("generated valid bodies", () => {
  it("are valid, reach beyond the named examples, and the same seed draws the same requests", () => {
    const op = byLabel("I-A");
    const arbitrary = positiveArbitrary(contract, op)!;
    const bodies = drawn(arbitrary, operationSeed(42, op), 50);
    const validate = validator(op);
    expect(bodies.filter((body) => !validate(body))).toEqual([]);
    expect(new Set(bodies.map((body) => body.size)).size).toBeGreaterThan(3);
    expect(drawn(arbitrary, operationSeed(42, op), 50)).toEqual(bodies);
    expect(drawn(arbitrary, operationSeed(43, op), 50)).not.toEqual(bodies);
    const misses = effectiveNearMisses(contract, op);
    const rules = (seed: number) =>
      drawn(negativeArbitrary(contract, op, misses)!, operationSeed(seed, op), 20).map((negative) => [
        negative.miss.rule,
        negative.body,
      ]);
    expect(rules(42)).toEqual(rules(42));
  });
});
