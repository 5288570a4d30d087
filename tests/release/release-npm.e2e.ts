/**
 * `npm run release`'s refusals that ask a registry through npm (each an npm process or more, so
 * in the end-to-end suite): a registry it cannot ask, a registry with no login, a registry that
 * refuses the publish. Its other refusals and the records are releases.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadBundle } from "../../model/document.ts";
import { placeholderPaths } from "../../model/slug-map.ts";
import { CLIENT_PACKAGE } from "../../packages/shared/package-build.ts";
import { publish, registryOf } from "../../release/npm-registry.ts";
import { withNpmConfig } from "../support/npm-config.ts";
import { withoutSlugMap } from "../support/placeholder-slugs.ts";
import { releaseIn } from "./run-release.ts";

// The bundles released here keep the placeholder slugs: no slug map applies.
withoutSlugMap();
const built = loadBundle();
const base = { ...built, paths: placeholderPaths(built.paths) as typeof built.paths };
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "release-npm-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run release, refusing", () => {
  const release = (...argv: string[]) => releaseIn(dir, argv);
  const project = () => {
    mkdirSync(join(dir, "generated"));
    writeFileSync(join(dir, "generated", "openapi.json"), `${JSON.stringify(base)}\n`);
  };

  it("a registry it cannot ask is one line naming it (its credentials hidden) and npm's reason, before anything is built or written", async () => {
    project();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const retries = process.env.npm_config_fetch_retries;
    process.env.npm_config_fetch_retries = "0"; // npm would retry a refused connection for a minute
    try {
      const { code, stdout, stderr } = await release(
        "--root",
        ".",
        "--registry",
        `http://releaser:s3cret-pass@127.0.0.1:${port}/`,
      );
      expect(code).toBe(2);
      expect(stderr).toMatch(
        new RegExp(
          `^release: cannot ask http://\\*\\*\\*@127\\.0\\.0\\.1:${port}/ for ${CLIENT_PACKAGE}@1\\.0\\.0: .*ECONNREFUSED.*\\n$`,
        ),
      );
      expect(stdout + stderr).not.toMatch(/releaser|s3cret/);
    } finally {
      if (retries === undefined) delete process.env.npm_config_fetch_retries;
      else process.env.npm_config_fetch_retries = retries;
    }
    expect(existsSync(join(dir, "releases"))).toBe(false);
    expect(existsSync(join(dir, "packages"))).toBe(false);
  });
});

describe("npm run release with no login at the registry", () => {
  it("says how to log in, before anything is built or written (npm's log level silent, as under npm run -s)", async () => {
    // A registry that has nothing (so the version is free) and an npm with no token for it.
    const registry = createServer((request, response) => {
      request.resume();
      response.writeHead(request.url === "/-/whoami" ? 401 : 404, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: request.url === "/-/whoami" ? "unauthorized" : "not found" }));
    });
    await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
    const port = (registry.address() as AddressInfo).port;
    mkdirSync(join(dir, "generated"));
    writeFileSync(join(dir, "generated", "openapi.json"), `${JSON.stringify(base)}\n`);
    writeFileSync(join(dir, "npmrc"), "");
    try {
      // As under `npm run -s release`: the npm the release runs inherits the silent log level, and
      // prints no error lines; its JSON still says what happened.
      await withNpmConfig({ userconfig: join(dir, "npmrc"), fetch_retries: "0", loglevel: "silent" }, async () => {
        const { code, stdout, stderr } = await releaseIn(dir, [
          "--root",
          ".",
          "--registry",
          `http://127.0.0.1:${port}/`,
        ]);
        expect(code).toBe(2);
        expect(stdout).not.toMatch(/wrote|packed|published/);
        expect(stderr).toMatch(
          new RegExp(
            `^release: http://127\\.0\\.0\\.1:${port}/ has no login for npm here \\(.+\\); log in with npm login --registry http://127\\.0\\.0\\.1:${port}/ \\(npm adduser --registry http://127\\.0\\.0\\.1:${port}/ makes an account\\), or put a token for it in \\.npmrc; nothing was built, written or published\\n$`,
          ),
        );
      });
    } finally {
      await new Promise((resolve) => registry.close(resolve));
    }
    expect(existsSync(join(dir, "releases")), "no record").toBe(false);
    expect(existsSync(join(dir, "packages")), "nothing built").toBe(false);
  });
});

describe("publishing refused by the registry", () => {
  it("shows npm's error, not its notices about the tarball, with the registry's credentials and npm's token hidden", async () => {
    // A registry that has nothing (GET: 404) and refuses every publish (PUT: 403 with its reason).
    const refusing = createServer((request, response) => {
      request.resume();
      const refused = request.method === "PUT";
      response.writeHead(refused ? 403 : 404, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: refused ? "user releaser may not publish x-release-probe" : "not found" }));
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const port = (refusing.address() as AddressInfo).port;
    const folder = join(dir, "x-release-probe");
    mkdirSync(folder);
    writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "x-release-probe", version: "1.0.0" }));
    writeFileSync(join(dir, "npmrc"), `//127.0.0.1:${port}/:_authToken=npm-token-s3cret\n`);
    try {
      await withNpmConfig({ userconfig: join(dir, "npmrc"), fetch_retries: "0" }, async () => {
        const registry = registryOf(`http://releaser:s3cret-pass@127.0.0.1:${port}/`);
        const error = await publish(registry, folder).then(
          () => undefined,
          (thrown: Error) => thrown,
        );
        expect(error?.message).toMatch(
          new RegExp(
            `^http://\\*\\*\\*@127\\.0\\.0\\.1:${port}/ refused x-release-probe: .*403.*user releaser may not publish x-release-probe`,
          ),
        );
        expect(error?.message).not.toMatch(/notice|s3cret/);
      });
    } finally {
      await new Promise((resolve) => refusing.close(resolve));
    }
  });
});
