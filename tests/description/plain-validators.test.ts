/**
 * The description is as strict as the specification for tools that read only standard keywords: a
 * plain Ajv 2020-12 validator of the bundle (what express-openapi-validator or openapi-backend
 * would run) refuses every request body the conformance suite sends as one a target must refuse,
 * the near misses a media input inlined where its field takes URLs only among them, and accepts
 * every documented request example. The Prism mock itself: plain-validators.e2e.ts.
 */
import { describe, expect, it } from "vitest";
import { Contract } from "../../contract/contract.ts";
import type { JsonSchema } from "../../model/document.ts";
import { describeErrors } from "../../model/schema-registry.ts";
import { doc } from "../support/description.ts";
import { negativesOf, plainValidation, responseExamples } from "../support/plain-validation.ts";

const contract = new Contract(doc);
const plain = plainValidation(doc);
const validator = plain.request;
const withBodies = contract.operations.filter((op) => op.requestSchema);

describe("a plain JSON Schema validator of the bundle", () => {
  it("refuses every near miss the suite generates (its static negatives too: plain-validators.e2e.ts)", () => {
    const kinds = new Set<string>();
    const accepted = withBodies.flatMap((op) =>
      negativesOf(contract, op).flatMap((negative) => {
        kinds.add(negative.kind);
        return validator(op)(negative.body) ? [`${op.route} ${negative.kind}: ${negative.rule}`] : [];
      }),
    );
    expect(accepted).toEqual([]);
    // The near misses of every kind are among them, the inlined media of URL-only fields too.
    expect([...kinds].filter((kind) => kind.startsWith("near miss")).sort()).toEqual(
      [
        "case-variant",
        "exclusive-pair",
        "off-by-one",
        "one-too-many",
        "other-form",
        "other-mode-value",
        "required-null",
        "sibling-value",
        "wrong-type",
      ].map((kind) => `near miss ${kind}`),
    );
  });

  it.each([
    ["data URI", "data:video/mp4;base64,AAAAGGZ0eXBtcDQy"],
    ["data URI in capitals", "DATA:video/mp4;base64,AAAAGGZ0eXBtcDQy"],
    ["raw base64", "AAAAGGZ0eXBtcDQy"],
  ])("refuses a %s in each field that takes URLs only, and takes a public URL there", (_, inline) => {
    const urlOnly = withBodies.flatMap((op) =>
      Object.entries((op.requestSchema?.properties ?? {}) as Record<string, JsonSchema>)
        .filter(([, property]) => {
          const forms = (property["x-media"] as { forms?: string[] } | undefined)?.forms;
          return forms !== undefined && !forms.includes("data-uri") && !forms.includes("raw-base64");
        })
        .map(([field, property]) => ({ op, field, list: property.type === "array" })),
    );
    // V-A's video, audio, reference_audios and reference_videos; V-B's two lists; V-C's audio and
    // video; V-D's video; motion control's video; the depth map's video.
    expect(urlOnly.map(({ op, field }) => `${op.facts.operationId} ${field}`).sort()).toEqual([
      "createDepthMapDMA video",
      "createMotionControlMCA video",
      "createVideoVA audio",
      "createVideoVA reference_audios",
      "createVideoVA reference_videos",
      "createVideoVA video",
      "createVideoVB reference_audios",
      "createVideoVB reference_videos",
      "createVideoVC audio",
      "createVideoVC video",
      "createVideoVD video",
    ]);
    for (const { op, field, list } of urlOnly) {
      const example = op.requestExamples.find((candidate) => (candidate.value as Record<string, unknown>)[field]);
      const base = (example?.value ?? { prompt: "a river" }) as Record<string, unknown>;
      const url = "https://files.example.com/input.mp4";
      const validate = validator(op);
      expect(validate({ ...base, [field]: list ? [inline] : inline }), `${op.route} ${field}`).toBe(false);
      expect(describeErrors(validate.errors)).toContain("pattern");
      expect(validate({ ...base, [field]: list ? [url] : url }), `${op.route} ${field} as a URL`).toBe(true);
    }
  });

  it("accepts every documented request example, and every documented response example validates", () => {
    const problems: string[] = [];
    for (const op of withBodies) {
      for (const example of op.requestExamples) {
        if (!validator(op)(example.value))
          problems.push(`${op.route} ${example.name}: ${describeErrors(validator(op).errors)}`);
      }
    }
    const responses = responseExamples(doc);
    expect(responses.length).toBeGreaterThan(40);
    for (const { where, schema, examples } of responses) {
      for (const { name, value } of examples)
        if (!plain.at(schema)(value)) problems.push(`${where} ${name}: ${describeErrors(plain.at(schema).errors)}`);
    }
    expect(problems).toEqual([]);
  });
});
