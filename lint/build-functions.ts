import { createHash } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
// esbuild starts its service process at the first build, not as it loads.
import { build, type Plugin } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const entry = fileURLToPath(new URL("./spectral/house-rules.ts", import.meta.url));
const outfile = fileURLToPath(new URL("./.functions/house-rules.js", import.meta.url));
/** The files the last build read, each with a digest of its content: unchanged files need no new build. */
const inputsFile = `${outfile}.inputs.json`;

/**
 * Spectral evaluates the bundled ruleset as a CommonJS function body, where `import.meta.url` has
 * no value. Each module gets its own source file's URL in its place, so code such as
 * model/document.ts behaves in the built ruleset exactly as under tsx.
 */
const sourceUrls: Plugin = {
  name: "source-import-meta-url",
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, async ({ path }) => ({
      contents: (await readFile(path, "utf8")).replaceAll("import.meta.url", JSON.stringify(pathToFileURL(path).href)),
      loader: "ts",
    }));
  },
};

async function digest(file: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(join(ROOT, file)))
    .digest("hex");
}

async function upToDate(): Promise<boolean> {
  try {
    const inputs = JSON.parse(await readFile(inputsFile, "utf8")) as Record<string, string>;
    const now = await Promise.all(Object.entries(inputs).map(async ([file, hash]) => (await digest(file)) === hash));
    await readFile(outfile);
    return now.every(Boolean);
  } catch {
    return false; // no build yet, or an input is gone
  }
}

/**
 * Compiles the TypeScript house rules into the JavaScript ruleset .spectral.yaml extends, unless
 * no file it is built from changed since the last build. Packages stay imports (Spectral resolves
 * them from node_modules); our own modules are inlined. Written beside the target and renamed, so
 * a concurrent load never reads half a file.
 */
export async function buildSpectralFunctions(): Promise<void> {
  if (await upToDate()) return;
  const temporary = `.${process.pid}.tmp`;
  const { metafile } = await build({
    entryPoints: [entry],
    outfile: `${outfile}${temporary}`,
    absWorkingDir: ROOT,
    metafile: true,
    bundle: true,
    packages: "external",
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "error",
    plugins: [sourceUrls],
  });
  const inputs = Object.fromEntries(
    await Promise.all(Object.keys(metafile.inputs).map(async (file) => [file, await digest(file)] as const)),
  );
  await writeFile(`${inputsFile}${temporary}`, JSON.stringify(inputs, null, 1));
  await rename(`${outfile}${temporary}`, outfile);
  await rename(`${inputsFile}${temporary}`, inputsFile);
}
