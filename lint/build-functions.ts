import { readFile, rename } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

const entry = fileURLToPath(new URL("./spectral/house-rules.ts", import.meta.url));
const outfile = fileURLToPath(new URL("./.functions/house-rules.js", import.meta.url));

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

/**
 * Compiles the TypeScript house rules into the JavaScript ruleset .spectral.yaml extends. Packages
 * stay imports (Spectral resolves them from node_modules); our own modules are inlined. Written
 * beside the target and renamed, so a concurrent load never reads half a file.
 */
export async function buildSpectralFunctions(): Promise<void> {
  const temporary = `${outfile}.${process.pid}.tmp`;
  await build({ entryPoints: [entry], outfile: temporary, bundle: true, packages: "external", format: "esm", platform: "node", target: "node20", logLevel: "error", plugins: [sourceUrls] });
  await rename(temporary, outfile);
}
