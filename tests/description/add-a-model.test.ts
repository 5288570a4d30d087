/**
 * Adding an image model is its path file and its entry in the root, nothing else by hand
 * (openapi/README.md, "Adding a model"): a copy of the description gains I-Z, and every tool that
 * reads the service model picks it up: the client, the prices, the docs and the conformance suite.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Contract } from "../../contract/contract.ts";
import { codeSamples } from "../../docs-src/code-samples.ts";
import { deriveRouteTable } from "../../generators/client.ts";
import { generate as generateCosts } from "../../generators/costs.ts";
import { loadBundle, type OpenApiDocument } from "../../model/document.ts";
import { slugMapFile } from "../../model/slug-map.ts";
import { readServiceModel, type ServiceModel } from "../../model/service-model.ts";
import { quoteRoute } from "../../runtime/costs/quote.ts";
import { bundleDescription } from "../../tools/bundle-description.ts";

const project = new URL("../../", import.meta.url).pathname;
const NEW_PATH = "/v1/images/i-z";

/** The two steps of openapi/README.md: a path file (here I-A's, relabelled and repriced) and a root entry. */
function addModel(openapi: string): void {
  const source = readFileSync(join(openapi, "paths", "v1_images_i-a.yaml"), "utf8");
  const added = source
    .replaceAll("I-A", "I-Z")
    .replaceAll("createImageIA", "createImageIZ")
    .replace("768px: 11", "768px: 7");
  writeFileSync(join(openapi, "paths", "v1_images_i-z.yaml"), added);
  const root = join(openapi, "openapi.yaml");
  const entry = "  /v1/images/i-k:\n    $ref: ./paths/v1_images_i-k.yaml\n";
  const text = readFileSync(root, "utf8");
  if (!text.includes(entry)) throw new Error("the root no longer lists I-K where this test adds I-Z");
  writeFileSync(root, text.replace(entry, `${entry}  ${NEW_PATH}:\n    $ref: ./paths/v1_images_i-z.yaml\n`));
}

describe("adding an image model", () => {
  let work: string;
  let doc: OpenApiDocument;
  let model: ServiceModel;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "add-model-"));
    cpSync(join(project, "openapi"), join(work, "openapi"), { recursive: true });
    addModel(join(work, "openapi"));
    mkdirSync(join(work, "out"));
    // npm run bundle's work, in this process (the script's own run is tests/description/bundle.test.ts).
    await bundleDescription(join(work, "openapi", "openapi.yaml"), join(work, "out"), slugMapFile());
    doc = loadBundle(join(work, "out", "openapi.json"));
    model = readServiceModel(doc);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("is a create route of the image area in the service model, with its poll route and id prefix", () => {
    const route = model.createRoutes.find((candidate) => candidate.path === NEW_PATH);
    expect(route).toMatchObject({
      slug: "i-z",
      label: "I-Z",
      areaId: "image",
      idField: "id",
      operationId: "createImageIZ",
    });
    const image = model.areas.find((area) => area.id === "image")!;
    expect(image.createRoutes.map((candidate) => candidate.slug)).toContain("i-z");
    expect(image.jobIdPrefix).toBe("img_");
  });

  it("gets a typed client route that polls the image poll route", () => {
    const table = deriveRouteTable(model);
    const iA = Object.values(table.areas.image?.routes ?? {}).find((candidate) => candidate.label === "I-A");
    expect(table.areas.image?.routes["i-z"]).toEqual({ path: NEW_PATH, label: "I-Z", idField: "id", media: iA?.media });
    expect(table.areas.image?.pollPath).toBe("/v1/images/{id}");
  });

  it("gets its own price table, quote and price page row", () => {
    expect(
      quoteRoute(model.priceTables, NEW_PATH, { prompt: "a lighthouse", size: "768px", num_images: 2 }).credits,
    ).toBe(14);
    const files = generateCosts(model);
    expect(files["generated/costs.ts"]).toContain(`"${NEW_PATH}"`);
    expect(files["docs/pricing.md"]).toContain("I-Z");
  });

  it("gets docs code samples for its operation, calling the client generated for it", () => {
    const samples = codeSamples(doc).get("createImageIZ");
    expect(samples?.curl.source).toContain(`$BASE_URL${NEW_PATH}`);
    expect(samples?.client.source).toContain('client.image.createAndWait("i-z"');
  });

  it("is checked by the conformance suite, with its examples and poll route", () => {
    const operation = new Contract(doc).operations.find((candidate) => candidate.route === `POST ${NEW_PATH}`);
    expect(operation?.create).toMatchObject({ label: "I-Z", idField: "id" });
    expect(operation?.requestExamples.map((example) => example.name)).toEqual([
      "text-to-image",
      "edit-with-references",
    ]);
  });
});
