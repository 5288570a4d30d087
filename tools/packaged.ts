/**
 * What changes when the tools run from the tools package (packages/tools/) instead of this
 * repository: how a person starts a command, and (model/runtime-files.ts) where the files they
 * read at run time are and that Prism is not there. Here TOOLS_PACKAGE is not defined and commands
 * are npm scripts.
 */
import { TOOLS_PACKAGE_DEFINE } from "../model/runtime-files.ts";

export {
  IN_TOOLS_PACKAGE,
  RUNTIME_FILES,
  runtimeFile,
  type RuntimeFile,
  type ToolsPackageDefine,
} from "../model/runtime-files.ts";

/** How a person runs `command` with options: `npm run sandbox --` here, `npx media-service sandbox` from the package. */
export function commandLine(command: string): string {
  return TOOLS_PACKAGE_DEFINE ? `npx ${TOOLS_PACKAGE_DEFINE.bin} ${command}` : `npm run ${command} --`;
}
