/**
 * The tools as another repository (an implementation's, a client developer's CI) gets them: the
 * package is built from a bundle made with a slug map, packed once, installed offline from its
 * tarball into a fresh project, and its bin run there with npx: --help, an unknown command, the
 * sandbox serving the real slugs over HTTP, the conformance suite against that sandbox with the
 * sandbox's declaration the package carries, and SIGINT or SIGTERM to the npx process stopping the
 * sandbox.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, COMMANDS, NPX } from "../../packages/tools/commands.ts";
import { TOOLS_PACKAGE } from "../../packages/shared/package-build.ts";
import { buildToolsPackage, PACKAGE_NAME } from "../../packages/tools/build.ts";
import type { BuiltPackage } from "../../packages/shared/package-build.ts";
import { model } from "../support/description.ts";
import { FAST_COOLDOWN_SECONDS, fastSandboxConfig } from "../support/fast-sandbox.ts";
import { allEnded, descendants, output, until } from "../support/processes.ts";
import {
  exportedDescriptionPaths,
  IMAGE_SLUG,
  importSpecifiers,
  installInFreshProject,
  pack,
  packedFiles,
  PROJECT,
  run,
  SLUG_MAP,
  TEST_RELEASE,
  workWithBundle,
} from "../support/packages.ts";
/** Where the package's files are once installed. */
const installed = (file: string) => join(project, "node_modules", PACKAGE_NAME, file);

let work: string;
let built: BuiltPackage;
let project: string;

beforeAll(async () => {
  let bundle: string;
  ({ work, bundle } = await workWithBundle("tools-package-test-", SLUG_MAP));
  built = await buildToolsPackage(bundle, join(work, "package"), TEST_RELEASE);
  project = await installInFreshProject(work, "ci", await pack([built.dir], work));
  const config = JSON.parse(readFileSync(installed("sandbox/default-config.json"), "utf8")) as { jobs?: object };
  writeFileSync(join(project, "sandbox.json"), JSON.stringify(fastSandboxConfig(config)));
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * `npx @media-service/tools ...args` in the fresh project (or, with `direct`, the installed bin run by node
 * as npx runs it, without npm's own start-up): its exit code and output, also when it fails.
 */
async function npx(args: string[], direct = false): Promise<{ code: number; stdout: string; stderr: string }> {
  return (
    direct
      ? run(process.execPath, [join(project, "node_modules", ".bin", BIN), ...args], { cwd: project })
      : run("npx", [TOOLS_PACKAGE, ...args], { cwd: project })
  ).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

/** Lines of stderr that are the command's own (npm may warn about its own config). */
const ownLines = (stderr: string) =>
  stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("npm warn"));

/**
 * Sends `signal` to the npx process only (not its process group, as Ctrl-C in a terminal would):
 * npm forwards it to the shell it runs the bin with, which keeps a SIGINT from its child
 * (packages/tools/shell-signals.ts). The sandbox says why it stopped, its port closes, and npm, the
 * shell and the bin are all gone.
 */
async function expectStopsOn(
  npx: ChildProcess,
  text: ReturnType<typeof output>,
  url: string,
  signal: NodeJS.Signals,
): Promise<void> {
  const below = descendants(npx.pid!);
  expect(below.map((child) => child.command)).toContainEqual(
    expect.stringMatching(new RegExp(`/\\.bin/${BIN} sandbox `)),
  );
  npx.kill(signal);
  await until(() => (npx.exitCode !== null || npx.signalCode !== null ? true : undefined), "npx to exit", 10_000);
  await until(
    () => (text.stdout().includes(`sandbox stopped (${signal})`) ? true : undefined),
    `the sandbox's last line (${text.stdout()})`,
    10_000,
  );
  await allEnded(below, 10_000);
  expect(
    await fetch(url).then(
      () => "answered",
      () => "closed",
    ),
  ).toBe("closed");
}

describe("the tools package", () => {
  it("has the version and changelog it was given, depends on nothing, and ships its bundle, the sandbox's files, the description and the licences", async () => {
    expect(built.version).toBe(TEST_RELEASE.version);
    expect(readFileSync(installed("CHANGELOG.md"), "utf8")).toBe(TEST_RELEASE.changelog);
    expect((await packedFiles(built.dir)).sort()).toEqual([
      "CHANGELOG.md",
      "README.md",
      "THIRD-PARTY-LICENSES.md",
      "conformance/README.md",
      "conformance/rules.json",
      "conformance/targets/sandbox.json",
      `dist/${BIN}.js`,
      "openapi.json",
      "openapi.yaml",
      "package.json",
      "sandbox/README.md",
      "sandbox/default-config.json",
    ]);
    const manifest = JSON.parse(readFileSync(installed("package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest.bin).toEqual({ [BIN]: `./dist/${BIN}.js` });
    expect(manifest.dependencies).toBeUndefined();
  });

  it("runs from its bundle alone: the bin imports only Node's built-in modules and names no place of this repository", () => {
    const bundle = readFileSync(installed(`dist/${BIN}.js`), "utf8");
    const specifiers = importSpecifiers(bundle);
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((specifier) => !isBuiltin(specifier))).toEqual([]);
    expect(bundle).not.toContain(PROJECT);
    expect(readFileSync(installed("THIRD-PARTY-LICENSES.md"), "utf8")).toMatch(/^## ajv@/m);
  });

  it("exports the bundled description it was built from, real slugs included, and the sandbox's default config", async () => {
    const paths = await exportedDescriptionPaths(project, PACKAGE_NAME);
    expect(paths).toContain(`/v1/images/${IMAGE_SLUG}`);
    expect(paths).not.toContain("/v1/images/i-a");
    expect(readFileSync(installed("README.md"), "utf8")).toContain(`/v1/images/${IMAGE_SLUG} `);
    const script = `import("${PACKAGE_NAME}/sandbox/default-config.json", { with: { type: "json" } }).then((m) => console.log(Object.keys(m.default.accounts)))`;
    expect((await run("node", ["--input-type=module", "-e", script], { cwd: project })).stdout).toContain("demo");
  });

  it("--help lists every command", async () => {
    const { code, stdout } = await npx(["--help"]);
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    for (const command of COMMANDS)
      expect(
        lines.filter((line) => line.trimStart().startsWith(`${command.name} `) && line.endsWith(` ${command.summary}`)),
      ).toHaveLength(1);
  });

  it("an unknown command is one line naming the commands, and exit status 2", async () => {
    const { code, stdout, stderr } = await npx(["sandbx"], true);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(ownLines(stderr)).toEqual([
      `${BIN}: unknown command "sandbx"; the commands are ${COMMANDS.map((command) => command.name).join(", ")} (${NPX} --help)`,
    ]);
  });

  it.each(COMMANDS.map((command) => command.name))(
    "%s --help is its own, naming the package's command line and the README it carries",
    async (name) => {
      const { code, stdout } = await npx([name, "--help"], true);
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^usage: ${NPX} ${name} `));
      expect(stdout).toContain(installed(`${name}/README.md`));
      expect(readFileSync(installed(`${name}/README.md`), "utf8")).toMatch(/^# /);
    },
  );

  it("conformance without a target is one line saying the Prism mock is not in the package, and exit status 2", async () => {
    const { code, stderr } = await npx(["conformance"], true);
    expect(code).toBe(2);
    expect(ownLines(stderr)).toEqual([
      "conformance run failed: the Prism mock is not part of the tools package (Prism is a development tool of the description's repository): run against an implementation with --target URL",
    ]);
  });

  describe(`${NPX} sandbox, and conformance against it`, () => {
    /** The declaration of the sandbox with its default config, which the package carries. */
    const declarationFile = join("node_modules", PACKAGE_NAME, "conformance/targets/sandbox.json");
    let sandbox: ChildProcess;
    let text: ReturnType<typeof output>;
    let url: string;
    let apiKey: string;
    const call = (method: string, path: string, body?: object) =>
      fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });

    beforeAll(async () => {
      ({ apiKey } = JSON.parse(readFileSync(join(project, declarationFile), "utf8")) as { apiKey: string });
      sandbox = spawn("npx", [TOOLS_PACKAGE, "sandbox", "--port", "0", "--config", "sandbox.json"], {
        cwd: project,
        stdio: ["ignore", "pipe", "pipe"],
      });
      text = output(sandbox);
      url = await until(
        () => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text.stdout())?.[1],
        `the sandbox's address (${text.stderr()})`,
        30_000,
      );
    });

    afterAll(() => {
      if (sandbox?.exitCode === null) sandbox.kill("SIGKILL");
    });

    it("serves the description the package was built from: a create by the real slug, polled until it succeeds", async () => {
      // The placeholder is no model of this build: the specification's "unavailable model".
      const placeholder = await call("POST", "/v1/images/i-a", { prompt: "A lighthouse at dawn" });
      expect(placeholder.status).toBe(model.errors.invalidRequest.status);
      expect(((await placeholder.json()) as { error: { code: string } }).error.code).toBe(
        model.errors.invalidRequest.code,
      );
      const created = await call("POST", `/v1/images/${IMAGE_SLUG}`, { prompt: "A lighthouse at dawn", num_images: 2 });
      expect(created.status).toBe(200);
      const job = (await created.json()) as { id: string; model: string };
      expect(job.model).toBe(IMAGE_SLUG);
      const done = await until(async () => {
        const polled = (await (await call("GET", `/v1/images/${job.id}`)).json()) as {
          status: string;
          images?: unknown[];
        };
        return model.jobStatus.terminal.includes(polled.status) ? polled : undefined;
      }, "the job to end");
      expect(done.status).toBe(model.jobStatus.success);
      expect(done.images).toHaveLength(2);
    });

    it("conformance --target passes against it with the sandbox's declaration, and writes its JSON and JUnit reports", {
      timeout: 120_000,
    }, async () => {
      // Less its per-IP burst, whose limits are the default config's (the fast config's windows are
      // 10 s), and with the fast config's shortened cooldown, which the default config does not shorten.
      const { sourceIpBurst, ...declaration } = JSON.parse(readFileSync(join(project, declarationFile), "utf8"));
      expect(sourceIpBurst).toBeDefined();
      expect(declaration.cooldownPauseSeconds).toBeUndefined();
      writeFileSync(
        join(project, "declaration.json"),
        JSON.stringify({ ...declaration, cooldownPauseSeconds: FAST_COOLDOWN_SECONDS }),
      );
      const { code, stdout, stderr } = await npx([
        "conformance",
        "--target",
        url,
        "--config",
        "declaration.json",
        "--report-dir",
        "reports",
      ]);
      expect(code, `${stdout}\n${stderr}\nthe sandbox's output:\n${text.stdout()}${text.stderr()}`).toBe(0);
      expect(stdout).toContain(`conformance of ${url}: `);
      const report = JSON.parse(readFileSync(join(project, "reports/conformance.json"), "utf8")) as {
        summary: { target: string; pass: number; fail: number };
      };
      expect(report.summary).toMatchObject({ target: url, fail: 0 });
      expect(report.summary.pass).toBeGreaterThan(500);
      const junit = readFileSync(join(project, "reports/conformance.junit.xml"), "utf8");
      expect(junit).toContain("<testcase");
      expect(junit).not.toContain("<failure");
    });

    it("stops on SIGINT sent to the npx process alone, freeing its port and leaving no process behind", async () => {
      await expectStopsOn(sandbox, text, url, "SIGINT");
    });

    it("stops on SIGTERM sent to the npx process alone, freeing its port and leaving no process behind", async () => {
      const again = spawn("npx", [TOOLS_PACKAGE, "sandbox", "--port", "0", "--config", "sandbox.json"], {
        cwd: project,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const againText = output(again);
      try {
        const againUrl = await until(
          () => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(againText.stdout())?.[1],
          `the sandbox's address (${againText.stderr()})`,
          30_000,
        );
        await expectStopsOn(again, againText, againUrl, "SIGTERM");
      } finally {
        if (again.exitCode === null && again.signalCode === null) again.kill("SIGKILL");
      }
    });
  });
});
