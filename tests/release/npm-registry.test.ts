/**
 * Asking and publishing through npm (release/npm-registry.ts), with a stand-in for npm that
 * answers as a registry would (fake-npm.ts): the registry is the one `--registry` names (an
 * http(s) URL) or npm's own configuration; whether a version is published, a publish and who is
 * logged in are each one npm call; a refusal is one line naming the registry, the package, version
 * or tarball, and npm's own error (never its notices nor its code line); no login says how to log
 * in; credentials in a URL never shown.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isPublished, loggedInAs, npmError, publish, registryName, registryOf } from "../../release/npm-registry.ts";
import { fakeNpm, type FakeNpm } from "./fake-npm.ts";

const URL_WITH_LOGIN = "http://releaser:s3cret@127.0.0.1:4873/";
const SHOWN = "http://***@127.0.0.1:4873/";
const LOCAL = registryOf("http://127.0.0.1:4873/");
const CONFIGURED = registryOf(undefined);

/** npm's JSON error, as it prints it on stdout with --json. */
const jsonError = (code: string, summary: string): string => JSON.stringify({ error: { code, summary, detail: "" } });

const refusal = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("npm's answer was taken for a success");
};

describe("the registry", () => {
  it("is an http or https URL, or npm's own configuration", () => {
    expect(registryOf("http://127.0.0.1:4873")).toEqual({ url: "http://127.0.0.1:4873/" });
    expect(registryOf("https://registry.npmjs.org/")).toEqual({ url: "https://registry.npmjs.org/" });
    expect(CONFIGURED).toEqual({ url: undefined });
    expect(registryName(CONFIGURED)).toBe("the registry of npm's configuration");
    expect(registryName(registryOf(URL_WITH_LOGIN))).toBe(SHOWN);
  });

  it("refuses anything else, naming it without its credentials", () => {
    expect(() => registryOf("file:///srv/registry")).toThrow(
      '--registry must be an http(s) URL, got "file:///srv/registry"',
    );
    expect(() => registryOf("ftp://releaser:s3cret@example/")).toThrow(
      '--registry must be an http(s) URL, got "ftp://***@example/"',
    );
    expect(() => registryOf("127.0.0.1:4873")).toThrow('--registry must be an http(s) URL, got "127.0.0.1:4873"');
    expect(() => registryOf("not a url")).toThrow('--registry must be an http(s) URL, got "not a url"');
  });
});

describe("npm's own error", () => {
  it("is the first line of its JSON error's summary, before its error lines", () => {
    const stdout = jsonError("E403", `403 Forbidden - PUT ${URL_WITH_LOGIN}x - no\nsecond line`);
    expect(npmError({ stdout, stderr: "npm error code E403\nnpm error other" })).toBe(
      `403 Forbidden - PUT ${SHOWN}x - no`,
    );
  });

  it("else the first of its error lines that says what happened: not blank, not its code, errno, syscall or log", () => {
    const stderr = [
      "npm notice Tarball Contents",
      "npm notice 1.2kB docs/npm error codes.md",
      "npm error",
      "npm error code E403",
      "npm error errno 403",
      "npm error syscall publish",
      "npm error 403 Forbidden - the package's code owners must approve this publish   ",
      "npm error A complete log of this run can be found in: /tmp/x.log",
    ].join("\n");
    expect(npmError({ stdout: "", stderr, message: "Command failed" })).toBe(
      "403 Forbidden - the package's code owners must approve this publish",
    );
    // npm 6 and older: `npm ERR!`.
    expect(npmError({ stderr: "npm ERR! code E404\nnpm ERR! 404 Not Found - GET x", message: "m" })).toBe(
      "404 Not Found - GET x",
    );
  });

  it("else the first line of the failure's own message", () => {
    expect(npmError({ message: `Command failed: npm whoami --registry ${URL_WITH_LOGIN}\nmore` })).toBe(
      `Command failed: npm whoami --registry ${SHOWN}`,
    );
    expect(npmError({ stdout: "{}", stderr: "npm warn config x\n", message: "spawn npm ENOENT" })).toBe(
      "spawn npm ENOENT",
    );
  });
});

describe("asking npm", () => {
  let npm: FakeNpm;
  beforeEach(() => {
    npm = fakeNpm();
  });
  afterEach(() => npm.restore());

  it("a version is published when the registry shows it, not when it shows nothing or has never seen the package", async () => {
    npm.answer("view", { stdout: '"1.0.0"\n' });
    expect(await isPublished(LOCAL, "@media-service/client", "1.0.0")).toBe(true);
    npm.answer("view", { stdout: "\n" });
    expect(await isPublished(LOCAL, "@media-service/client", "1.0.1")).toBe(false);
    npm.answer("view", { stdout: jsonError("E404", "Not Found - GET x"), code: 1 });
    expect(await isPublished(CONFIGURED, "@media-service/client", "1.0.0")).toBe(false);
    // Under npm run -s, npm's code is only its error line.
    npm.answer("view", { stderr: "npm error code E404\nnpm error 404 Not Found", code: 1 });
    expect(await isPublished(CONFIGURED, "@media-service/client", "1.0.0")).toBe(false);
    expect(npm.calls()).toEqual([
      ["view", "@media-service/client@1.0.0", "version", "--json", "--registry", "http://127.0.0.1:4873/"],
      ["view", "@media-service/client@1.0.1", "version", "--json", "--registry", "http://127.0.0.1:4873/"],
      ["view", "@media-service/client@1.0.0", "version", "--json"],
      ["view", "@media-service/client@1.0.0", "version", "--json"],
    ]);
  });

  it("a registry it cannot ask is one line naming it, the version, and npm's error", async () => {
    npm.answer("view", { stdout: jsonError("E500", `500 Internal Server Error - GET ${URL_WITH_LOGIN}x`), code: 1 });
    expect(await refusal(isPublished(registryOf(URL_WITH_LOGIN), "@media-service/client", "2.0.0"))).toBe(
      `cannot ask ${SHOWN} for @media-service/client@2.0.0: 500 Internal Server Error - GET ${SHOWN}x`,
    );
    npm.answer("view", { stderr: "npm error code E4041\nnpm error not found", code: 1 });
    expect(await refusal(isPublished(CONFIGURED, "x", "1.0.0"))).toBe(
      "cannot ask the registry of npm's configuration for x@1.0.0: not found",
    );
  });

  it("publishes a tarball, public and without its scripts, and a refusal names the registry and the tarball", async () => {
    await publish(LOCAL, "/tmp/out/media-service-client-1.0.0.tgz");
    await publish(CONFIGURED, "/tmp/out/media-service-tools-1.0.0.tgz");
    expect(npm.calls()).toEqual([
      [
        "publish",
        "/tmp/out/media-service-client-1.0.0.tgz",
        "--access",
        "public",
        "--ignore-scripts",
        "--registry",
        "http://127.0.0.1:4873/",
      ],
      ["publish", "/tmp/out/media-service-tools-1.0.0.tgz", "--access", "public", "--ignore-scripts"],
    ]);
    npm.answer("publish", {
      stderr: "npm notice Publishing\nnpm error code E403\nnpm error 403 Forbidden - cannot publish over 1.0.0",
      code: 1,
    });
    expect(await refusal(publish(registryOf(URL_WITH_LOGIN), "/tmp/out/media-service-client-1.0.0.tgz"))).toBe(
      `${SHOWN} refused media-service-client-1.0.0.tgz: 403 Forbidden - cannot publish over 1.0.0`,
    );
  });

  it("who is logged in, and no login says how to log in, at the registry named", async () => {
    npm.answer("whoami", { stdout: '"releaser"\n' });
    expect(await loggedInAs(LOCAL)).toBe("releaser");
    expect(npm.calls()).toEqual([["whoami", "--json", "--registry", "http://127.0.0.1:4873/"]]);
    npm.answer("whoami", { stdout: jsonError("ENEEDAUTH", "This command requires you to be logged in."), code: 1 });
    expect(await refusal(loggedInAs(registryOf(URL_WITH_LOGIN)))).toBe(
      `${SHOWN} has no login for npm here (This command requires you to be logged in.); log in with npm login --registry ${SHOWN} (npm adduser --registry ${SHOWN} makes an account), or put a token for it in .npmrc; nothing was built, written or published`,
    );
    npm.answer("whoami", { stderr: "npm error code E401\nnpm error 401 Unauthorized", code: 1 });
    expect(await refusal(loggedInAs(CONFIGURED))).toBe(
      "the registry of npm's configuration has no login for npm here (401 Unauthorized); log in with npm login (npm adduser makes an account), or put a token for it in .npmrc; nothing was built, written or published",
    );
    expect(npm.calls().at(-1)).toEqual(["whoami", "--json"]);
    npm.answer("whoami", { stderr: "npm error code ECONNREFUSED\nnpm error connect ECONNREFUSED", code: 1 });
    expect(await refusal(loggedInAs(LOCAL))).toBe(
      "cannot ask http://127.0.0.1:4873/ who is logged in: connect ECONNREFUSED",
    );
  });
});
