/**
 * One pass of the working loop of `npm run dev`: bundle the description, regenerate, lint and
 * rebuild the docs site, timing each step. The bundle is built once in memory (document, service
 * model, slug map, source map: tools/bundle-description.ts) and handed to each step; nothing the
 * pass wrote is read back (only Redocly's CLI, in its own process, reads the written bundle). Lint
 * findings point at the file and line in openapi/ to fix. A failing step stops the pass and is
 * reported; what it would have written is left as it was.
 */
import { join } from "node:path";
import type { Spectral } from "@stoplight/spectral-core";
import { buildSite } from "../docs-src/site.ts";
import { generateAll, writeGenerated } from "../generators/index.ts";
import { fails, formatFinding, lintDescription } from "../lint/lint-description.ts";
import { loadSpectral } from "../lint/run-spectral.ts";
import { buildDescription, writeBundle } from "../tools/bundle-description.ts";
import { overlayFiles } from "../tools/overlays.ts";

export interface PassOptions {
  /** The project root (openapi/, generated/ and docs/ are under it). */
  root: string;
  siteDir: string;
  /** The slug map file in effect (slugMapFile()), or none. */
  slugMap: string | undefined;
  /** The deployment's overlay files (overlayFiles()); by default those the environment names. */
  overlays?: readonly string[];
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
    const { root, siteDir, slugMap, overlays = overlayFiles() } = this.options;
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
      const build = await step("bundle", async () => {
        const build = await buildDescription(join(root, "openapi", "openapi.yaml"), {
          slugMapFile: slugMap,
          overlayFiles: overlays,
        });
        writeBundle(build, generated);
        return build;
      });
      await step("generate", async () => writeGenerated(await generateAll(build.model), root));
      await step("lint", async () => {
        this.spectral ??= loadSpectral();
        const text = build.outputs["openapi.yaml"];
        const { findings } = await lintDescription(join(generated, "openapi.yaml"), {
          text,
          sources: build.sources,
          spectral: this.spectral,
        });
        for (const finding of findings.filter(fails)) messages.push(formatFinding(finding, root));
      });
      await step("docs", () => buildSite(build.doc, siteDir));
      return { ok: messages.length === 0, timings, messages };
    } catch (error) {
      return { ok: false, timings, messages: [...messages, (error as Error).message.trim()] };
    }
  }
}
