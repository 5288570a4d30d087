/**
 * Poll results carry every result field the description names once a job has succeeded, not only
 * the required ones: each image's `position` (its place in the list, a number as the description's
 * example shows) and the 3D `files` list (URLs, as its example shows) beside `model_url`. Where
 * the description names no result field (lip sync, video upscale: "Result URLs are present in the
 * poll response", under a name not shown), the sandbox gives the video's URL as `video_url`.
 */
import { describe, expect, it } from "vitest";
import { deref, type JsonSchema, type ResponseObject } from "../../model/document.ts";
import { areaOf, configWith, example, model, routeWhere, checkedSandboxes } from "./support.ts";

const sandbox = checkedSandboxes();

const image = routeWhere((route) => route.areaId === "image" && route.idType === "string" && route.family === null);
const model3d = routeWhere((route) => route.label === "D-A");

async function ended(
  path: string,
  body: Record<string, unknown>,
  areaId: string,
  status: string = model.jobStatus.success,
): Promise<Record<string, unknown>> {
  const sb = await sandbox(configWith({}, { jobs: { defaultDurationSeconds: 1 } }));
  const created = await sb.send("POST", path, { body });
  expect(created.status).toBe(200);
  sb.advance(10 * 60 * 1000);
  const polled = await sb.send("GET", areaOf(areaId).poll.path.replace("{id}", String(created.json.id)));
  expect(polled.json.status).toBe(status);
  return polled.json;
}

const succeeded = (path: string, body: Record<string, unknown>, areaId: string) => ended(path, body, areaId);

describe("poll results on success", () => {
  it("give every image its url and its position in the list", async () => {
    const body = { ...example(image.path), num_images: 3 };
    const result = await succeeded(image.path, body, image.areaId);
    const images = result.images as Array<Record<string, unknown>>;
    expect(images.map((item) => item.position)).toEqual([0, 1, 2]);
    expect(new Set(images.map((item) => item.url)).size).toBe(3);
    for (const item of images) expect(item.url).toMatch(/^https:\/\/files\.sandbox\.invalid\//);
  });

  it("give a 3D job model_url and files, the list of produced formats as URLs", async () => {
    const result = await succeeded(model3d.path, example(model3d.path), model3d.areaId);
    expect(typeof result.model_url).toBe("string");
    expect(Array.isArray(result.files)).toBe(true);
    expect((result.files as unknown[]).length).toBeGreaterThan(0);
    for (const file of result.files as unknown[]) expect(file).toMatch(/^https:\/\/files\.sandbox\.invalid\//);
  });

  it.each(["LS-A", "VU-A"])(
    "give %s, whose poll names no result field, the video's URL as video_url; a failed job none",
    async (label) => {
      const route = routeWhere((candidate) => candidate.label === label);
      const poll = areaOf(route.areaId).poll.path;
      const ok = deref<ResponseObject>(model.doc, model.doc.paths[poll]!.get!.responses["200"]!);
      const schema = deref<JsonSchema>(model.doc, ok.content!["application/json"]!.schema!);
      expect(Object.keys(schema.properties ?? {})).toEqual(["status"]);
      const result = await succeeded(route.path, example(route.path), route.areaId);
      expect(Object.keys(result).sort()).toEqual(["status", "video_url"]);
      expect(result.video_url).toMatch(/^https:\/\/files\.sandbox\.invalid\//);
      const [field] = Object.keys(route.media);
      const failed = model.jobStatus.failure[0]!;
      const marked = { ...example(route.path), [field!]: `https://media.example/input#sandbox:${failed}` };
      expect(await ended(route.path, marked, route.areaId, failed)).toEqual({ status: failed });
    },
  );
});
