/**
 * Where the files the tools read at run time are (the bundled description first of all, which the
 * model loads): in this repository, each where it lives; in the tools package (packages/tools/),
 * whose build bundles the code into one file with esbuild and defines TOOLS_PACKAGE, each at its
 * path relative to that bundle. Kept with the model, which every tool reads, so that the model
 * depends on nothing above it.
 */
import { fileURLToPath } from "node:url";

/** The files the tools read, or point a person to, at run time, by their path in this repository. */
export const RUNTIME_FILES = [
  "generated/openapi.json",
  "generated/openapi.yaml",
  "sandbox/default-config.json",
  "sandbox/README.md",
  "conformance/README.md",
  "conformance/targets/sandbox.json",
  "generated/rules.json",
] as const;
export type RuntimeFile = (typeof RUNTIME_FILES)[number];

/** The esbuild define of the tools package. */
export interface ToolsPackageDefine {
  bin: string;
  files: Record<RuntimeFile, string>;
}

declare const TOOLS_PACKAGE: ToolsPackageDefine | undefined;
// typeof, because outside the package's bundle the name is not defined at all.
export const TOOLS_PACKAGE_DEFINE = typeof TOOLS_PACKAGE === "undefined" ? undefined : TOOLS_PACKAGE;

/** True in the tools package, which leaves out what only this repository's dev dependencies give (Prism). */
export const IN_TOOLS_PACKAGE = TOOLS_PACKAGE_DEFINE !== undefined;

/** The absolute path of a runtime file, in the repository or in the installed tools package. */
export function runtimeFile(file: RuntimeFile): string {
  return fileURLToPath(
    new URL(TOOLS_PACKAGE_DEFINE ? TOOLS_PACKAGE_DEFINE.files[file] : `../${file}`, import.meta.url),
  );
}
