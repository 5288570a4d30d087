/**
 * A release is all or nothing (npm run release against a registry on 127.0.0.1 that answers as
 * npm's does, but refuses publishes as told): a publish refused before any package went out takes
 * the release's files back, as they were; one refused after the first package went out keeps the
 * release recorded and says that running the release again publishes the rest; and running it
 * again does. Builds both packages, so it runs with the e2e suites.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLIENT_PACKAGE, MCP_PACKAGE, TOOLS_PACKAGE } from "../../packages/shared/package-build.ts";
import { loadBundle } from "../../model/document.ts";
import { placeholderPaths } from "../../model/slug-map.ts";
import { withNpmConfig } from "../support/npm-config.ts";
import { withoutSlugMap } from "../support/placeholder-slugs.ts";
import { releaseIn } from "./run-release.ts";

withoutSlugMap();
const built = loadBundle();
const base = { ...built, paths: placeholderPaths(built.paths) as typeof built.paths };
const BEFORE = "# Changelog\n\nAs it was before the release.\n";

let dir: string;
let registry: Server;
let port: number;
/** The packages the registry has taken (it then has them: a GET finds 1.0.0), and the ones it refuses. */
const taken = new Set<string>();
let refused = new Set<string>();

/**
 * A registry as npm's answers: who is logged in, a package it has (1.0.0 of those it took) or not
 * (404), a publish taken or refused (403).
 */
function answer(request: IncomingMessage, response: ServerResponse): void {
  const name = decodeURIComponent((request.url ?? "").slice(1).split("/-/")[0] ?? "");
  request.resume();
  const send = (status: number, body: object): void => {
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
  if (request.url === "/-/whoami") return send(200, { username: "releaser" });
  if (request.method === "PUT") {
    if (refused.has(name)) return send(403, { error: `releaser may not publish ${name}` });
    taken.add(name);
    return send(201, { ok: true });
  }
  if (!taken.has(name)) return send(404, { error: "not found" });
  send(200, {
    name,
    "dist-tags": { latest: "1.0.0" },
    versions: { "1.0.0": { name, version: "1.0.0", dist: { tarball: `http://127.0.0.1:${port}/x.tgz` } } },
  });
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "release-failure-"));
  mkdirSync(join(dir, "generated"));
  // The bundle in both forms (JSON is YAML).
  for (const name of ["openapi.json", "openapi.yaml"])
    writeFileSync(join(dir, "generated", name), `${JSON.stringify(base, null, 2)}\n`);
  mkdirSync(join(dir, "docs"));
  writeFileSync(join(dir, "docs", "changelog.md"), BEFORE);
  taken.clear();
  registry = createServer(answer);
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  port = (registry.address() as AddressInfo).port;
  writeFileSync(join(dir, "npmrc"), `//127.0.0.1:${port}/:_authToken=npm-token\n`);
});

afterEach(async () => {
  await new Promise((resolve) => registry.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const release = () =>
  withNpmConfig({ userconfig: join(dir, "npmrc"), fetch_retries: "0" }, () =>
    releaseIn(dir, ["--root", ".", "--registry", `http://127.0.0.1:${port}/`]),
  );

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
    const again = await release();
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    // The tools' refusal stopped the publishing: the MCP server's package, after it, went out neither.
    expect(again.stdout).toContain(
      `release: publishing the recorded ${TOOLS_PACKAGE}@1.0.0, ${MCP_PACKAGE}@1.0.0, which`,
    );
    expect([...taken].sort()).toEqual([CLIENT_PACKAGE, TOOLS_PACKAGE, MCP_PACKAGE].sort());
  }, 360_000);
});
