/**
 * The client as another repository gets it: the package is built from a bundle made with a slug map,
 * packed, installed from its tarball into a fresh project (offline: openapi-fetch comes from its own
 * packed copy), type-checked as a strict consumer under `moduleResolution: nodenext` and `bundler`,
 * and run against the sandbox serving that same description.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBundle } from "../../model/document.ts";
import { readServiceModel } from "../../model/service-model.ts";
import { buildClientPackage, PACKAGE_NAME } from "../../packages/client/build.ts";
import type { BuiltPackage } from "../../packages/shared/package-build.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
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

const bin = (name: string) => join(PROJECT, "node_modules/.bin", name);

/**
 * A strict consumer: it compiles only if the package's types carry the real slugs, reject the
 * placeholder and a wrong enum value, and type each operation; `run` is what the test executes.
 */
const CONSUMER = `import { createClient, ModerationBlockError, type RestrictionReason, type paths } from "${PACKAGE_NAME}";
import { quote, type Quote } from "${PACKAGE_NAME}/prices";
import { inFlightLimiter } from "${PACKAGE_NAME}/limiter";
import { checkMediaInputs } from "${PACKAGE_NAME}/media-inputs";
import { models } from "${PACKAGE_NAME}/models";

export const REAL: keyof paths = "/v1/images/${IMAGE_SLUG}";
export const LABELLED: "${IMAGE_SLUG}" = models["I-A"].slug;

export async function run(baseUrl: string, apiKey: string) {
  const limiter = inFlightLimiter(2);
  const client = createClient({ apiKey, baseUrl, quote, limiter, checkMediaInputs, pollIntervalMs: { image: 50 }, headers: { "X-Request-Id": "pack-test" } });
  const before = (await client.getAccountCredits()).total_available;
  const body = { prompt: "A lighthouse at dawn", size: "2K", num_images: 2 } as const;
  const { jobId, job, created } = await client.image.createAndWait("${IMAGE_SLUG}", body);
  const after = (await client.getAccountCredits()).total_available;
  await client.listModels({ type: "3d" });
  const quoted: Quote = client.image.quote("${IMAGE_SLUG}", body);
  const standalone: number | null = quote("/v1/3d/${SLUG_MAP["d-a"]}", { texture_quality: "detailed" }).credits;
  let refused = "nothing";
  try {
    await createClient({ apiKey: "not-a-key", baseUrl, maxRetries: 0 }).image.create("${IMAGE_SLUG}", body);
  } catch (error) {
    refused = error instanceof ModerationBlockError ? error.restrictionReason satisfies RestrictionReason : (error as Error).name;
  }
  return { jobId, model: created.model, status: job.status, images: job.images.length, charged: before - after, quoted: quoted.credits, standalone, refused, running: limiter.jobs.size };
}

export async function wrongCalls(): Promise<void> {
  const client = createClient({ apiKey: "k", baseUrl: "http://127.0.0.1:1" });
  // @ts-expect-error the placeholder slug is gone from a package built with the real slugs
  await client.image.create("i-a", { prompt: "x" });
  // @ts-expect-error no size 3K
  await client.image.create("${IMAGE_SLUG}", { prompt: "x", size: "3K" });
  // @ts-expect-error a stock filter the description does not document
  await client.searchStockMusic({ category: "jazz" });
  // @ts-expect-error a client given no quote has none
  client.image.quote("${IMAGE_SLUG}", {});
}
`;

// skipLibCheck off checks the package's declarations and openapi-fetch's; TypeScript's own lib files are left unchecked.
const STRICT = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: false,
  skipDefaultLibCheck: true,
  target: "ES2022",
  lib: ["ES2022", "DOM"],
  types: [],
};
const TSCONFIGS = {
  "tsconfig.nodenext.json": {
    compilerOptions: { ...STRICT, module: "NodeNext", moduleResolution: "NodeNext", outDir: "out" },
    files: ["consumer.ts"],
  },
  "tsconfig.bundler.json": {
    compilerOptions: { ...STRICT, module: "ESNext", moduleResolution: "Bundler", noEmit: true },
    files: ["consumer.ts"],
  },
};

/** The files of a package that `import` reaches from `entry`, following relative specifiers; bare ones are listed apart. */
function reached(entry: string): { files: Set<string>; bare: Set<string> } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of importSpecifiers(readFileSync(file, "utf8"))) {
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier));
      else bare.add(specifier);
    }
  };
  visit(entry);
  return { files, bare };
}

/** tsc's complaints about the consumer under one of TSCONFIGS ("" when it compiles), run once per config; the NodeNext one emits `out/`. */
const typeChecks = new Map<string, Promise<string>>();
function typeCheck(config: string): Promise<string> {
  if (!typeChecks.has(config)) {
    typeChecks.set(
      config,
      run(bin("tsc"), ["-p", config], { cwd: consumer }).then(
        () => "",
        (error: { stdout: string }) => error.stdout,
      ),
    );
  }
  return typeChecks.get(config)!;
}

let work: string;
let built: BuiltPackage;
let consumer: string;
let sandbox: RunningSandbox;
const KEY = "live_pack_test_key";

beforeAll(async () => {
  let bundle: string;
  ({ work, bundle } = await workWithBundle("client-package-test-", SLUG_MAP));
  built = await buildClientPackage(bundle, join(work, "package"), TEST_RELEASE);
  const tarballs = await pack(
    [built.dir, join(PROJECT, "node_modules/openapi-fetch"), join(PROJECT, "node_modules/openapi-typescript-helpers")],
    work,
  );
  consumer = await installInFreshProject(work, "consumer", tarballs);
  writeFileSync(join(consumer, "consumer.ts"), CONSUMER);
  for (const [name, config] of Object.entries(TSCONFIGS)) writeFileSync(join(consumer, name), JSON.stringify(config));
  sandbox = await startSandbox({
    model: readServiceModel(loadBundle(join(bundle, "openapi.json"))),
    config: {
      accounts: { pack: { keys: [KEY], plan: "paid", credits: { monthlyLimit: 100_000, extra: 0 } } },
      clock: { speed: 1_000 },
    },
  });
}, 300_000);

afterAll(async () => {
  await sandbox?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the client package", () => {
  it("has the version and changelog it was given and ships only its build, the description, a README and the changelog", async () => {
    expect(built.version).toBe(TEST_RELEASE.version);
    const paths = await packedFiles(built.dir);
    expect(paths.filter((path) => !/^dist\/.+\.(js|d\.ts)$/.test(path)).sort()).toEqual([
      "CHANGELOG.md",
      "README.md",
      "openapi.json",
      "openapi.yaml",
      "package.json",
    ]);
    expect(paths).toContain("dist/generated/client.js");
  });

  it("imports nothing outside itself but openapi-fetch, and the client entry reaches none of the optional entries", () => {
    const installed = join(consumer, "node_modules", PACKAGE_NAME);
    const [client, ...optional] = [
      "generated/client",
      "generated/costs",
      "runtime/client/limiter",
      "generated/media-inputs",
      "generated/models",
    ].map((entry) => reached(join(installed, `dist/${entry}.js`)));
    for (const { files } of [client!, ...optional])
      for (const file of files) expect(relative(installed, file)).not.toMatch(/^\.\./);
    expect([...client!.bare]).toEqual(["openapi-fetch"]);
    for (const { bare } of optional) expect([...bare]).toEqual([]);
    for (const name of ["costs.js", "limiter.js", "media-inputs.js", "models.js"]) {
      expect([...client!.files].some((file) => file.endsWith(name))).toBe(false);
      expect(optional.some(({ files }) => [...files].some((file) => file.endsWith(name)))).toBe(true);
    }
  });

  it("publishes the bundled description it was generated from, real slugs included", async () => {
    const paths = await exportedDescriptionPaths(consumer, PACKAGE_NAME);
    expect(paths).toContain(`/v1/images/${IMAGE_SLUG}`);
    expect(paths).not.toContain("/v1/images/i-a");
    expect(readFileSync(join(consumer, "node_modules", PACKAGE_NAME, "README.md"), "utf8")).toContain(IMAGE_SLUG);
  });

  for (const config of Object.keys(TSCONFIGS)) {
    it(`type-checks a strict consumer with ${config}: real slugs compile, the placeholder and wrong values do not`, async () => {
      expect(await typeCheck(config)).toBe("");
    });
  }

  it("runs the installed package against the sandbox serving its description: the job created by its real slug, charged as quoted", async () => {
    expect(await typeCheck("tsconfig.nodenext.json")).toBe("");
    expect(readdirSync(join(consumer, "out"))).toContain("consumer.js");
    const script = `import("./out/consumer.js").then((m) => m.run(${JSON.stringify(sandbox.url)}, ${JSON.stringify(KEY)})).then((r) => console.log(JSON.stringify(r)))`;
    const { stdout } = await run("node", ["--input-type=module", "-e", script], { cwd: consumer });
    const result = JSON.parse(stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      model: IMAGE_SLUG,
      status: "succeeded",
      images: 2,
      quoted: 38,
      charged: 38,
      standalone: 540,
      refused: "AuthenticationError",
      running: 0,
    });
    expect(result.jobId).toMatch(/^img_/);
  });
});
