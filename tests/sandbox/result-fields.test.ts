/**
 * Poll results carry every result field the description names once a job has succeeded, not only
 * the required ones: each image's `position` (its place in the list, a number as the description's
 * example shows) and the 3D `files` list (URLs, as its example shows) beside `model_url`.
 */
import { describe, expect, it } from "vitest";
import { areaOf, configWith, example, model, routeWhere, checkedSandboxes } from "./support.ts";

const sandbox = checkedSandboxes();

const image = routeWhere((route) => route.areaId === "image" && route.idType === "string" && route.family === null);
const model3d = routeWhere((route) => route.label === "D-A");

async function succeeded(
  path: string,
  body: Record<string, unknown>,
  areaId: string,
): Promise<Record<string, unknown>> {
  const sb = await sandbox(configWith({}, { jobs: { defaultDurationSeconds: 1 } }));
  const created = await sb.send("POST", path, { body });
  expect(created.status).toBe(200);
  sb.advance(10 * 60 * 1000);
  const polled = await sb.send("GET", areaOf(areaId).poll.path.replace("{id}", String(created.json.id)));
  expect(polled.json.status).toBe(model.jobStatus.success);
  return polled.json;
}

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
});
