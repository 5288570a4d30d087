/**
 * Runs every generator over the bundled description and writes their files (into generated/, and
 * the generated pages of docs/). Each generator reads the service model of generated/openapi.json (model/) and returns
 * path from the project root -> contents; nothing is
 * written unless every generator succeeded, so a failure leaves no half-written output.
 */
import { renameSync, writeFileSync } from "node:fs";
import { loadServiceModel, type ServiceModel } from "../model/service-model.ts";

export type GeneratedFiles = Record<string, string>;
export type Generator = (model: ServiceModel) => GeneratedFiles | Promise<GeneratedFiles>;

const generators: Array<[name: string, load: () => Promise<{ generate: Generator }>]> = [
  // Each entry: [name, () => import("./<module>.ts")]; the module exports `generate`, whose keys
  // are paths from the project root such as "generated/types.ts".
  ["costs", () => import("./costs.ts")],
  ["types", () => import("./types.ts")],
  ["client", () => import("./client.ts")],
];

const model = loadServiceModel();
const files: GeneratedFiles = {};
for (const [name, load] of generators) {
  try {
    const produced = await (await load()).generate(model);
    for (const [file, text] of Object.entries(produced)) {
      if (file in files) throw new Error(`${file} is produced twice`);
      files[file] = text;
    }
  } catch (error) {
    process.stderr.write(`generator ${name} failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  }
}
for (const [file, text] of Object.entries(files)) writeFileSync(`${file}.tmp`, text);
for (const file of Object.keys(files)) renameSync(`${file}.tmp`, file);
console.log(`generated ${Object.keys(files).sort().join(", ") || "nothing"}`);
