/** `npm run release` run in the test's process, in `cwd`: its exit status and what it printed. */
import { type PackPackages, runRelease } from "../../release/command.ts";

export async function releaseIn(
  cwd: string,
  argv: readonly string[],
  pack?: PackPackages,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runRelease(
    argv,
    {
      cwd,
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
    },
    pack,
  );
  return { code, stdout: out.join(""), stderr: err.join("") };
}
