/**
 * What the change report reads and how it says what it could not: sides from files and git, the
 * release folders of the default comparison (`--root`), the ids the error lists, the routes' areas
 * and titles, and a side the service model cannot read.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { latestRelease, releaseFolders, releaseSide } from "../../changes/baseline.ts";
import { compareDescriptions } from "../../changes/compare.ts";
import { loadSide } from "../../changes/load-side.ts";
import { loadBundle, type OpenApiDocument } from "../../model/document.ts";
import { runDiffIn } from "../support/diff-run.ts";
import type { LooseJson } from "../support/loose.ts";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "changes-inputs-"));
  // The small descriptions here have none of the service's paths, so no slug map applies to them.
  vi.stubEnv("MEDIA_SLUG_MAP", "none");
});

afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes `value` (text as is, anything else as JSON) to `name` under `root`, making its folders. */
function write(root: string, name: string, value: unknown): string {
  const file = join(root, name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
}

/** A small description: GET /v1/things answers a Thing whose fields `required` lists. */
function things(version: string, required: string[], extra: Record<string, unknown> = {}): OpenApiDocument {
  const body = { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } };
  return {
    openapi: "3.1.0",
    info: { title: "t", version },
    paths: {
      "/v1/things": { get: { operationId: "listThings", responses: { "200": { description: "ok", content: body } } } },
    },
    components: {
      schemas: {
        Thing: {
          type: "object",
          properties: { size: { type: "integer" }, color: { type: "string" }, ...extra },
          required,
        },
      },
    },
  } as OpenApiDocument;
}

const run = (args: string[], cwd = dir) => runDiffIn(cwd, args);

const SIZE_OPTIONAL = "response-property-became-optional@schema Thing.size";
const COLOR_OPTIONAL = "response-property-became-optional@schema Thing.color";

describe("a side from a file", () => {
  // A thunk loading `content` written to `name`, for toThrowError.
  const load = (name: string, content: unknown) => () => {
    write(dir, name, content);
    return loadSide(name, "OLD", dir);
  };

  it("reads .yml and .yaml as YAML, and any other name as JSON", () => {
    const yaml = 'openapi: 3.1.0\ninfo:\n  title: t\n  version: "7"\npaths: {}\n';
    expect(load("short.yml", yaml)().doc.info.version).toBe("7");
    expect(load("long.YAML", yaml)().doc.info.version).toBe("7");
    // Only the last extension counts: this is JSON, and its error says so.
    expect(load("named.yaml.json", "{ not json")).toThrowError(/^OLD named\.yaml\.json: not readable as JSON \(/);
  });

  it("names the parser's first line of complaint, whole, when the text does not parse", () => {
    expect(load("broken.json", "{ not json")).toThrowError(/^OLD broken\.json: not readable as JSON \(.{10,}\)$/);
    expect(load("broken.yaml", "a: [unclosed\nb: 1\n")).toThrowError(
      /^OLD broken\.yaml: not readable as YAML \([^\n]{10,}\)$/,
    );
  });

  it("refuses a folder", () => {
    mkdirSync(join(dir, "folder"), { recursive: true });
    expect(() => loadSide("folder", "NEW", dir)).toThrowError(
      /^NEW folder: is a folder; give a description file or a git ref$/,
    );
  });

  it("refuses what is not an object", () => {
    expect(load("list.json", [])).toThrowError(/^OLD list\.json: must be an OpenAPI document \(a JSON object\)$/);
  });

  it("accepts any 3.1.x version of OpenAPI, and nothing else", () => {
    const doc = (openapi: string) => ({ ...things("1", []), openapi });
    expect(load("v3110.json", doc("3.1.10"))().doc.openapi).toBe("3.1.10");
    for (const openapi of ["3.1.0-rc1", "13.1.0", "3.0.3"]) {
      expect(load("version.json", doc(openapi))).toThrowError(
        `OLD version.json: openapi must be a 3.1.x version string, got "${openapi}"; this tool reads OpenAPI 3.1 only`,
      );
    }
  });

  it("requires a non-empty info.version", () => {
    expect(load("empty-version.json", things("", []))).toThrowError(
      /^OLD empty-version\.json: info\.version must be a non-empty string$/,
    );
  });

  it("takes paths and components as optional (OpenAPI 3.1), but as objects when present", () => {
    const { doc } = load("bare.json", { openapi: "3.1.0", info: { title: "t", version: "1" } })();
    expect([doc.paths, doc.components]).toEqual([{}, {}]);
    const bad = (key: string) => ({ ...things("1", []), [key]: [] });
    expect(load("paths.json", bad("paths"))).toThrowError(/^OLD paths\.json: paths must be an object$/);
    expect(load("components.json", bad("components"))).toThrowError(
      /^OLD components\.json: components must be an object$/,
    );
  });
});

describe("a side from git", () => {
  let repo: string;

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), "changes-inputs-repo-"));
    const git = (...args: string[]): string =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
        cwd: repo,
        encoding: "utf8",
      });
    git("init", "-q");
    // A committed bundle that is not JSON: read as JSON (a bundle is), so its error says JSON.
    write(repo, "generated/openapi.json", "{");
    git("add", ".");
    git("commit", "-q", "-m", "broken bundle");
  });

  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it("reads a ref's committed bundle as JSON and names it REF:generated/openapi.json", () => {
    expect(() => loadSide("HEAD", "OLD", repo)).toThrowError(
      /^OLD HEAD:generated\/openapi\.json: not readable as JSON \(/,
    );
  });

  it("gives git's own first line when it cannot show REF:path", () => {
    expect(() => loadSide("HEAD:missing.json", "OLD", repo)).toThrowError(
      /^OLD HEAD:missing\.json: no such file, and git cannot show it as REF:path \(fatal: [^\n]*missing\.json[^\n]*\)$/,
    );
  });
});

describe("the release folders", () => {
  it("are the folders holding a record, oldest first: interface-version folders, then package versions in semver order", () => {
    const releases = join(dir, "ordered", "releases");
    for (const name of ["1.10.0", "2026-01-01", "1.9.0"]) {
      write(releases, `${name}/release.json`, {});
      write(releases, `${name}/openapi.json`, things("1", []));
    }
    // A folder without a record is no release yet, and a file is no folder.
    write(releases, "2.0.0/openapi.json", things("1", []));
    write(releases, "notes.txt", "not a release");
    expect(releaseFolders(releases).map((release) => release.name)).toEqual(["2026-01-01", "1.9.0", "1.10.0"]);
    expect(latestRelease(releases)).toEqual({
      name: "1.10.0",
      dir: join(releases, "1.10.0"),
      file: join(releases, "1.10.0", "openapi.json"),
      label: "releases/1.10.0/openapi.json",
    });
  });

  it("with none recorded: no baseline, and the error says how to record the first", () => {
    const empty = join(dir, "no-releases");
    mkdirSync(empty, { recursive: true });
    expect(releaseFolders(join(dir, "nowhere"))).toEqual([]);
    expect(() => latestRelease(empty)).toThrowError(/: no release yet; record the first with npm run release$/);
  });

  it("a release's description is a side named by its label, and its errors name it as the release", () => {
    const releases = join(dir, "sides", "releases");
    write(releases, "1.0.0/release.json", {});
    const file = write(releases, "1.0.0/openapi.json", things("1", ["size"]));
    const side = releaseSide(latestRelease(releases));
    expect(side.source).toBe("releases/1.0.0/openapi.json");
    expect(side.doc.info.version).toBe("1");
    write(releases, "1.0.0/openapi.json", "{");
    expect(() => releaseSide(latestRelease(releases))).toThrowError(`release ${file}: not readable as JSON (`);
  });
});

describe("npm run diff on a project folder (--root) and its error", () => {
  /** A project whose release 1.0.0 requires both fields and whose bundle requires neither (and adds one). */
  function project(name: string, bundle: unknown, acknowledged?: string[]): string {
    const root = join(dir, name);
    write(root, "releases/1.0.0/release.json", {});
    write(root, "releases/1.0.0/openapi.json", things("1", ["size", "color"]));
    write(root, "generated/openapi.json", bundle);
    if (acknowledged)
      write(root, "changes/acknowledged.json", {
        acknowledged: acknowledged.map((id) => ({ id, reason: "Every client already treats it as optional." })),
      });
    return root;
  }
  const bundle = () => things("2", [], { shade: { type: "string" } });

  it("compares the project's latest release with its bundle, acknowledged by the project's file, and lists only the unacknowledged breaking ids", () => {
    project("acknowledging", bundle(), [SIZE_OPTIONAL]);
    const { status, stdout, stderr } = run(["--root", "acknowledging"]);
    expect(stdout).toContain(
      "Compared releases/1.0.0/openapi.json (version 1) with generated/openapi.json (version 2): **2 breaking** (1 accepted), 1 compatible, 1 changelog entry.",
    );
    expect(stderr).toBe(
      `diff: 1 unacknowledged breaking change; acknowledge it by id in changes/acknowledged.json with a reason, or undo it:\n  ${COLOR_OPTIONAL}\n`,
    );
    expect(status).toBe(1);
  });

  it("with several unacknowledged breaking changes says so in the plural and lists each id on its own line", () => {
    const root = project("plural", bundle());
    const { status, stderr } = run(["releases/1.0.0/openapi.json", "generated/openapi.json"], root);
    expect(stderr).toBe(
      "diff: 2 unacknowledged breaking changes; acknowledge each by id in a file passed with --ack FILE (changes/acknowledged.json acknowledges only the default comparison, the latest release with the bundle) with a reason, or undo it:\n" +
        `  ${COLOR_OPTIONAL}\n  ${SIZE_OPTIONAL}\n`,
    );
    expect(status).toBe(1);
  });

  it("names the bundle of --root as NEW generated/openapi.json in its error", () => {
    project("broken-bundle", "{");
    const { status, stderr } = run(["--root", "broken-bundle"]);
    expect(stderr).toMatch(/^diff: NEW generated\/openapi\.json: not readable as JSON \(/);
    expect(status).toBe(2);
  });

  it("refuses a --root folder that does not exist", () => {
    expect(run(["--root", "no-such-project"])).toEqual({
      status: 2,
      stdout: "",
      stderr: "diff: --root no-such-project: no such folder\n",
    });
  });
});

describe("the comparison's route titles", () => {
  it("name every route of either side by its tag and summary, the newer side's winning, an untagged route under Other routes", () => {
    const titled = (summary: string) => {
      const doc = things("1", []) as LooseJson;
      Object.assign(doc.paths["/v1/things"].get, { tags: ["Things", "Extra"], summary });
      return doc as OpenApiDocument;
    };
    const before = titled("List the things");
    before.paths["/v1/gone"] = { get: { operationId: "listGone", responses: { "204": { description: "gone" } } } };
    const { routeTitles } = compareDescriptions(
      { source: "a", doc: before },
      { source: "b", doc: titled("List things") },
    );
    expect(routeTitles).toEqual({
      "GET /v1/things": { area: "Things", title: "List things" },
      "GET /v1/gone": { area: "Other routes", title: "" },
    });
  });
});

describe("a side the service model cannot read", () => {
  let base: OpenApiDocument;
  beforeAll(() => {
    base = loadBundle();
  });
  const variant = (...plants: Array<(doc: LooseJson) => void>): OpenApiDocument => {
    const doc = structuredClone(base) as LooseJson;
    for (const plant of plants) plant(doc);
    return doc as OpenApiDocument;
  };
  const noLimits = (doc: LooseJson) => delete doc.info["x-limits"];
  const noRetryAfter = (doc: LooseJson) => delete doc.components.responses.TooManyRequests.headers["Retry-After"];
  // The README's example: the same URLs, another parameter name.
  const renamed = (doc: LooseJson) => {
    doc.paths["/v1/images/{job_id}"] = doc.paths["/v1/images/{id}"];
    delete doc.paths["/v1/images/{id}"];
    doc.components.parameters.ImageJobId.name = "job_id";
  };
  const compare = (before: OpenApiDocument, after: OpenApiDocument) =>
    compareDescriptions({ source: "a", doc: before }, { source: "b", doc: after });
  const ids = (before: OpenApiDocument, after: OpenApiDocument) => compare(before, after).changes.map((c) => c.id);
  const UNREADABLE = "service-model-unreadable@description=";

  it("is no change when the older side could not be read for the same reason", () => {
    expect(compare(variant(noLimits), variant(noLimits))).toMatchObject({ changes: [], changelog: [] });
  });

  it("is a breaking change when the reason is new, even if the older side could not be read either", () => {
    const found = ids(variant(noRetryAfter), variant(noLimits));
    expect(found.filter((id) => id.startsWith("service-model-"))).toEqual([`${UNREADABLE}info has no x-limits`]);
  });

  it("read again is a compatible change naming the old reason, and no facts are compared with the unread side", () => {
    const comparison = compare(variant(noLimits), variant());
    expect(comparison.changes.map(({ id, severity }) => [id, severity])).toEqual([
      ["service-model-readable@description=info has no x-limits", "compatible"],
    ]);
    expect(comparison.changelog).toEqual([]);
  });

  it("is the newer side's own reason, as it spells its paths, when reading it as the older side spells them does not help", () => {
    const unreadable = (before: OpenApiDocument, after: OpenApiDocument) =>
      compare(before, after).changes.filter((c) => c.rule.startsWith("service-model-"));
    // Respelled, it still lacks its limits: the reason given is the renamed template's.
    const [respelledInVain] = unreadable(variant(), variant(renamed, noLimits));
    expect(respelledInVain?.id).toMatch(/^service-model-unreadable@description=.*\/v1\/images\/\{job_id\}/);
    // An older side the model cannot read lends no spelling: the newer one is read as it is.
    const [unlent] = unreadable(variant(noLimits), variant(renamed));
    expect(unlent?.id).toMatch(/^service-model-unreadable@description=.*\/v1\/images\/\{job_id\}/);
  });
});

describe("the not-shown changelog", () => {
  it("lists a marker added to an object both sides hold, not one that arrives with a new object", () => {
    const base = loadBundle();
    const marked = (schema: string) => {
      const doc = structuredClone(base) as LooseJson;
      doc.components.schemas[schema] = {
        ...(doc.components.schemas[schema] ?? { type: "object" }),
        "x-not-shown": { type: "The type is not shown." },
      };
      return doc as OpenApiDocument;
    };
    const lines = (after: OpenApiDocument) =>
      compareDescriptions({ source: "a", doc: base }, { source: "b", doc: after }).changelog.map((e) => e.line);
    expect(lines(marked("AccountCredits"))).toEqual([
      'Now marked not shown: Schema AccountCredits (type): "The type is not shown."',
    ]);
    expect(lines(marked("BrandNewThing"))).toEqual([]);
  });
});
