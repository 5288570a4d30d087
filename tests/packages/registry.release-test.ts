/**
 * The release as CI runs it, against a real npm registry on 127.0.0.1 (Verdaccio, no uplinks), on
 * a copy of the project's releases in a temporary folder: the workflow's release command publishes
 * the packages' first versions; a consumer project installs the client by range and the tools by
 * version from the registry, type-checks a strict nodenext program and runs it against the sandbox
 * the installed tools start; a changed description is released as a patch; a planted breaking
 * change is refused until acknowledged, then recorded without publishing and published by the
 * workflow's command as the next major version; the consumer's range still resolves to 1.x.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify as toYaml } from "yaml";
import { slugMapFile } from "../../model/slug-map.ts";
import { BIN } from "../../packages/tools/commands.ts";
import { CLIENT_PACKAGE, TOOLS_PACKAGE } from "../../packages/shared/package-build.ts";
import { bundleDescription } from "../../tools/bundle-description.ts";
import { PLANTED } from "../changes/planted.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { startLocalRegistry, type LocalRegistry } from "../support/local-registry.ts";
import { pack, PROJECT, run, workflowCommands } from "../support/packages.ts";
import { output, until } from "../support/processes.ts";

const BREAKING = PLANTED.find((kind) => kind.kind === "response enum value added")!;
const BREAKING_ID = BREAKING.changes[0]![0];
/** The project's acknowledged breaking changes since the last recorded interface version: the planted one comes on top of them. */
const PROJECT_ACKS = (JSON.parse(readFileSync(join(PROJECT, "changes/acknowledged.json"), "utf8")) as { acknowledged: Array<{ id: string; reason: string }> }).acknowledged;
const PLANTED_ACK = { id: BREAKING_ID, reason: "Jobs may now wait in a queue." };

let registry: LocalRegistry;
let work: string;
/** The project folder the release works on: a copy of releases/, a bundle, the acknowledgements. */
let root: string;
/** npm's environment for every command: no npm_config_* of the test's own npm, a cache of its own. */
let env: NodeJS.ProcessEnv;

/** The workflow's release command, run as CI runs it (with the registry in $NPM_REGISTRY), on `root`. */
async function release(...extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const command = `${workflowCommands().at(-1)} --root ${JSON.stringify(root)} ${extra.join(" ")}`;
  return run("bash", ["-c", command], { cwd: PROJECT, env: { ...env, NPM_REGISTRY: registry.url, npm_config_userconfig: registry.npmrc } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

/** The release command's own lines of stdout (npm run prints its banner first). */
const releaseLines = (stdout: string) => stdout.split("\n").filter((line) => line.startsWith("release: "));

/** The release command's own lines of stderr (npm may warn about its own config). */
const ownLines = (stderr: string) => stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("npm warn"));

/** The versions of a package the registry holds. */
async function published(name: string): Promise<string[]> {
  const { stdout } = await run("npm", ["view", name, "versions", "--json", "--registry", registry.url], { env });
  return [JSON.parse(stdout) as string | string[]].flat();
}

/** Bundles the description `yaml` (a copy of openapi/) into the project's generated/, under the slug map in effect. */
const bundle = (yaml: string) => bundleDescription(yaml, join(root, "generated"), slugMapFile());

/** Writes a bundle document into generated/ as JSON and YAML. */
function writeBundle(doc: object): void {
  writeFileSync(join(root, "generated/openapi.json"), `${JSON.stringify(doc, null, 2)}\n`);
  writeFileSync(join(root, "generated/openapi.yaml"), toYaml(doc));
}

const readRoot = (file: string) => readFileSync(join(root, file), "utf8");

beforeAll(async () => {
  registry = await startLocalRegistry();
  work = mkdtempSync(join(tmpdir(), "release-registry-test-"));
  root = join(work, "project");
  env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_/i.test(key)));
  writeFileSync(join(work, "empty-npmrc"), "");
  Object.assign(env, { npm_config_cache: join(work, "npm-cache"), npm_config_userconfig: join(work, "empty-npmrc"), npm_config_update_notifier: "false" });
  cpSync(join(PROJECT, "releases"), join(root, "releases"), { recursive: true });
  cpSync(join(PROJECT, "openapi"), join(work, "openapi"), { recursive: true });
  mkdirSync(join(root, "changes"));
  // The project's acknowledgements: its description may hold accepted breaking changes since the last recorded release.
  cpSync(join(PROJECT, "changes/acknowledged.json"), join(root, "changes/acknowledged.json"));
  mkdirSync(join(root, "docs"));
  mkdirSync(join(root, "generated"));
  await bundle(join(work, "openapi/openapi.yaml"));
  // The client's dependencies, which a registry with no uplinks holds only when published to it.
  const dependencies = await pack([join(PROJECT, "node_modules/openapi-fetch"), join(PROJECT, "node_modules/openapi-typescript-helpers")], work);
  for (const tarball of dependencies) await run("npm", ["publish", tarball, "--ignore-scripts"], { env: { ...env, npm_config_userconfig: registry.npmrc } });
}, 300_000);

afterAll(async () => {
  await registry?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("releasing to a local npm registry", () => {
  const consumer = () => join(work, "consumer");
  let sandbox: ChildProcess | undefined;

  afterAll(() => {
    if (sandbox?.exitCode === null) sandbox.kill("SIGKILL");
  });

  it("the first release publishes both packages as 1.0.0, and records them", async () => {
    const { code, stdout, stderr } = await release();
    console.log(`the first release:\n${releaseLines(stdout).join("\n")}`);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`release: ${CLIENT_PACKAGE} (none) → 1.0.0, ${TOOLS_PACKAGE} (none) → 1.0.0 (first: the first release of the packages)`);
    expect(stdout).toMatch(/release: published packages\/dist\/media-service-client-1\.0\.0\.tgz to http:\/\/127\.0\.0\.1:\d+\//);
    expect(await published(CLIENT_PACKAGE)).toEqual(["1.0.0"]);
    expect(await published(TOOLS_PACKAGE)).toEqual(["1.0.0"]);
    const records = JSON.parse(readRoot("releases/packages.json")) as { releases: Array<{ versions: Record<string, string>; bump: string }> };
    expect(records.releases).toEqual([expect.objectContaining({ versions: { [CLIENT_PACKAGE]: "1.0.0", [TOOLS_PACKAGE]: "1.0.0" }, bump: "first" })]);
    expect(readRoot("packages/client/CHANGELOG.md")).toContain("\n## 1.0.0\n");
    expect(readRoot("docs/changelog.md")).toContain("| 1.0.0 | 1.0.0 | 2026-06-20 | first |");
  });

  it("the same bundle again is nothing to release, and a version the registry has is refused, writing nothing", async () => {
    const again = await release();
    expect(again.code, again.stderr).toBe(0);
    expect(releaseLines(again.stdout)).toEqual([
      `release: nothing to release: generated/openapi.json is what ${CLIENT_PACKAGE}@1.0.0, ${TOOLS_PACKAGE}@1.0.0 were built from, and ${registry.url} has them`,
    ]);
    const records = readRoot("releases/packages.json");
    const page = readRoot("docs/changelog.md");
    // Without its record, the repository would release 1.0.0 again, which the registry has.
    rmSync(join(root, "releases/packages.json"));
    const refused = await release();
    expect(refused.code).toBe(2);
    expect(ownLines(refused.stderr)).toEqual([
      `release: ${CLIENT_PACKAGE}@1.0.0 is already in ${registry.url}, and a published version is never replaced; record the releases published since (releases/packages.json) or change the description`,
    ]);
    expect(existsSync(join(root, "releases/packages.json"))).toBe(false);
    expect(readRoot("docs/changelog.md")).toBe(page);
    writeFileSync(join(root, "releases/packages.json"), records);
  });

  it("a consumer installs the client by range and the tools by version from the registry, type-checks a strict nodenext program and runs it against the installed sandbox", async () => {
    mkdirSync(consumer());
    writeFileSync(join(consumer(), "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    writeFileSync(join(consumer(), ".npmrc"), `registry=${registry.url}\n`);
    const install = await run("npm", ["install", `${CLIENT_PACKAGE}@^1`, `${TOOLS_PACKAGE}@1.0.0`, "--no-audit", "--no-fund"], { cwd: consumer(), env });
    console.log(`consumer: npm install ${CLIENT_PACKAGE}@^1 ${TOOLS_PACKAGE}@1.0.0\n${install.stdout}`);
    const lock = JSON.parse(readFileSync(join(consumer(), "package-lock.json"), "utf8")) as { packages: Record<string, { version: string; resolved: string }> };
    expect(lock.packages[`node_modules/${CLIENT_PACKAGE}`]).toMatchObject({ version: "1.0.0", resolved: `${registry.url}${CLIENT_PACKAGE}/-/client-1.0.0.tgz` });
    expect(lock.packages[`node_modules/${TOOLS_PACKAGE}`]).toMatchObject({ version: "1.0.0", resolved: `${registry.url}${TOOLS_PACKAGE}/-/tools-1.0.0.tgz` });
    const resolved = Object.values(lock.packages).flatMap((entry) => (entry.resolved ? [entry.resolved] : []));
    expect(resolved.length).toBe(4);
    expect(resolved.filter((url) => !url.startsWith(registry.url))).toEqual([]);

    writeFileSync(
      join(consumer(), "consumer.ts"),
      `import { apiVersion, createClient } from "${CLIENT_PACKAGE}";
import { models } from "${CLIENT_PACKAGE}/models";

export async function run(baseUrl: string, apiKey: string) {
  const client = createClient({ apiKey, baseUrl, pollIntervalMs: { image: 50 } });
  const { job, created } = await client.image.createAndWait(models["I-A"].slug, { prompt: "A lighthouse at dawn", num_images: 2 });
  const version: string = apiVersion;
  return { apiVersion: version, model: created.model, status: job.status, images: job.images.length };
}
`,
    );
    const compilerOptions = { strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, skipLibCheck: false, skipDefaultLibCheck: true, target: "ES2022", lib: ["ES2022", "DOM"], types: [], module: "NodeNext", moduleResolution: "NodeNext", outDir: "out" };
    writeFileSync(join(consumer(), "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["consumer.ts"] }));
    const tsc = await run(join(PROJECT, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], { cwd: consumer() }).then(() => "", (error: { stdout: string }) => error.stdout);
    expect(tsc).toBe("");

    const tools = join(consumer(), "node_modules", TOOLS_PACKAGE);
    const { apiKey } = JSON.parse(readFileSync(join(tools, "conformance/targets/sandbox.json"), "utf8")) as { apiKey: string };
    writeFileSync(join(consumer(), "sandbox.json"), JSON.stringify(fastSandboxConfig(JSON.parse(readFileSync(join(tools, "sandbox/default-config.json"), "utf8")) as object)));
    sandbox = spawn("npx", [BIN, "sandbox", "--port", "0", "--config", "sandbox.json"], { cwd: consumer(), env, stdio: ["ignore", "pipe", "pipe"] });
    const text = output(sandbox);
    const url = await until(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text.stdout())?.[1], `the sandbox's address (${text.stderr()})`, 60_000);
    const script = `import("./out/consumer.js").then((m) => m.run(${JSON.stringify(url)}, ${JSON.stringify(apiKey)})).then((r) => console.log(JSON.stringify(r)))`;
    const { stdout } = await run("node", ["--input-type=module", "-e", script], { cwd: consumer(), env });
    const interfaceVersion = (JSON.parse(readRoot("generated/openapi.json")) as { info: { version: string } }).info.version;
    expect(JSON.parse(stdout)).toEqual({ apiVersion: interfaceVersion, model: expect.any(String), status: "succeeded", images: 2 });
    sandbox.kill("SIGTERM");
  });

  it("a changed description is released as a patch: 1.0.1, installable from the registry", async () => {
    const started = performance.now();
    const yaml = join(work, "openapi/openapi.yaml");
    const text = readFileSync(yaml, "utf8");
    const sentence = "The service generates media from prompts and input media.";
    expect(text).toContain(sentence);
    writeFileSync(yaml, text.replace(sentence, "The service generates media, asynchronously, from prompts and input media."));
    await bundle(yaml);
    const { code, stdout, stderr } = await release();
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`release: ${CLIENT_PACKAGE} 1.0.0 → 1.0.1, ${TOOLS_PACKAGE} 1.0.0 → 1.0.1 (patch: descriptions, examples or documentation only; no change for client code)`);
    expect(await published(CLIENT_PACKAGE)).toEqual(["1.0.0", "1.0.1"]);
    console.log(`figure: from a changed description to an installable package on the local registry: ${Math.round(performance.now() - started)} ms (bundle, release of both packages, npm view)`);
  });

  it("a planted breaking change is refused until acknowledged; --dry-run says 2.0.0 and writes nothing; --no-publish records it, and the release publishes the recorded 2.0.0", async () => {
    const doc = JSON.parse(readRoot("generated/openapi.json")) as { info: { version: string } };
    BREAKING.plant(doc);
    doc.info.version = "2026-07-01";
    writeBundle(doc);
    const refused = await release();
    expect(refused.code).toBe(2);
    expect(ownLines(refused.stderr)).toEqual(["release: 1 breaking change(s) since 2026-06-20 are not acknowledged in changes/acknowledged.json; npm run diff lists them with their ids"]);

    writeFileSync(join(root, "changes/acknowledged.json"), JSON.stringify({ acknowledged: [...PROJECT_ACKS, PLANTED_ACK] }));
    const records = readRoot("releases/packages.json");
    const dry = await release("--dry-run");
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`release: ${CLIENT_PACKAGE} 1.0.1 → 2.0.0, ${TOOLS_PACKAGE} 1.0.1 → 2.0.0 (major: 1 breaking change(s) for client code), interface version 2026-07-01`);
    expect(dry.stdout).toContain('may now be "queued". **What to do:**');
    expect(dry.stdout).toContain("*Accepted:* Jobs may now wait in a queue.");
    expect(readRoot("releases/packages.json")).toBe(records);
    expect(existsSync(join(root, "releases/2026-07-01"))).toBe(false);

    // Recorded in the branch without publishing, as the guide says; CI then publishes what is recorded.
    const recorded = await release("--no-publish");
    console.log(`the breaking release, recorded:\n${releaseLines(recorded.stdout).join("\n")}`);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stdout).toContain("release: wrote releases/2026-07-01");
    expect(recorded.stdout).toContain("release: packed packages/dist/media-service-tools-2.0.0.tgz");
    expect(await published(CLIENT_PACKAGE)).toEqual(["1.0.0", "1.0.1"]);
    const { code, stdout, stderr } = await release();
    expect(code, stderr).toBe(0);
    expect(releaseLines(stdout)).toEqual([
      `release: publishing the recorded ${CLIENT_PACKAGE}@2.0.0, ${TOOLS_PACKAGE}@2.0.0, which ${registry.url} lacks`,
      `release: published packages/dist/media-service-client-2.0.0.tgz to ${registry.url}`,
      `release: published packages/dist/media-service-tools-2.0.0.tgz to ${registry.url}`,
    ]);
    expect(await published(CLIENT_PACKAGE)).toEqual(["1.0.0", "1.0.1", "2.0.0"]);
    expect(await published(TOOLS_PACKAGE)).toEqual(["1.0.0", "1.0.1", "2.0.0"]);
    expect(JSON.parse(readRoot("releases/2026-07-01/acknowledged.json"))).toEqual({ acknowledged: [...PROJECT_ACKS, PLANTED_ACK] });
    const changelog = readRoot("packages/client/CHANGELOG.md");
    console.log(`packages/client/CHANGELOG.md after the releases:\n${changelog}`);
    expect(changelog.indexOf("## 2.0.0")).toBeLessThan(changelog.indexOf("## 1.0.1"));
    expect(changelog).toContain("Interface version `2026-07-01` · **major**: 1 breaking change(s) for client code.");
    expect(changelog).toContain("*Accepted:* Jobs may now wait in a queue.");
    // Release notes are for readers: change ids stay in the JSON report.
    expect(changelog).not.toContain(BREAKING_ID);
    expect(readRoot("docs/changelog.md")).toContain("## Changes from 2026-06-20 to 2026-07-01");
  });

  it("the consumer's ^1 range still resolves to 1.x: the patch, not 2.0.0", async () => {
    await run("npm", ["install", `${CLIENT_PACKAGE}@^1`, "--no-audit", "--no-fund"], { cwd: consumer(), env });
    const installed = JSON.parse(readFileSync(join(consumer(), "node_modules", CLIENT_PACKAGE, "package.json"), "utf8")) as { version: string };
    expect(installed.version).toBe("1.0.1");
    const { stdout } = await run("npm", ["view", `${CLIENT_PACKAGE}@^1`, "version", "--json"], { cwd: consumer(), env });
    expect([JSON.parse(stdout) as string | string[]].flat()).toEqual(["1.0.0", "1.0.1"]);
  });
});
