/**
 * Valid bodies drawn across a request schema (contract/bodies/arbitraries.ts): the required fields
 * always, the optional ones each drawn or left out; every enum value, every integer of a range,
 * item counts up to the limit; media inputs from the examples' values, else a URL of the field's
 * media kind; prompts and plain strings of a few plain words; every body valid, cross-field rules
 * included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validBodies } from "../../contract/bodies/arbitraries.ts";
import type { Body } from "../../contract/bodies/near-misses.ts";
import type { JsonSchema } from "../../model/document.ts";
import { registry } from "../support/description.ts";

const schema: JsonSchema = {
  type: "object",
  required: ["prompt", "size", "version", "count", "strength", "flag", "scale"],
  additionalProperties: false,
  properties: {
    prompt: { type: "string" },
    style: { type: "string" },
    size: { type: "string", enum: ["1K", "2K", "4K"] },
    version: { const: "v2" },
    count: { type: "integer", minimum: 1, maximum: 4 },
    seed: { type: "integer", minimum: 5000 },
    strength: { type: "number", minimum: 0.5, maximum: 3.5 },
    flag: { type: "boolean" },
    scale: { type: "number" },
    options: { type: "object" },
    image: { type: "string", "x-media": { kind: "image", formats: ["webp", "png"] } },
    video: { type: "string", "x-media": { kind: "video" } },
    audio: { type: "string", "x-media": { kind: "audio" } },
    thumb: { type: "string", "x-media": { kind: "image" } },
    reference_images: { type: "array", minItems: 2, maxItems: 4, items: { type: "string" } },
    reference_videos: { type: "array", maxItems: 3, items: { type: "string" }, "x-media": { kind: "video" } },
    tags: { type: "array", maxItems: 2, items: { type: "string" } },
    mask: { type: "string" },
    // A list with no item limit, and a list of integers.
    labels: { type: "array", items: { type: "string" } },
    seeds: { type: "array", items: { type: "integer" } },
    // A property whose schema is `true` (anything goes): never drawn.
    anything: true,
  },
  // "image cannot be combined with video".
  not: { required: ["image", "video"] },
};

/**
 * The examples give reference_images (one URL), mask and seeds (one integer) in one body, and tags a
 * value that is no list in the other (no prompt: it is drawn).
 */
const examples = [{ reference_images: ["https://a/1.png"], mask: "https://a/mask.png", seeds: [7] }, { tags: "solo" }];

const validate = (body: unknown): boolean => registry.compile(schema)(body) === true;
const draw = (seed: number): Body[] => fc.sample(validBodies(schema, examples, validate), { seed, numRuns: 120 });
const values = (bodies: Body[], field: string): unknown[] =>
  bodies.filter((body) => field in body).map((body) => body[field]);

describe("validBodies", () => {
  it("draws valid bodies only, a cross-field rule included, each with the required fields and no field left undefined", () => {
    const bodies = draw(1);
    expect(bodies.filter((body) => !validate(body))).toEqual([]);
    expect(bodies.filter((body) => "image" in body && "video" in body)).toEqual([]);
    for (const body of bodies) {
      for (const field of schema.required as string[]) expect(body, field).toHaveProperty(field);
      expect(Object.values(body)).not.toContain(undefined);
    }
    // The optional fields are each sent in some bodies and left out of others.
    for (const field of ["style", "image", "video", "tags", "mask", "options"]) {
      expect(values(bodies, field).length, field).toBeGreaterThan(0);
      expect(values(bodies, field).length, field).toBeLessThan(bodies.length);
    }
  });

  it("draws every enum value, the const, every integer of a range, numbers within their bounds, both booleans", () => {
    const bodies = draw(2);
    expect(new Set(values(bodies, "size"))).toEqual(new Set(["1K", "2K", "4K"]));
    expect(new Set(values(bodies, "version"))).toEqual(new Set(["v2"]));
    expect(new Set(values(bodies, "count"))).toEqual(new Set([1, 2, 3, 4]));
    expect(values(bodies, "seed").every((seed) => Number.isInteger(seed) && (seed as number) >= 5000)).toBe(true);
    expect(values(bodies, "strength").every((value) => (value as number) >= 0.5 && (value as number) <= 3.5)).toBe(
      true,
    );
    // A number is drawn as an integer within its bounds: 0.5 to 3.5 gives 1, 2 and 3.
    expect(new Set(values(bodies, "strength"))).toEqual(new Set([1, 2, 3]));
    // With no bounds, from 0 to 1,000.
    const scales = values(bodies, "scale") as number[];
    expect(scales.every((value) => Number.isInteger(value) && value >= 0 && value <= 1000)).toBe(true);
    expect(new Set(values(bodies, "flag"))).toEqual(new Set([true, false]));
    expect(values(bodies, "options").every((value) => JSON.stringify(value) === "{}")).toBe(true);
  });

  it("draws media from the examples' values, else a URL of the field's kind with the first format it lists", () => {
    const bodies = draw(3);
    expect(new Set(values(bodies, "image"))).toEqual(new Set(["https://files.example.com/input.webp"]));
    expect(new Set(values(bodies, "video"))).toEqual(new Set(["https://files.example.com/input.mp4"]));
    expect(new Set(values(bodies, "audio"))).toEqual(new Set(["https://files.example.com/input.mp3"]));
    expect(new Set(values(bodies, "thumb"))).toEqual(new Set(["https://files.example.com/input.png"]));
    expect(new Set(values(bodies, "mask"))).toEqual(new Set(["https://a/mask.png"]));
    const videos = values(bodies, "reference_videos").flat() as string[];
    expect(videos.length).toBeGreaterThan(0);
    expect(videos.every((url) => url.startsWith("https://files.example.com/input.mp4"))).toBe(true);
  });

  it("draws lists of distinct items from the examples' items, item counts up to the limit", () => {
    const bodies = draw(4);
    const lists = values(bodies, "reference_images") as string[][];
    expect(new Set(lists.map((list) => list.length))).toEqual(new Set([2, 3, 4]));
    for (const list of lists) {
      // The example's own value, then distinct variants of it.
      expect(list[0]).toBe("https://a/1.png");
      expect(new Set(list).size).toBe(list.length);
      expect(list.every((item) => item.startsWith("https://a/1.png"))).toBe(true);
    }
    const tags = values(bodies, "tags") as string[][];
    expect(tags.every((list) => list.length <= 2 && list.every((item) => typeof item === "string"))).toBe(true);
    // An example's value that is no list gives no items: the items are plain stand-ins.
    expect(tags.flat().every((item) => item.startsWith("item"))).toBe(true);
    // With no limit, at most three items.
    expect(new Set((values(bodies, "labels") as string[][]).map((list) => list.length))).toEqual(new Set([0, 1, 2, 3]));
    // Only text items are made distinct: a list of integers repeats the example's integer as it is.
    const seeds = values(bodies, "seeds") as unknown[][];
    expect(seeds.some((list) => list.length >= 2)).toBe(true);
    expect(seeds.flat().every((item) => item === 7)).toBe(true);
  });

  it("draws no value for a property whose schema is true", () => {
    expect(values(draw(6), "anything")).toEqual([]);
  });

  it("draws prompts of a few plain words, and other texts of plain words too", () => {
    const bodies = draw(5);
    const prompts = values(bodies, "prompt") as string[];
    expect(prompts.every((prompt) => /^[a-z]+( [a-z]+)*$/.test(prompt))).toBe(true);
    expect(prompts.some((prompt) => prompt.includes(" "))).toBe(true);
    const styles = values(bodies, "style") as string[];
    expect(styles.every((style) => /^[a-z]+$/.test(style))).toBe(true);
  });
});
