/** Running `npm run sandbox`'s command (sandbox/cli.ts) as npm runs it, for cli.e2e.ts. */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { output } from "../support/processes.ts";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[]): Promise<Ended> {
  const child = spawn(process.execPath, ["--import", "tsx", "sandbox/cli.ts", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const text = output(child);
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout: text.stdout(), stderr: text.stderr() };
}

/** Lines of stderr that are the sandbox's own (npm may warn about its own config). */
export const ownLines = (stderr: string) =>
  stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("npm warn"));
