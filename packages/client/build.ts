/**
 * Builds the typed client as a standalone npm package: ESM JavaScript and `.d.ts` of the generated
 * client, price tables, media-input check and types and of the runtime they import, a package.json
 * whose exports map names the client (`.`), its optional parts, each a separate entry so that a
 * client without it does not ship it (`./prices`, `./limiter`, `./media-inputs`), and the bundled
 * description it was generated from (`./openapi.json`, `./openapi.yaml`), a README and a CHANGELOG.
 * It imports nothing outside itself but its one dependency, openapi-fetch. Its version is the one
 * the release gives it (semver, from the change report); the description's `info.version` is the
 * service's interface version, which the client exports as `apiVersion`.
 *
 * The client is generated afresh from the bundle directory given, so that a bundle made with
 * MEDIA_SLUG_MAP gives a package whose types and routes carry the real slugs. `npm run package`
 * (packages/pack.ts) builds and packs it.
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { generate as generateClient } from "../../generators/client.ts";
import { generate as generateCosts } from "../../generators/costs.ts";
import { generate as generateTypes } from "../../generators/types.ts";
import { loadBundle } from "../../model/document.ts";
import { readServiceModel, type ServiceModel } from "../../model/service-model.ts";
import {
  CLIENT_PACKAGE,
  COMMON_FILES,
  DESCRIPTION_EXPORTS,
  finishPackage,
  type BuiltPackage,
  type PackageRelease,
} from "../shared/package-build.ts";
import { packageReadme } from "./readme.ts";

export const PACKAGE_NAME = CLIENT_PACKAGE;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The runtime folders the generated modules import, copied as they are. */
const RUNTIME = ["runtime/client", "runtime/costs"];
/** The generated modules of the package; all but the types are entry points. */
const GENERATED = [
  "generated/client.ts",
  "generated/costs.ts",
  "generated/media-inputs.ts",
  "generated/models.ts",
  "generated/types.ts",
];
/** The entry points of the package: export name -> module (without its extension). */
const ENTRIES = {
  ".": "generated/client",
  "./prices": "generated/costs",
  "./limiter": "runtime/client/limiter",
  "./media-inputs": "generated/media-inputs",
  "./models": "generated/models",
};

/** Relative `./x.ts` specifiers become `./x.js`: tsc rewrites them in JavaScript, not in declarations. */
const jsSpecifiers = (text: string): string =>
  text.replace(/((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']+)\.ts(["'])/g, "$1$2.js$3");

/** The client entry also names the interface version it speaks, which a package version does not say. */
const apiVersionExport = (model: ServiceModel): string =>
  `\n/** The service's interface version (the description's \`info.version\`) this client was generated from. */\nexport const apiVersion = ${JSON.stringify(model.version)};\n`;

/** The generated modules of `model`, written into `dir` beside a copy of the runtime. */
async function stageSources(model: ServiceModel, dir: string): Promise<void> {
  const generated = { ...(await generateTypes(model)), ...generateClient(model), ...generateCosts(model) };
  for (const file of GENERATED) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    const text = generated[file];
    if (text === undefined) throw new Error(`the generators no longer produce ${file}, an entry of the client package`);
    writeFileSync(join(dir, file), file === `${ENTRIES["."]}.ts` ? text + apiVersionExport(model) : text);
  }
  for (const folder of RUNTIME) {
    mkdirSync(join(dir, folder), { recursive: true });
    for (const name of readdirSync(join(ROOT, folder)).filter((file) => file.endsWith(".ts")))
      copyFileSync(join(ROOT, folder, name), join(dir, folder, name));
  }
  // ES modules, as in the package; openapi-fetch's types resolve from the project's node_modules.
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
}

/** Compiles the staged sources into `outDir`; throws with tsc's messages on any error. */
function compile(sourceDir: string, outDir: string): void {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: [],
    strict: true,
    declaration: true,
    rewriteRelativeImportExtensions: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    noEmitOnError: true,
    rootDir: sourceDir,
    outDir,
  };
  const program = ts.createProgram(
    Object.values(ENTRIES).map((file) => join(sourceDir, `${file}.ts`)),
    options,
  );
  const result = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
  if (diagnostics.length > 0) {
    const host = {
      getCanonicalFileName: (name: string) => name,
      getCurrentDirectory: () => sourceDir,
      getNewLine: () => "\n",
    };
    throw new Error(`the client package does not compile:\n${ts.formatDiagnostics(diagnostics, host)}`);
  }
  for (const file of ts.sys.readDirectory(outDir, [".d.ts"]))
    writeFileSync(file, jsSpecifiers(readFileSync(file, "utf8")));
}

function packageJson(model: ServiceModel, version: string, openapiFetchVersion: string): object {
  const entry = (file: string) => ({ types: `./dist/${file}.d.ts`, default: `./dist/${file}.js` });
  return {
    name: PACKAGE_NAME,
    version,
    description: `Typed client of the asynchronous media-generation service, interface version ${model.version}: typed calls for every operation, polling, typed errors, retries, and an offline quote.`,
    type: "module",
    sideEffects: false,
    exports: {
      ...Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, entry(file)])),
      ...DESCRIPTION_EXPORTS,
    },
    types: "./dist/generated/client.d.ts",
    files: ["dist", ...COMMON_FILES],
    engines: { node: ">=20" },
    dependencies: { "openapi-fetch": openapiFetchVersion },
  };
}

/** Builds the package of the bundle in `bundleDir` (openapi.json and openapi.yaml) into `outDir`, replacing it. */
export async function buildClientPackage(
  bundleDir: string,
  outDir: string,
  release: PackageRelease,
): Promise<BuiltPackage> {
  const model = readServiceModel(loadBundle(join(bundleDir, "openapi.json")));
  const staging = mkdtempSync(join(tmpdir(), "client-package-"));
  try {
    await stageSources(model, staging);
    rmSync(outDir, { recursive: true, force: true });
    compile(staging, join(outDir, "dist"));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const { version: openapiFetchVersion } = JSON.parse(
    readFileSync(join(ROOT, "node_modules/openapi-fetch/package.json"), "utf8"),
  ) as { version: string };
  const manifest = packageJson(model, release.version, openapiFetchVersion) as { name: string; version: string };
  return finishPackage(
    bundleDir,
    outDir,
    manifest,
    packageReadme(model, manifest.name, manifest.version),
    release.changelog,
  );
}
