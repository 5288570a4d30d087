import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { generate as generateClient } from "../../generators/client.ts";
import { generate as generateTypes } from "../../generators/types.ts";
import { loadBundle } from "../../model/document.ts";
import { readServiceModel } from "../../model/service-model.ts";

it("generating twice gives byte-identical types, client, media-input check and models, equal to the committed files", async () => {
  const first = {
    ...(await generateTypes(readServiceModel(loadBundle()))),
    ...generateClient(readServiceModel(loadBundle())),
  };
  const second = {
    ...(await generateTypes(readServiceModel(loadBundle()))),
    ...generateClient(readServiceModel(loadBundle())),
  };
  expect(Object.keys(first).sort()).toEqual([
    "generated/client.ts",
    "generated/media-inputs.ts",
    "generated/models.ts",
    "generated/types.ts",
  ]);
  for (const [file, text] of Object.entries(first)) {
    expect(second[file] === text, `${file} differs between two runs`).toBe(true);
    expect(readFileSync(file, "utf8") === text, `${file} is stale: run npm run generate`).toBe(true);
  }
});
