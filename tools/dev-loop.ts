/**
 * One pass of the working loop of `npm run dev`: bundle the description, regenerate, lint and
 * rebuild the docs site, timing each step. Linters stay loaded between passes, so an edit costs
 * only the work it causes. A failing step stops the pass and is reported; what it would have
 * written is left as it was.
 */
import type { Spectral } from "@stoplight/spectral-core";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildSite } from "../docs-src/site.ts";
import { generateAll, writeGenerated } from "../generators/index.ts";
import { lintWithRedocly } from "../lint/run-redocly.ts";
import { lintText, loadSpectral } from "../lint/run-spectral.ts";
import { loadBundle } from "../model/document.ts";
import { readServiceModel } from "../model/service-model.ts";
import { bundleDescription } from "./bundle-description.ts";

export interface PassOptions {
  /** The project root (openapi/, generated/ and docs/ are under it). */
  root: string;
  siteDir: string;
  slugMap: string | undefined;
}

export interface PassResult {
  ok: boolean;
  /** Milliseconds per step, in order. */
  timings: Array<[step: string, ms: number]>;
  /** Lint findings and errors, one per line. */
  messages: string[];
}

// Spectral's severities by number: 0 error and 1 warning fail the lint.
const WARNING = 1;

export class DevLoop {
  private spectral: Promise<Spectral> | undefined;

  constructor(private readonly options: PassOptions) {}

  async pass(): Promise<PassResult> {
    const { root, siteDir, slugMap } = this.options;
    const timings: PassResult["timings"] = [];
    const messages: string[] = [];
    const step = async <T>(name: string, run: () => T | Promise<T>): Promise<T> => {
      const started = performance.now();
      try {
        return await run();
      } finally {
        timings.push([name, performance.now() - started]);
      }
    };
    const generated = join(root, "generated");
    try {
      await step("bundle", () => bundleDescription(join(root, "openapi", "openapi.yaml"), generated, slugMap));
      const doc = loadBundle(join(generated, "openapi.json"));
      await step("generate", async () => writeGenerated(await generateAll(readServiceModel(doc)), root));
      await step("lint", async () => {
        const bundle = join(generated, "openapi.yaml");
        this.spectral ??= loadSpectral();
        const spectral = await this.spectral;
        const [results, problems] = await Promise.all([lintText(spectral, readFileSync(bundle, "utf8"), bundle), Promise.resolve().then(() => lintWithRedocly(bundle))]);
        for (const result of results.filter((candidate) => candidate.severity <= WARNING)) messages.push(`spectral ${result.code} ${result.message} [${result.path.join(".")}]`);
        for (const problem of problems) messages.push(`redocly ${problem.ruleId} ${problem.message} [${problem.pointer}]`);
      });
      await step("docs", () => buildSite(doc, siteDir));
      return { ok: messages.length === 0, timings, messages };
    } catch (error) {
      return { ok: false, timings, messages: [...messages, (error as Error).message.trim()] };
    }
  }
}
