/**
 * The try-it console's list of a succeeded job's results (docs-src/browser/requests.ts): the URLs in
 * the area's result fields (the poll results table of the specification), each listed once, and
 * nothing from other fields or values that are no http(s) URL.
 */
import { describe, expect, it } from "vitest";
import { resultUrls } from "../../docs-src/browser/requests.ts";
import { loadServiceModel } from "../../model/service-model.ts";

const fieldsOf = (area: string) => loadServiceModel().areas.find(({ id }) => id === area)?.resultFields ?? [];

describe("the console's results of a succeeded job", () => {
  it("lists a 3D job's GLB once, though model_url and files both name it, and every other format", () => {
    const glb = "https://files.example.com/3d/model.glb";
    const fbx = "https://files.example.com/3d/model.fbx";
    const body = { status: "succeeded", model_url: glb, files: [glb, { format: "fbx", url: fbx }] };
    expect(resultUrls(body, fieldsOf("model3d"))).toEqual([glb, fbx]);
  });

  it("lists each image's URL in order, and nothing from fields outside the result or values that are no URL", () => {
    const body = {
      status: "succeeded",
      thumbnail: "https://files.example.com/img/thumb.png",
      images: [
        { url: "https://files.example.com/img/0.png", position: 0 },
        { url: "data:image/png;base64,AAAA", position: 1 },
        { url: "https://files.example.com/img/2.png", position: 2 },
      ],
    };
    expect(resultUrls(body, fieldsOf("image"))).toEqual([
      "https://files.example.com/img/0.png",
      "https://files.example.com/img/2.png",
    ]);
    expect([resultUrls(null, ["images"]), resultUrls("succeeded", ["images"])]).toEqual([[], []]);
  });
});
