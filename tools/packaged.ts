/**
 * What changes when the tools run from the tools package (packages/tools/) instead of this
 * repository: where the files they read at run time are, how a person starts a command, and that
 * Prism is not there. The
 * package's build bundles the code into one file with esbuild and defines TOOLS_PACKAGE: its bin's
 * name and each file's path relative to that bundle. Here TOOLS_PACKAGE is not defined: each file is
 * where it lives in the repository, and commands are npm scripts.
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
] as const;
export type RuntimeFile = (typeof RUNTIME_FILES)[number];

/** The esbuild define of the tools package. */
export interface ToolsPackageDefine {
  bin: string;
  files: Record<RuntimeFile, string>;
}

declare const TOOLS_PACKAGE: ToolsPackageDefine | undefined;
// typeof, because outside the package's bundle the name is not defined at all.
const packaged = typeof TOOLS_PACKAGE === "undefined" ? undefined : TOOLS_PACKAGE;

/** True in the tools package, which leaves out what only this repository's dev dependencies give (Prism). */
export const IN_TOOLS_PACKAGE = packaged !== undefined;

/** The absolute path of a runtime file, in the repository or in the installed tools package. */
export function runtimeFile(file: RuntimeFile): string {
  return fileURLToPath(new URL(packaged ? packaged.files[file] : `../${file}`, import.meta.url));
}

/** How a person runs `command` with options: `npm run sandbox --` here, `npx media-service sandbox` from the package. */
export function commandLine(command: string): string {
  return packaged ? `npx ${packaged.bin} ${command}` : `npm run ${command} --`;
}
