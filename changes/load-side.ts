/**
 * Loads one side of a comparison: a file (JSON or YAML), `REF:path` from git, or a git ref, whose
 * committed bundle (generated/openapi.json) is read. Errors name the side and what is wrong.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import type { OpenApiDocument } from "../model/document.ts";
import type { Side } from "./compare.ts";
import { UsageError } from "../tools/command.ts";
import { isObject } from "./schema-shape.ts";

/** Where a commit holds the bundle, relative to the repository root. */
export const COMMITTED_BUNDLE = "generated/openapi.json";

function git(args: string[], cwd: string): { ok: true; text: string } | { ok: false; error: string } {
  try {
    return {
      ok: true,
      text: execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 }),
    };
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    return { ok: false, error: (stderr || (error as Error).message).trim().split("\n")[0] ?? "" };
  }
}

function readText(spec: string, role: string, cwd: string): { source: string; text: string; yaml: boolean } {
  const file = resolve(cwd, spec);
  const isYaml = (name: string): boolean => /\.ya?ml$/i.test(name);
  if (existsSync(file)) {
    if (!statSync(file).isFile())
      throw new UsageError(`${role} ${spec}: is a folder; give a description file or a git ref`);
    return { source: spec, text: readFileSync(file, "utf8"), yaml: isYaml(file) };
  }
  if (spec.includes(":")) {
    const shown = git(["show", spec], cwd);
    if (!shown.ok)
      throw new UsageError(`${role} ${spec}: no such file, and git cannot show it as REF:path (${shown.error})`);
    return { source: spec, text: shown.text, yaml: isYaml(spec) };
  }
  if (!git(["rev-parse", "--verify", "--quiet", `${spec}^{commit}`], cwd).ok) {
    throw new UsageError(`${role} ${spec}: no such file, and not a git ref of the repository in ${cwd}`);
  }
  const shown = git(["show", `${spec}:${COMMITTED_BUNDLE}`], cwd);
  if (!shown.ok) {
    throw new UsageError(
      `${role} ${spec}: the commit has no ${COMMITTED_BUNDLE} (the bundle was not committed there); check it out, run npm run bundle and pass the file instead`,
    );
  }
  return { source: `${spec}:${COMMITTED_BUNDLE}`, text: shown.text, yaml: false };
}

/** Checks the parts of a description the comparison reads, naming the first that is wrong. */
function checkDescription(value: unknown, where: string): OpenApiDocument {
  if (!isObject(value)) throw new UsageError(`${where}: must be an OpenAPI document (a JSON object)`);
  if (typeof value.openapi !== "string" || !/^3\.1\.\d+$/.test(value.openapi)) {
    throw new UsageError(
      `${where}: openapi must be a 3.1.x version string, got ${JSON.stringify(value.openapi)}; this tool reads OpenAPI 3.1 only`,
    );
  }
  if (!isObject(value.info) || typeof value.info.version !== "string" || value.info.version === "") {
    throw new UsageError(`${where}: info.version must be a non-empty string`);
  }
  // OpenAPI 3.1 makes paths optional (a description of webhooks or components alone).
  if (value.paths !== undefined && !isObject(value.paths)) throw new UsageError(`${where}: paths must be an object`);
  if (value.components !== undefined && !isObject(value.components))
    throw new UsageError(`${where}: components must be an object`);
  return { ...value, paths: value.paths ?? {}, components: value.components ?? {} } as unknown as OpenApiDocument;
}

export function loadSide(spec: string, role: string, cwd = process.cwd()): Side {
  const { source, text, yaml } = readText(spec, role, cwd);
  let parsed: unknown;
  try {
    parsed = yaml ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${role} ${source}: not readable as ${yaml ? "YAML" : "JSON"} (${(error as Error).message.split("\n")[0]})`,
    );
  }
  return { source, doc: checkDescription(parsed, `${role} ${source}`) };
}
