/**
 * The release as CI runs it, against a real npm registry on 127.0.0.1 (Verdaccio, no uplinks), on
 * a copy of the project's releases in a temporary folder: the workflow's release command publishes
 * the packages' first versions; a consumer project installs the client by range and the tools by
 * version from the registry, type-checks a strict nodenext program and runs it against the sandbox
 * the installed tools start. Then three releases in a row: a compatible change (1.1.0), a planted
 * breaking change refused until acknowledged, recorded without publishing and published by the
 * workflow's command (2.0.0), and a text-only change (2.0.1). After each, the changelog in the
 * tarball, the committed one and the docs page are the same text and diff:check passes; the
 * consumer installing by range gets what the notes promise: ^1 the new field, ^2 the removed value
 * refused at compile time.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify as toYaml } from "yaml";
import { slugMapFile } from "../../model/slug-map.ts";
import { CLIENT_PACKAGE, MCP_PACKAGE, TOOLS_PACKAGE } from "../../packages/shared/package-build.ts";
import { bundleDescription } from "../../tools/bundle-description.ts";
import { PLANTED } from "../changes/planted.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { startLocalRegistry, type LocalRegistry } from "../support/local-registry.ts";
import { pack, PROJECT, run, workflowCommands } from "../support/packages.ts";
import { output, until } from "../support/processes.ts";

const COMPATIBLE = PLANTED.find((kind) => kind.kind === "response field added")!;
const BREAKING = PLANTED.find((kind) => kind.kind === "request enum value removed")!;
const BREAKING_ID = BREAKING.changes[0]![0];
/** The project's pending acknowledgements: its first release here ships (and consumes) them. */
const PROJECT_ACKS = (
  JSON.parse(readFileSync(join(PROJECT, "changes/acknowledged.json"), "utf8")) as {
    acknowledged: Array<{ id: string; reason: string }>;
  }
).acknowledged;
const PLANTED_ACK = { id: BREAKING_ID, reason: "I-A no longer renders 21:9; use 16:9." };

let registry: LocalRegistry;
let work: string;
/** The project folder the release works on: a copy of releases/, a bundle, the acknowledgements. */
let root: string;
/** npm's environment for every command: no npm_config_* of the test's own npm, a cache of its own. */
let env: NodeJS.ProcessEnv;

/** The workflow's release command, run as CI runs it (with the registry in $NPM_REGISTRY), on `root`. */
async function release(...extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const command = `${workflowCommands().at(-1)} --root ${JSON.stringify(root)} ${extra.join(" ")}`;
  return run("bash", ["-c", command], {
    cwd: PROJECT,
    env: { ...env, NPM_REGISTRY: registry.url, npm_config_userconfig: registry.npmrc },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

/** The release command's own lines of stdout (npm run prints its banner first). */
const releaseLines = (stdout: string) => stdout.split("\n").filter((line) => line.startsWith("release: "));

/** The release command's own lines of stderr (npm may warn about its own config). */
const ownLines = (stderr: string) =>
  stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("npm warn"));

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

/** The CHANGELOG.md inside a packed tarball. */
const packedChangelog = async (tarball: string) =>
  (await run("tar", ["-xzOf", join(root, tarball), "package/CHANGELOG.md"])).stdout;

/** After a release of `version`: the changelog in both tarballs, the committed ones and the docs page are one text, and diff:check passes on the project. */
async function expectOneStory(version: string): Promise<string> {
  const page = readRoot("docs/changelog.md");
  expect(page).toContain(`\n## ${version}\n`);
  expect(readRoot("packages/client/CHANGELOG.md")).toBe(page);
  expect(readRoot("packages/tools/CHANGELOG.md")).toBe(page);
  expect(await packedChangelog(`packages/dist/media-service-client-${version}.tgz`)).toBe(page);
  expect(await packedChangelog(`packages/dist/media-service-tools-${version}.tgz`)).toBe(page);
  // diff:check, as package.json runs it, on the project folder.
  for (const cli of ["changes/cli.ts", "release/cli.ts"])
    await run(join(PROJECT, "node_modules/.bin/tsx"), [join(PROJECT, cli), "--check", "--root", root], {
      cwd: PROJECT,
      env,
    });
  return page;
}

/** The notes of one release: its section of the changelog. */
function notesOf(page: string, version: string): string {
  const start = page.indexOf(`\n## ${version}\n`) + 1;
  const end = page.indexOf("\n## ", start);
  return page.slice(start, end === -1 ? undefined : end);
}

/** Type-checks `code` as consumer.ts in the consumer project: tsc's output, empty when it compiles. */
async function typeCheck(consumerDir: string, code: string): Promise<string> {
  writeFileSync(join(consumerDir, "check.ts"), code);
  const compilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    skipDefaultLibCheck: true,
    target: "ES2022",
    lib: ["ES2022", "DOM"],
    types: [],
    module: "NodeNext",
    moduleResolution: "NodeNext",
  };
  writeFileSync(join(consumerDir, "tsconfig.check.json"), JSON.stringify({ compilerOptions, files: ["check.ts"] }));
  return run(join(PROJECT, "node_modules/.bin/tsc"), ["-p", "tsconfig.check.json"], { cwd: consumerDir }).then(
    () => "",
    (error: { stdout: string }) => error.stdout,
  );
}

/** Installs the client by `range` into the consumer; the version installed. */
async function installClient(consumerDir: string, range: string): Promise<string> {
  await run("npm", ["install", `${CLIENT_PACKAGE}@${range}`, "--no-audit", "--no-fund"], { cwd: consumerDir, env });
  return (
    JSON.parse(readFileSync(join(consumerDir, "node_modules", CLIENT_PACKAGE, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;
}

beforeAll(async () => {
  registry = await startLocalRegistry();
  work = mkdtempSync(join(tmpdir(), "release-registry-test-"));
  root = join(work, "project");
  env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_/i.test(key)));
  writeFileSync(join(work, "empty-npmrc"), "");
  Object.assign(env, {
    npm_config_cache: join(work, "npm-cache"),
    npm_config_userconfig: join(work, "empty-npmrc"),
    npm_config_update_notifier: "false",
  });
  cpSync(join(PROJECT, "releases"), join(root, "releases"), { recursive: true });
  cpSync(join(PROJECT, "openapi"), join(work, "openapi"), { recursive: true });
  mkdirSync(join(root, "changes"));
  // The project's acknowledgements: its description may hold accepted breaking changes since the last recorded release.
  cpSync(join(PROJECT, "changes/acknowledged.json"), join(root, "changes/acknowledged.json"));
  mkdirSync(join(root, "docs"));
  mkdirSync(join(root, "generated"));
  await bundle(join(work, "openapi/openapi.yaml"));
  // The client's dependencies, which a registry with no uplinks holds only when published to it.
  const dependencies = await pack(
    [join(PROJECT, "node_modules/openapi-fetch"), join(PROJECT, "node_modules/openapi-typescript-helpers")],
    work,
  );
  for (const tarball of dependencies)
    await run("npm", ["publish", tarball, "--ignore-scripts"], {
      env: { ...env, npm_config_userconfig: registry.npmrc },
    });
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

  it("the first release publishes both packages as 1.0.0, records it with the acknowledgements it ships, and tells one story", async () => {
    const { code, stdout, stderr } = await release();
    console.log(`the first release:\n${releaseLines(stdout).join("\n")}`);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(
      `release: ${CLIENT_PACKAGE} (none) → 1.0.0, ${TOOLS_PACKAGE} (none) → 1.0.0, ${MCP_PACKAGE} (none) → 1.0.0 (first: the first release of the packages)`,
    );
    expect(stdout).toMatch(
      /release: published packages\/dist\/media-service-client-1\.0\.0\.tgz to http:\/\/127\.0\.0\.1:\d+\//,
    );
    expect(await published(CLIENT_PACKAGE)).toEqual(["1.0.0"]);
    expect(await published(TOOLS_PACKAGE)).toEqual(["1.0.0"]);
    const record = JSON.parse(readRoot("releases/1.0.0/release.json")) as {
      version: string;
      bump: string;
      comparedWith: string;
      changes: Array<{ id: string; acknowledged?: string }>;
    };
    expect(record).toMatchObject({ version: "1.0.0", bump: "first", comparedWith: "2026-06-20" });
    for (const ack of PROJECT_ACKS)
      expect(record.changes).toContainEqual(expect.objectContaining({ id: ack.id, acknowledged: ack.reason }));
    expect(JSON.parse(readRoot("changes/acknowledged.json"))).toEqual({ acknowledged: [] });
    await expectOneStory("1.0.0");
  });

  it("the same bundle again is nothing to release, and a version the registry has is refused, writing nothing", async () => {
    const again = await release();
    expect(again.code, again.stderr).toBe(0);
    expect(releaseLines(again.stdout)).toEqual([
      `release: nothing to release: generated/openapi.json is what ${CLIENT_PACKAGE}@1.0.0, ${TOOLS_PACKAGE}@1.0.0, ${MCP_PACKAGE}@1.0.0 were built from, and ${registry.url} has them`,
    ]);
    const record = readRoot("releases/1.0.0/release.json");
    const description = readRoot("releases/1.0.0/openapi.json");
    const page = readRoot("docs/changelog.md");
    // Without its record, the repository would release 1.0.0 again, which the registry has.
    rmSync(join(root, "releases/1.0.0"), { recursive: true });
    writeFileSync(join(root, "changes/acknowledged.json"), JSON.stringify({ acknowledged: PROJECT_ACKS }));
    const refused = await release();
    expect(refused.code).toBe(2);
    expect(ownLines(refused.stderr)).toEqual([
      `release: ${CLIENT_PACKAGE}@1.0.0 is already in ${registry.url}, and a published version is never replaced; record the releases published since (releases/) or change the description`,
    ]);
    expect(existsSync(join(root, "releases/1.0.0"))).toBe(false);
    expect(readRoot("docs/changelog.md")).toBe(page);
    mkdirSync(join(root, "releases/1.0.0"));
    writeFileSync(join(root, "releases/1.0.0/release.json"), record);
    writeFileSync(join(root, "releases/1.0.0/openapi.json"), description);
    writeFileSync(join(root, "changes/acknowledged.json"), JSON.stringify({ acknowledged: [] }));
  });

  it("a consumer installs the client by range and the tools by version from the registry, type-checks a strict nodenext program and runs it against the installed sandbox", async () => {
    mkdirSync(consumer());
    writeFileSync(
      join(consumer(), "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module" }),
    );
    writeFileSync(join(consumer(), ".npmrc"), `registry=${registry.url}\n`);
    const install = await run(
      "npm",
      ["install", `${CLIENT_PACKAGE}@^1`, `${TOOLS_PACKAGE}@1.0.0`, "--no-audit", "--no-fund"],
      { cwd: consumer(), env },
    );
    console.log(`consumer: npm install ${CLIENT_PACKAGE}@^1 ${TOOLS_PACKAGE}@1.0.0\n${install.stdout}`);
    const lock = JSON.parse(readFileSync(join(consumer(), "package-lock.json"), "utf8")) as {
      packages: Record<string, { version: string; resolved: string }>;
    };
    expect(lock.packages[`node_modules/${CLIENT_PACKAGE}`]).toMatchObject({
      version: "1.0.0",
      resolved: `${registry.url}${CLIENT_PACKAGE}/-/client-1.0.0.tgz`,
    });
    expect(lock.packages[`node_modules/${TOOLS_PACKAGE}`]).toMatchObject({
      version: "1.0.0",
      resolved: `${registry.url}${TOOLS_PACKAGE}/-/tools-1.0.0.tgz`,
    });
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
    const compilerOptions = {
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: false,
      skipDefaultLibCheck: true,
      target: "ES2022",
      lib: ["ES2022", "DOM"],
      types: [],
      module: "NodeNext",
      moduleResolution: "NodeNext",
      outDir: "out",
    };
    writeFileSync(join(consumer(), "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["consumer.ts"] }));
    const tsc = await run(join(PROJECT, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], { cwd: consumer() }).then(
      () => "",
      (error: { stdout: string }) => error.stdout,
    );
    expect(tsc).toBe("");

    const tools = join(consumer(), "node_modules", TOOLS_PACKAGE);
    const { apiKey } = JSON.parse(readFileSync(join(tools, "conformance/targets/sandbox.json"), "utf8")) as {
      apiKey: string;
    };
    writeFileSync(
      join(consumer(), "sandbox.json"),
      JSON.stringify(
        fastSandboxConfig(JSON.parse(readFileSync(join(tools, "sandbox/default-config.json"), "utf8")) as object),
      ),
    );
    sandbox = spawn("npx", [TOOLS_PACKAGE, "sandbox", "--port", "0", "--config", "sandbox.json"], {
      cwd: consumer(),
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const text = output(sandbox);
    const url = await until(
      () => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text.stdout())?.[1],
      `the sandbox's address (${text.stderr()})`,
      60_000,
    );
    const script = `import("./out/consumer.js").then((m) => m.run(${JSON.stringify(url)}, ${JSON.stringify(apiKey)})).then((r) => console.log(JSON.stringify(r)))`;
    const { stdout } = await run("node", ["--input-type=module", "-e", script], { cwd: consumer(), env });
    const interfaceVersion = (JSON.parse(readRoot("generated/openapi.json")) as { info: { version: string } }).info
      .version;
    expect(JSON.parse(stdout)).toEqual({
      apiVersion: interfaceVersion,
      model: expect.any(String),
      status: "succeeded",
      images: 2,
    });
    sandbox.kill("SIGTERM");
  });

  it("a compatible change is released as 1.1.0, and a consumer's ^1 gets the new field the notes promise", async () => {
    const started = performance.now();
    const doc = JSON.parse(readRoot("generated/openapi.json")) as object;
    COMPATIBLE.plant(doc);
    writeBundle(doc);
    const { code, stdout, stderr } = await release();
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(
      `release: ${CLIENT_PACKAGE} 1.0.0 → 1.1.0, ${TOOLS_PACKAGE} 1.0.0 → 1.1.0, ${MCP_PACKAGE} 1.0.0 → 1.1.0 (minor: one compatible change and 0 changelog entries, nothing breaking)`,
    );
    expect(await published(CLIENT_PACKAGE)).toEqual(["1.0.0", "1.1.0"]);
    console.log(
      `figure: from a changed description to an installable package on the local registry: ${Math.round(performance.now() - started)} ms (release of both packages, npm view)`,
    );
    const notes = notesOf(await expectOneStory("1.1.0"), "1.1.0");
    expect(notes).toContain(
      "A minor release: additions and compatible changes only; code written against 1.0.0 keeps working.",
    );
    expect(notes).toContain(
      "- `GET /v1/account/credits` — Read the account's credit balance; field `bonus_credits` of `AccountCredits`: new optional field.",
    );
    expect(await installClient(consumer(), "^1")).toBe("1.1.0");
    const readsBonus = `import { createClient } from "${CLIENT_PACKAGE}";
export const bonus = async () => (await createClient({ apiKey: "k", baseUrl: "http://127.0.0.1:1" }).getAccountCredits()).bonus_credits;
`;
    expect(await typeCheck(consumer(), readsBonus)).toBe("");
  });

  it("a planted breaking change is refused until acknowledged; --dry-run says 2.0.0 and writes nothing; --no-publish records it, and the release publishes the recorded 2.0.0", async () => {
    const doc = JSON.parse(readRoot("generated/openapi.json")) as { info: { version: string } };
    BREAKING.plant(doc);
    doc.info.version = "2026-07-01";
    writeBundle(doc);
    const refused = await release();
    expect(refused.code).toBe(2);
    expect(ownLines(refused.stderr)).toEqual([
      "release: one breaking change since 1.1.0 is not acknowledged in changes/acknowledged.json; npm run diff lists it with its id",
    ]);

    writeFileSync(join(root, "changes/acknowledged.json"), JSON.stringify({ acknowledged: [PLANTED_ACK] }));
    const dry = await release("--dry-run");
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      `release: ${CLIENT_PACKAGE} 1.1.0 → 2.0.0, ${TOOLS_PACKAGE} 1.1.0 → 2.0.0, ${MCP_PACKAGE} 1.1.0 → 2.0.0 (major: one breaking change for client code), interface version 2026-07-01`,
    );
    expect(dry.stdout).toContain(
      'no longer allows "21:9". **What to do:** stop sending "21:9"; send one of the values still allowed. **Why:** I-A no longer renders 21:9; use 16:9.',
    );
    expect(existsSync(join(root, "releases/2.0.0"))).toBe(false);

    // Recorded in the branch without publishing, as the guide says; CI then publishes what is recorded.
    const recorded = await release("--no-publish");
    console.log(`the breaking release, recorded:\n${releaseLines(recorded.stdout).join("\n")}`);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stdout).toContain("release: wrote releases/2.0.0/release.json");
    expect(recorded.stdout).toContain(
      "release: one acknowledgement moved from changes/acknowledged.json into the record of 2.0.0",
    );
    expect(recorded.stdout).toContain("release: packed packages/dist/media-service-tools-2.0.0.tgz");
    expect(await published(CLIENT_PACKAGE)).toEqual(["1.0.0", "1.1.0"]);
    const { code, stdout, stderr } = await release();
    expect(code, stderr).toBe(0);
    expect(releaseLines(stdout)).toEqual([
      `release: publishing the recorded ${CLIENT_PACKAGE}@2.0.0, ${TOOLS_PACKAGE}@2.0.0, ${MCP_PACKAGE}@2.0.0, which ${registry.url} lacks`,
      `release: published packages/dist/media-service-client-2.0.0.tgz to ${registry.url}`,
      `release: published packages/dist/media-service-tools-2.0.0.tgz to ${registry.url}`,
      `release: published packages/dist/media-service-mcp-2.0.0.tgz to ${registry.url}`,
      "release: the notes of 2.0.0:",
    ]);
    expect(await published(CLIENT_PACKAGE)).toEqual(["1.0.0", "1.1.0", "2.0.0"]);
    expect(await published(TOOLS_PACKAGE)).toEqual(["1.0.0", "1.1.0", "2.0.0"]);
    expect(await published(MCP_PACKAGE)).toEqual(["1.0.0", "1.1.0", "2.0.0"]);
    // The acknowledgement is consumed: in the record of the release that shipped it, gone from the pending file.
    expect(JSON.parse(readRoot("changes/acknowledged.json"))).toEqual({ acknowledged: [] });
    expect(JSON.parse(readRoot("releases/2.0.0/release.json")).changes).toEqual([
      expect.objectContaining({ id: BREAKING_ID, severity: "breaking", acknowledged: PLANTED_ACK.reason }),
    ]);
    const notes = notesOf(await expectOneStory("2.0.0"), "2.0.0");
    console.log(`the 2.0.0 notes, as a client developer reads them:\n${notes}`);
    expect(notes).toBe(stdout.slice(stdout.indexOf("## 2.0.0")).replace(/\n+$/, "\n"));
    expect(notes).toContain("Interface version `2026-06-20` → `2026-07-01` (the client's `apiVersion`).");
    expect(notes).toContain(
      "**A major release:** one breaking change for code written against 1.1.0; each says what to do.",
    );
    // Release notes are for readers: change ids stay in the record, paths and maintainer advice in the terminal.
    for (const unwanted of [BREAKING_ID, "releases/", "info.version", "change(s)", "#####"])
      expect(notes, unwanted).not.toContain(unwanted);
  });

  it("a text-only change is released as the patch 2.0.1, and the three views still agree", async () => {
    const doc = JSON.parse(readRoot("generated/openapi.json")) as { info: { description: string } };
    doc.info.description += " Clarified.";
    writeBundle(doc);
    const { code, stdout, stderr } = await release();
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(
      `release: ${CLIENT_PACKAGE} 2.0.0 → 2.0.1, ${TOOLS_PACKAGE} 2.0.0 → 2.0.1, ${MCP_PACKAGE} 2.0.0 → 2.0.1 (patch: descriptions, examples or documentation only; no change for client code)`,
    );
    expect(await published(CLIENT_PACKAGE)).toEqual(["1.0.0", "1.1.0", "2.0.0", "2.0.1"]);
    const page = await expectOneStory("2.0.1");
    expect(notesOf(page, "2.0.1")).toContain(
      "A patch release: descriptions, examples and documentation only; nothing changes for your code.",
    );
    expect(page.indexOf("## 2.0.1")).toBeLessThan(page.indexOf("## 2.0.0"));
    expect(page.indexOf("## 2.0.0")).toBeLessThan(page.indexOf("## 1.1.0"));
  });

  it("by range, the consumer gets what the notes promise: ^1 stays on 1.1.0, ^2 refuses 21:9 at compile time and takes 16:9", async () => {
    expect(await installClient(consumer(), "^1")).toBe("1.1.0");
    const { stdout } = await run("npm", ["view", `${CLIENT_PACKAGE}@^1`, "version", "--json"], {
      cwd: consumer(),
      env,
    });
    expect([JSON.parse(stdout) as string | string[]].flat()).toEqual(["1.0.0", "1.1.0"]);
    const sends = (ratio: string) => `import { createClient } from "${CLIENT_PACKAGE}";
import { models } from "${CLIENT_PACKAGE}/models";
export const create = () => createClient({ apiKey: "k", baseUrl: "http://127.0.0.1:1" }).image.create(models["I-A"].slug, { prompt: "p", aspect_ratio: "${ratio}" });
`;
    expect(await typeCheck(consumer(), sends("21:9"))).toBe("");
    expect(await installClient(consumer(), "^2")).toBe("2.0.1");
    expect(await typeCheck(consumer(), sends("21:9"))).toContain('"21:9"');
    expect(await typeCheck(consumer(), sends("16:9"))).toBe("");
  });
});
