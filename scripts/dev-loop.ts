/**
 * One pass of the working loop of `npm run dev`: bundle the description, regenerate, lint and
 * rebuild the docs site, timing each step. Lint findings point at the file and line in openapi/
 * to fix. A failing step stops the pass and is reported; what it would have
 * written is left as it was.
 */
import { join } from "node:path";
import type { Spectral } from "@stoplight/spectral-core";
import { buildSite } from "../docs-src/site.ts";
import { generateAll, writeGenerated } from "../generators/index.ts";
import { fails, formatFinding, lintDescription } from "../lint/lint-description.ts";
import { loadSpectral } from "../lint/run-spectral.ts";
import { loadBundle } from "../model/document.ts";
import { readServiceModel } from "../model/service-model.ts";
import { readSlugMap } from "../model/slug-map.ts";
import { bundleDescription } from "../tools/bundle-description.ts";

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
  /** Lint findings (at their file and line in openapi/) and errors, one per line. */
  messages: string[];
}

export class DevLoop {
  /** Loaded once: its ruleset does not change while the loop watches openapi/. */
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
        const source = { root: join(root, "openapi", "openapi.yaml"), slugMap: readSlugMap(slugMap) };
        this.spectral ??= loadSpectral();
        const { findings } = await lintDescription(join(generated, "openapi.yaml"), source, this.spectral);
        for (const finding of findings.filter(fails)) messages.push(formatFinding(finding, root));
      });
      await step("docs", () => buildSite(doc, siteDir));
      return { ok: messages.length === 0, timings, messages };
    } catch (error) {
      return { ok: false, timings, messages: [...messages, (error as Error).message.trim()] };
    }
  }
}
