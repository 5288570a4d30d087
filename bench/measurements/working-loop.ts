/**
 * The working loop of the people who edit the description: `npm test` on the project as it is,
 * `npm run build` then `npm run lint` (as a person runs them), and one edit in `npm run dev`
 * (scripts/dev-loop.ts on a copy of the project: a path file rewritten, then bundle, generate, lint
 * and docs, median of a few edits after the first pass has loaded the linters).
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { slugMapFile } from "../../model/slug-map.ts";
import { DevLoop } from "../../scripts/dev-loop.ts";
import { median, type Figure, type Measurement } from "../measurement.ts";

const PROJECT = fileURLToPath(new URL("../../", import.meta.url));
const EDITS = 3;

async function seconds(command: string, args: string[]): Promise<number> {
  const start = performance.now();
  await promisify(execFile)(command, args, { cwd: PROJECT, maxBuffer: 64 * 1024 * 1024 });
  return (performance.now() - start) / 1000;
}

async function devEdit(): Promise<number> {
  const root = mkdtempSync(join(tmpdir(), "bench-dev-"));
  try {
    cpSync(join(PROJECT, "openapi"), join(root, "openapi"), { recursive: true });
    mkdirSync(join(root, "generated"));
    mkdirSync(join(root, "docs"));
    const loop = new DevLoop({ root, siteDir: join(root, "site"), slugMap: slugMapFile() });
    await loop.pass();
    const file = join(root, "openapi", "paths", "v1_images_i-a.yaml");
    const original = readFileSync(file, "utf8");
    const times: number[] = [];
    for (let edit = 0; edit < EDITS; edit++) {
      writeFileSync(file, original.replace("Create an image with I-A", `Create an image with I-A (edit ${edit})`));
      const start = performance.now();
      const result = await loop.pass();
      times.push((performance.now() - start) / 1000);
      if (!result.ok) throw new Error(`the dev loop failed on an edit: ${result.messages.join("; ")}`);
    }
    return median(times);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export const workingLoop: Measurement = {
  name: "working loop",
  async run(): Promise<Figure[]> {
    const build = await seconds("npm", ["run", "-s", "build"]);
    const lint = await seconds("npm", ["run", "-s", "lint"]);
    const dev = await devEdit();
    const test = await seconds("npm", ["test"]);
    const round = (value: number): number => Number(value.toFixed(1));
    return [
      {
        label: "npm run build + npm run lint",
        value: round(build + lint),
        unit: "s",
        note: `build ${build.toFixed(1)} s, lint ${lint.toFixed(1)} s; goal at most 5 s`,
      },
      {
        label: "one-file edit in npm run dev (rebuilt, regenerated, linted, docs)",
        value: round(dev),
        unit: "s",
        note: `median of ${EDITS} edits; goal at most 2 s`,
      },
      {
        label: "npm test",
        value: round(test),
        unit: "s",
        note: "build, typecheck, lint and every vitest suite; goal at most 60 s",
      },
    ];
  },
};
