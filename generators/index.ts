/**
 * Runs every generator over the service model of the bundled description and writes their files
 * (into generated/, and the generated pages of docs/). Each generator returns path from the project
 * root -> contents; nothing is written unless every generator succeeded, so a failure leaves no
 * half-written output.
 */
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ServiceModel } from "../model/service-model.ts";
import { generate as client } from "./client.ts";
import { generate as costs } from "./costs.ts";
import { generate as mcp } from "./mcp.ts";
import { generate as rulesPage } from "./rules-page.ts";
import { generate as types } from "./types.ts";

export type GeneratedFiles = Record<string, string>;
export type Generator = (model: ServiceModel) => GeneratedFiles | Promise<GeneratedFiles>;

/** Where the generated files go by default: the project's root. */
export const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * The generators by the name of their module, each returning files whose keys are paths from the
 * project root such as "generated/types.ts". Imported statically, so that every module they reach
 * loads with this one: Stryker counts what a module runs as it loads as static only when it loads
 * before any test, and test files share their worker's modules (vitest.config.ts).
 */
const GENERATORS = { costs, types, client, mcp, "rules-page": rulesPage } satisfies Record<string, Generator>;

export type GeneratorName = keyof typeof GENERATORS;

export class GeneratorError extends Error {}

/** Every generator's files; throws GeneratorError naming the generator that failed. */
export async function generateAll(
  model: ServiceModel,
  names: readonly GeneratorName[] = Object.keys(GENERATORS) as GeneratorName[],
): Promise<GeneratedFiles> {
  const files: GeneratedFiles = {};
  for (const name of names) {
    try {
      const produced = await GENERATORS[name](model);
      for (const [file, text] of Object.entries(produced)) {
        if (file in files) throw new Error(`${file} is produced twice`);
        files[file] = text;
      }
    } catch (error) {
      throw new GeneratorError(`generator ${name} failed: ${(error as Error).stack ?? String(error)}`);
    }
  }
  return files;
}

/** Writes the files under `root` (the project's), each beside its target first, then renamed into place. */
export function writeGenerated(files: GeneratedFiles, root = PROJECT_ROOT): void {
  for (const [file, text] of Object.entries(files)) writeFileSync(join(root, `${file}.tmp`), text);
  for (const file of Object.keys(files)) renameSync(join(root, `${file}.tmp`), join(root, file));
}
