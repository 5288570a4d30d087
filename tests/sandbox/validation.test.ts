/** Request bodies are checked with the description's schemas: a 400 whose message names the field and the rule. */
import { describe, expect, it } from "vitest";
import { checkedSandboxes, configWith, example, model, routeWhere } from "./support.ts";

const sandbox = checkedSandboxes();

const closed = routeWhere((route) => route.areaId === "image" && route.idType === "string" && route.family === null);
const heldPerSecond = routeWhere(
  (route) => route.priceHeld && Object.keys(model.priceTables[route.path]!.media).length === 1,
);
const mediaField = Object.keys(model.priceTables[heldPerSecond.path]!.media)[0]!;

describe("request validation", () => {
  it.each([
    ["an unknown field", { ...example(closed.path), colour: "blue" }, "body.colour: is not a known field"],
    ["a value outside its enum", { ...example(closed.path), size: "9K" }, "body.size: must be one of "],
    ["a value outside its range", { ...example(closed.path), num_images: 99 }, "body.num_images: must be <= "],
    ["a missing required field", {}, "body.prompt: is required"],
    ["text that is not JSON", "{oops", "body: is not JSON"],
  ])("answers 400 for %s, naming the field and the rule", async (_case, body, message) => {
    const sb = await sandbox(configWith());
    const rejected = await sb.send("POST", closed.path, { body });
    expect(rejected.status).toBe(400);
    expect(rejected.json.error).toMatchObject({
      type: model.errors.invalidRequest.type,
      code: model.errors.invalidRequest.code,
    });
    expect(rejected.json.error.message).toContain(message);
  });

  it("quotes the description's cross-field rule that a body breaks", async () => {
    const route = routeWhere(
      (candidate) =>
        "reference_images" in candidate.media && "image" in candidate.media && candidate.areaId === "video",
    );
    const sb = await sandbox(configWith());
    const rejected = await sb.send("POST", route.path, {
      body: {
        ...example(route.path),
        image: "https://media.example/a.png",
        reference_images: ["https://media.example/b.png"],
      },
    });
    expect(rejected.status).toBe(400);
    expect(rejected.json.error.message).toMatch(/^body: breaks the rule .*cannot be combined/);
  });

  it("rejects a media duration outside the field's limits, naming the field", async () => {
    const sb = await sandbox(configWith());
    const rejected = await sb.send("POST", heldPerSecond.path, {
      body: { ...example(heldPerSecond.path), [mediaField]: "https://media.example/long.mp3#duration=100000" },
    });
    expect(rejected.status).toBe(400);
    expect(rejected.json.error.message).toMatch(
      new RegExp(`^body\\.${mediaField} \\(#duration\\): must be at most \\d+ seconds`),
    );
  });
});
