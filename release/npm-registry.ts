/**
 * The npm registry a release publishes to, through npm itself: the one `--registry URL` names, or
 * npm's own configuration (.npmrc, npm_config_registry) when none is given, with the credentials
 * npm has for it. Errors are one line naming the registry and npm's own error. Credentials in a
 * URL (`http://user:pass@host/`) are never shown: every text the release prints goes through
 * `redacted`.
 */
import { execFile } from "node:child_process";
import { basename } from "node:path";
import { promisify } from "node:util";
import { UsageError } from "../tools/command.ts";

const run = promisify(execFile);

export interface Registry {
  /** undefined: npm's own configuration. */
  readonly url: string | undefined;
}

/** `text` with the credentials of every URL in it replaced: `http://user:pass@host/` → `http://***@host/`. */
export const redacted = (text: string): string => text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, "$1***@");

/** The registry of `--registry URL`, checked: an http(s) URL. */
export function registryOf(url: string | undefined): Registry {
  if (url === undefined) return { url };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--registry must be an http(s) URL, got ${JSON.stringify(redacted(url))}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new UsageError(`--registry must be an http(s) URL, got ${JSON.stringify(redacted(url))}`);
  return { url: parsed.href };
}

export const registryName = (registry: Registry): string =>
  registry.url === undefined ? "the registry of npm's configuration" : redacted(registry.url);

const registryArgs = (registry: Registry): string[] => (registry.url === undefined ? [] : ["--registry", registry.url]);

/**
 * npm's own message of a failed call, credentials redacted: the summary of its JSON error, or its
 * first error line that says what happened (not its code, nor the `npm notice` lines publish prints
 * about the tarball first).
 */
export function npmError(error: unknown): string {
  // Stryker disable next-line StringLiteral: equivalent: any default that is neither JSON nor an npm error line reads as none
  const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
  try {
    const summary = (JSON.parse(stdout) as { error?: { summary?: string } }).error?.summary;
    if (summary) return redacted(summary.split("\n")[0]!);
  } catch {
    // not npm's JSON: read its error lines
  }
  const errors = stderr
    .split("\n")
    .flatMap((line) => (/^npm (?:error|ERR!)/.test(line) ? [line.replace(/^npm (?:error|ERR!) ?/, "").trim()] : []));
  const said = errors.find((line) => line !== "" && !/^(?:code|syscall|errno|A complete log)\b/.test(line));
  return redacted(said ?? (error as Error).message.split("\n")[0]!);
}

/**
 * npm's error code of a failed call: from its JSON error (`--json`), which it prints whatever the
 * log level, else from its `npm error code` line (absent under `npm run -s`, whose silent log level
 * the npm it runs inherits).
 */
function npmCode(error: unknown): string | undefined {
  // Stryker disable next-line StringLiteral: equivalent: any default that is neither JSON nor an npm error line reads as none
  const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
  try {
    const code = (JSON.parse(stdout) as { error?: { code?: unknown } }).error?.code;
    if (typeof code === "string") return code;
  } catch {
    // not npm's JSON: read its error lines
  }
  return /^npm (?:error|ERR!) code (\S+)/m.exec(stderr)?.[1];
}

/** Whether the registry already has `name@version`; a package it has never seen has none. */
export async function isPublished(registry: Registry, name: string, version: string): Promise<boolean> {
  try {
    const { stdout } = await run("npm", ["view", `${name}@${version}`, "version", "--json", ...registryArgs(registry)]);
    return stdout.trim() !== "";
  } catch (error) {
    if (npmCode(error) === "E404") return false;
    throw new UsageError(`cannot ask ${registryName(registry)} for ${name}@${version}: ${npmError(error)}`);
  }
}

/** Publishes a tarball; the registry refuses a version it has, which isPublished asks first. */
export async function publish(registry: Registry, tarball: string): Promise<void> {
  try {
    await run("npm", ["publish", tarball, "--access", "public", "--ignore-scripts", ...registryArgs(registry)]);
  } catch (error) {
    throw new UsageError(`${registryName(registry)} refused ${basename(tarball)}: ${npmError(error)}`);
  }
}

/**
 * Who npm is logged in as at the registry (`npm whoami`): a publish needs a login, so a release
 * asks before it writes anything. No login is a UsageError saying how to log in.
 */
export async function loggedInAs(registry: Registry): Promise<string> {
  try {
    const { stdout } = await run("npm", ["whoami", "--json", ...registryArgs(registry)]);
    return String(JSON.parse(stdout));
  } catch (error) {
    const said = npmError(error);
    const at = registry.url === undefined ? "" : ` --registry ${redacted(registry.url)}`;
    if (["ENEEDAUTH", "E401"].includes(npmCode(error) ?? ""))
      throw new UsageError(
        `${registryName(registry)} has no login for npm here (${said}); log in with npm login${at} (npm adduser${at} makes an account), or put a token for it in .npmrc; nothing was built, written or published`,
      );
    throw new UsageError(`cannot ask ${registryName(registry)} who is logged in: ${said}`);
  }
}
