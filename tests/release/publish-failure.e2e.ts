/**
 * A release is all or nothing (npm run release against a registry on 127.0.0.1 that answers as
 * npm's does, but refuses publishes as told): a publish refused before any package went out takes
 * the release's files back, as they were; one refused after the first package went out keeps the
 * release recorded and says that running the release again publishes the rest; and running it
 * again does. Builds both packages, so it runs with the e2e suites.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runRelease } from "../../release/command.ts";
import { CLIENT_PACKAGE, TOOLS_PACKAGE } from "../../packages/shared/package-build.ts";
import { loadBundle } from "../../model/document.ts";
import { placeholderPaths } from "../../model/slug-map.ts";
import { withoutSlugMap } from "../support/placeholder-slugs.ts";

withoutSlugMap();
const built = loadBundle();
const base = { ...built, paths: placeholderPaths(built.paths) as typeof built.paths };
const BEFORE = "# Changelog\n\nAs it was before the release.\n";

let dir: string;
let registry: Server;
let port: number;
/** The packages the registry has taken, and the ones it refuses. */
const taken = new Set<string>();
let refused = new Set<string>();
const saved = { userconfig: process.env.npm_config_userconfig, retries: process.env.npm_config_fetch_retries };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "release-failure-"));
  mkdirSync(join(dir, "generated"));
  // The bundle in both forms (JSON is YAML).
  for (const name of ["openapi.json", "openapi.yaml"])
    writeFileSync(join(dir, "generated", name), `${JSON.stringify(base, null, 2)}\n`);
  mkdirSync(join(dir, "docs"));
  writeFileSync(join(dir, "docs", "changelog.md"), BEFORE);
  taken.clear();
  registry = createServer((request, response) => {
    const name = decodeURIComponent((request.url ?? "").slice(1).split("/-/")[0] ?? "");
    request.resume();
    const answer = (status: number, body: object) =>
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (request.url === "/-/whoami") return answer(200, { username: "releaser" });
    if (request.method === "PUT") {
      if (refused.has(name)) return answer(403, { error: `releaser may not publish ${name}` });
      taken.add(name);
      return answer(201, { ok: true });
    }
    return answer(404, { error: "not found" });
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  port = (registry.address() as AddressInfo).port;
  writeFileSync(join(dir, "npmrc"), `//127.0.0.1:${port}/:_authToken=npm-token\n`);
  Object.assign(process.env, { npm_config_userconfig: join(dir, "npmrc"), npm_config_fetch_retries: "0" });
});

afterEach(async () => {
  for (const [key, value] of [
    ["npm_config_userconfig", saved.userconfig],
    ["npm_config_fetch_retries", saved.retries],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await new Promise((resolve) => registry.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

async function release(): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runRelease(["--root", ".", "--registry", `http://127.0.0.1:${port}/`], {
    cwd: dir,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
  });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

describe("a release whose publishing fails", () => {
  it("takes its files back when nothing was published, and says to run it again", async () => {
    refused = new Set([CLIENT_PACKAGE, TOOLS_PACKAGE]);
    const { code, stdout, stderr } = await release();
    expect(code).toBe(2);
    expect(stdout).toContain("release: wrote releases/1.0.0/release.json");
    expect(stderr).toMatch(
      new RegExp(
        `^release: http://127\\.0\\.0\\.1:${port}/ refused .*releaser may not publish @media-service/client.*; nothing was published, and the release's files are as they were \\(no releases/1\\.0\\.0/\\): fix that and run npm run release -- --registry http://127\\.0\\.0\\.1:${port}/ again\\n$`,
      ),
    );
    expect(existsSync(join(dir, "releases", "1.0.0")), "the record taken back").toBe(false);
    expect(readFileSync(join(dir, "docs", "changelog.md"), "utf8"), "the changelog as it was").toBe(BEFORE);
    expect(existsSync(join(dir, "packages", "client", "CHANGELOG.md")), "a changelog that was not there").toBe(false);
    expect([...taken]).toEqual([]);
  }, 240_000);

  it("keeps the release recorded when a package went out, and publishes the rest when run again", async () => {
    refused = new Set([TOOLS_PACKAGE]);
    const first = await release();
    expect(first.code).toBe(2);
    expect(first.stdout).toContain(`release: published packages/dist/`);
    expect(first.stderr).toMatch(
      new RegExp(
        `; media-service-client-1\\.0\\.0\\.tgz is published, so 1\\.0\\.0 stays recorded \\(releases/1\\.0\\.0/\\): run npm run release -- --registry http://127\\.0\\.0\\.1:${port}/ again to publish what the registry lacks of it\\n$`,
      ),
    );
    expect(existsSync(join(dir, "releases", "1.0.0", "release.json"))).toBe(true);
    expect([...taken]).toEqual([CLIENT_PACKAGE]);
    // The registry now has the client (a GET finds it) and takes the tools.
    refused = new Set();
    const server = registry;
    server.removeAllListeners("request");
    server.on("request", (request, response) => {
      const name = decodeURIComponent((request.url ?? "").slice(1).split("/-/")[0] ?? "");
      request.resume();
      const answer = (status: number, body: object) =>
        response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (request.url === "/-/whoami") return answer(200, { username: "releaser" });
      if (request.method === "PUT") {
        taken.add(name);
        return answer(201, { ok: true });
      }
      if (taken.has(name))
        return answer(200, {
          name,
          "dist-tags": { latest: "1.0.0" },
          versions: { "1.0.0": { name, version: "1.0.0", dist: { tarball: `http://127.0.0.1:${port}/x.tgz` } } },
        });
      return answer(404, { error: "not found" });
    });
    const again = await release();
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`release: publishing the recorded ${TOOLS_PACKAGE}@1.0.0, which`);
    expect([...taken].sort()).toEqual([CLIENT_PACKAGE, TOOLS_PACKAGE].sort());
  }, 360_000);
});
