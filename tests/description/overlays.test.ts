/** A deployment's Overlays (tools/overlays.ts) and the slug map rendered into one (tools/slug-overlay.ts), applied by the build. */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { applySlugMap, readSlugMap } from "../../model/slug-map.ts";
import { buildDescription, type DescriptionBuild } from "../../tools/bundle-description.ts";
import { overlayFiles, PROJECT_OVERLAY, readOverlay } from "../../tools/overlays.ts";
import { slugMapOverlay } from "../../tools/slug-overlay.ts";

const project = new URL("../../", import.meta.url).pathname;
const root = join(project, "openapi", "openapi.yaml");
const realSlugs = join(project, "tests", "support", "real-slugs.json");
const serversOverlay = join(project, "overlays", "servers.example.overlay.yaml");
const placeholders = { slugMapFile: undefined, overlayFiles: [] };

let work: string;
let plain: DescriptionBuild;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "overlays-"));
  plain = await buildDescription(root, placeholders);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The error a build with these overlay texts throws, or "built". */
async function buildWith(...overlays: object[]): Promise<string> {
  const files = overlays.map((overlay, index) => {
    const file = join(work, `deployment-${index + 1}.overlay.yaml`);
    writeFileSync(file, stringify(overlay));
    return file;
  });
  return buildDescription(root, { slugMapFile: undefined, overlayFiles: files }).then(
    () => "built",
    (error: Error) => error.message,
  );
}

describe("a build with an Overlay setting real slugs and a servers entry", () => {
  it("is the description the slug map gave before overlays, with the deployment's server", async () => {
    const overlaid = await buildDescription(root, { slugMapFile: realSlugs, overlayFiles: [serversOverlay] });
    // The description as the slug map made it before overlays (paths renamed in place), with the example overlay's server and contact.
    const expected = structuredClone(plain.doc);
    expected.paths = applySlugMap(expected.paths, readSlugMap(realSlugs)) as typeof expected.paths;
    expected.servers = [{ url: "https://media.deployment.test", description: "The example deployment." }];
    expected.info.contact = { name: "Example deployment support", url: "https://media.deployment.test/support" };
    // Key for key and in the same order.
    expect(overlaid.outputs["openapi.json"]).toBe(`${JSON.stringify(expected, null, 2)}\n`);
    // Written out from tests/support/real-slugs.json and the example overlay.
    const paths = Object.keys(overlaid.doc.paths);
    expect(paths).toContain("/v1/images/imagegen-4-ultra");
    expect(paths).toContain("/v1/images/legacy-image-1");
    expect(paths).toContain("/v1/videos/clipmaker-3");
    expect(paths).toContain("/v1/3d/mesh-pro-2");
    expect(paths).not.toContain("/v1/images/i-a");
    expect(paths).toContain("/v1/images/i-b");
    expect(paths.indexOf("/v1/images/imagegen-4-ultra")).toBe(Object.keys(plain.doc.paths).indexOf("/v1/images/i-a"));
    expect(overlaid.doc.servers).toEqual([
      { url: "https://media.deployment.test", description: "The example deployment." },
    ]);
    expect(Object.keys(overlaid.doc).indexOf("servers")).toBe(Object.keys(plain.doc).indexOf("servers"));
    expect(overlaid.slugMap).toEqual({
      "i-a": "imagegen-4-ultra",
      "i-f": "legacy-image-1",
      "v-a": "clipmaker-3",
      "d-a": "mesh-pro-2",
    });
  });

  it("renders the slug map as Overlay 1.0 actions: each renamed path added under its real slug, removed under its placeholder", () => {
    const { overlay, renamed } = slugMapOverlay(plain.doc.paths, { "i-a": "imagegen-4-ultra" }, "slug map real.json");
    expect([...renamed]).toEqual([["/v1/images/i-a", "/v1/images/imagegen-4-ultra"]]);
    expect(overlay.source).toBe("slug map real.json");
    expect(overlay.overlay.overlay).toBe("1.0.0");
    expect(overlay.overlay.actions).toEqual([
      {
        target: "$.paths",
        description: "/v1/images/i-a under its real slug",
        update: { "/v1/images/imagegen-4-ultra": plain.doc.paths["/v1/images/i-a"] },
      },
      {
        target: "$.paths['/v1/images/i-a']",
        description: "/v1/images/i-a renamed to /v1/images/imagegen-4-ultra",
        remove: true,
      },
    ]);
  });
});

describe("the build's check of a deployment's overlay", () => {
  const info = { title: "Deployment", version: "1.0.0" };

  it("rejects an action whose target matches nothing, naming the file, the action and its target", async () => {
    const message = await buildWith({
      overlay: "1.0.0",
      info,
      actions: [
        { target: "$.info", update: { "x-deployment": "ours" } },
        { target: "$.paths['/v1/images/i-z']", update: { summary: "gone" } },
        { target: "$.components.schemas.NoSuchSchema", remove: true },
      ],
    });
    expect(message).toBe(
      `overlay ${join(work, "deployment-1.overlay.yaml")}: action 2 (target $.paths['/v1/images/i-z']), action 3 (target $.components.schemas.NoSuchSchema) match nothing in the description`,
    );
  });

  it("rejects a document that is not Overlay 1.0, saying which rule it breaks", async () => {
    const file = join(work, "deployment-1.overlay.yaml");
    expect(await buildWith({ overlay: "2.0.0", info, actions: [{ target: "$", update: {} }] })).toBe(
      `overlay ${file}: overlay must be "1.0.x" (OpenAPI Overlay 1.0), got "2.0.0"`,
    );
    expect(await buildWith({ overlay: "1.0.0", info, actions: [] })).toBe(
      `overlay ${file}: actions must be a non-empty list`,
    );
    expect(await buildWith({ overlay: "1.0.0", actions: [{ target: "$", update: {} }] })).toBe(
      `overlay ${file}: info must have a title and a version (strings)`,
    );
    expect(await buildWith({ overlay: "1.0.0", info, actions: [{ target: "info", update: {} }] })).toBe(
      `overlay ${file}: action 1: target must be a JSONPath starting with "$"`,
    );
    expect(await buildWith({ overlay: "1.0.0", info, actions: [{ target: "$.info" }] })).toBe(
      `overlay ${file}: action 1 (target $.info): needs update, or remove: true`,
    );
    expect(() => readOverlay(join(work, "missing.yaml"))).toThrow(
      `overlay ${join(work, "missing.yaml")}: no such file (MEDIA_OVERLAY names it)`,
    );
  });

  it("applies several overlays in order, each on the result of the one before", async () => {
    const first = { overlay: "1.0.0", info, actions: [{ target: "$.info", update: { "x-deployment": "first" } }] };
    const second = { overlay: "1.0.0", info, actions: [{ target: "$.info['x-deployment']", remove: true }] };
    expect(await buildWith(first, second)).toBe("built");
    // The second's target exists only once the first has run.
    expect(await buildWith(second, first)).toMatch(
      /deployment-1\.overlay\.yaml: action 1 \(target \$\.info\['x-deployment'\]\) matches nothing/,
    );
  });
});

describe("the deployment's overlay files", () => {
  it("are MEDIA_OVERLAY's, comma-separated (none: no overlay), else deployment.overlay.yaml at the project root when it exists", () => {
    expect(overlayFiles({ MEDIA_OVERLAY: "a.yaml, b.yaml" })).toEqual(["a.yaml", "b.yaml"]);
    expect(overlayFiles({ MEDIA_OVERLAY: "none" })).toEqual([]);
    expect(PROJECT_OVERLAY).toBe(join(project, "deployment.overlay.yaml"));
    expect(overlayFiles({})).toEqual(existsSync(PROJECT_OVERLAY) ? [PROJECT_OVERLAY] : []);
  });
});
