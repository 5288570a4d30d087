/**
 * The release records (release/records.ts): a record written is read back as it was; one read is
 * checked strictly, each error one line naming the file (`releases/<version>/release.json`) and
 * the field that is wrong, so a hand-edited or truncated record cannot render a wrong changelog;
 * a recorded description must carry the interface version its record says; and a record keeps of
 * a report only the titles of the routes its changes name.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import type { Report } from "../../changes/acknowledgements.ts";
import {
  folderOf,
  readRecords,
  recordedSide,
  recordText,
  reportParts,
  writeRecord,
  type ReleaseRecord,
} from "../../release/records.ts";
import { releasedBefore } from "./record-fixtures.ts";

let releases: string;
beforeEach(() => {
  releases = mkdtempSync(join(tmpdir(), "release-records-"));
});
afterEach(() => rmSync(releases, { recursive: true, force: true }));

/** A description as small as a comparison reads, with its interface version. */
const description = (version: string): string =>
  `${JSON.stringify({ openapi: "3.1.0", info: { title: "Media service", version }, paths: {} }, null, 2)}\n`;

const FIRST: ReleaseRecord = { ...releasedBefore("2026-06-20"), version: "1.0.0", bump: "first" };

const MAJOR: ReleaseRecord = {
  version: "2.0.0",
  interfaceVersion: "2026-07-01",
  bump: "major",
  comparedWith: "1.0.0",
  changes: [
    {
      id: 'response-enum-value-added@schema JobStatus="queued"',
      rule: "response-enum-value-added",
      severity: "breaking",
      location: "schema JobStatus",
      detail: '"queued"',
      message: 'schema JobStatus: may now be "queued"',
      routes: ["GET /v1/images/{job_id}"],
      acknowledged: "Jobs may now wait in a queue.",
    },
  ],
  changelog: [{ topic: "version", subject: "version", line: "Interface version 2026-06-20 → 2026-07-01." }],
  routeTitles: { "GET /v1/images/{job_id}": { area: "Images", title: "Get an image job" } },
};

/** Writes the first release, then `value` as the record of `folder` (1.0.0 by default). */
function recordAs(value: unknown, folder = "1.0.0"): void {
  mkdirSync(join(releases, folder), { recursive: true });
  writeFileSync(join(releases, folder, "release.json"), JSON.stringify(value));
}

const refusal = (): string => {
  try {
    readRecords(releases);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the record was read without an error");
};

describe("a release record", () => {
  it("is read back as it was written, in its folder named by its version, with the description it was built from", () => {
    const files = writeRecord(releases, FIRST, description("2026-06-20"));
    writeRecord(releases, MAJOR, description("2026-07-01"));
    expect(files).toEqual([join(releases, "1.0.0", "openapi.json"), join(releases, "1.0.0", "release.json")]);
    expect(readFileSync(files[0]!, "utf8")).toBe(description("2026-06-20"));
    expect(readFileSync(files[1]!, "utf8")).toBe(recordText(FIRST));
    expect(recordText(FIRST).endsWith("}\n")).toBe(true);
    expect(readRecords(releases).map((release) => [release.name, release.record])).toEqual([
      ["1.0.0", FIRST],
      ["2.0.0", MAJOR],
    ]);
  });

  it("of a description released before the packages is in the folder of its interface version", () => {
    const before = releasedBefore("2026-06-20");
    expect(folderOf(before)).toBe("2026-06-20");
    expect(folderOf(FIRST)).toBe("1.0.0");
    writeRecord(releases, before, description("2026-06-20"));
    expect(readRecords(releases).map((release) => release.record)).toEqual([before]);
  });

  it("keeps of a report the changes, the changelog, and the titles of only the routes its changes name", () => {
    const report = {
      changes: MAJOR.changes,
      changelog: MAJOR.changelog,
      routeTitles: {
        "GET /v1/images/{job_id}": { area: "Images", title: "Get an image job" },
        "POST /v1/images/i-a": { area: "Images", title: "Create an image with I-A" },
      },
    } as unknown as Report;
    expect(reportParts(report)).toEqual({
      changes: MAJOR.changes,
      changelog: MAJOR.changelog,
      routeTitles: MAJOR.routeTitles,
    });
    expect(reportParts({ ...report, routeTitles: undefined }).routeTitles).toEqual({});
  });
});

describe("reading the records strictly: one line naming the file and the field", () => {
  const at = "releases/1.0.0/release.json";
  const KEYS = "version, interfaceVersion, bump, comparedWith, changes, changelog, routeTitles";

  it("a record that is not an object, or has a key no record has", () => {
    recordAs([FIRST]);
    expect(refusal()).toBe(`${at}: must be an object with ${KEYS}`);
    recordAs(null);
    expect(refusal()).toBe(`${at}: must be an object with ${KEYS}`);
    recordAs({ ...FIRST, notes: "x" });
    expect(refusal()).toBe(`${at}: unknown key "notes" (allowed: ${KEYS})`);
  });

  it("a record that is not JSON, or not a file", () => {
    mkdirSync(join(releases, "1.0.0"));
    writeFileSync(join(releases, "1.0.0", "release.json"), '{"version": "1.0.0",');
    expect(refusal()).toMatch(/^releases\/1\.0\.0\/release\.json\b.*/);
    expect(refusal()).not.toContain("not readable");
    rmSync(join(releases, "1.0.0", "release.json"));
    mkdirSync(join(releases, "1.0.0", "release.json"));
    expect(refusal()).toMatch(/^releases\/1\.0\.0\/release\.json: not readable \(.*EISDIR/);
  });

  it("a version that is not MAJOR.MINOR.PATCH", () => {
    const said = `${at}: version must be MAJOR.MINOR.PATCH, or null for a description released before the packages`;
    for (const version of ["1.0", "1.0.0-beta", 1, ["1.0.0"]]) {
      recordAs({ ...FIRST, version });
      expect(refusal(), JSON.stringify(version)).toBe(said);
    }
  });

  it("an interface version that is not a non-empty string", () => {
    const said = `${at}: interfaceVersion must be the info.version of the description`;
    for (const interfaceVersion of ["", 20260620, null]) {
      recordAs({ ...FIRST, interfaceVersion });
      expect(refusal(), JSON.stringify(interfaceVersion)).toBe(said);
    }
  });

  it("a bump that is not one of the four, or one given to a description released before the packages", () => {
    const said = `${at.replace("1.0.0", "2026-06-20")}: bump must be one of first, major, minor, patch (null only without a version)`;
    recordAs({ ...FIRST, version: null, bump: "minor" }, "2026-06-20");
    expect(refusal()).toBe(said);
    rmSync(join(releases, "2026-06-20"), { recursive: true });
    recordAs({ ...FIRST, bump: null });
    expect(refusal()).toBe(said.replace("2026-06-20", "1.0.0"));
  });

  it("a comparedWith that is not a folder's name", () => {
    recordAs({ ...FIRST, comparedWith: 5 });
    expect(refusal()).toBe(`${at}: comparedWith must name the folder of the release compared against, or be null`);
  });

  it("changes that are not a list of changes, each with its texts and routes", () => {
    const said = `${at}: changes must be a list of changes, each with id, rule, severity, location, message and routes`;
    const good = MAJOR.changes[0]!;
    const { message: _message, ...noMessage } = good;
    for (const changes of [
      {},
      ["a change"],
      [noMessage],
      [{ ...good, message: 5 }],
      [{ ...good, id: null }],
      [{ ...good, routes: "GET /v1/images/{job_id}" }],
    ]) {
      recordAs({ ...FIRST, changes });
      expect(refusal(), JSON.stringify(changes)).toBe(said);
    }
  });

  it("a changelog that is not a list of entries, each with a topic and a line", () => {
    const said = `${at}: changelog must be a list of entries, each with a topic and a line`;
    for (const changelog of [
      {},
      [null],
      ["Interface version 2026-06-20 → 2026-07-01."],
      [{ topic: "prices" }],
      [{ line: "I-A: 24 → 25 credits." }],
      [{ topic: "prices", line: 5 }],
    ]) {
      recordAs({ ...FIRST, changelog });
      expect(refusal(), JSON.stringify(changelog)).toBe(said);
    }
  });

  it("routeTitles that are not an object", () => {
    for (const routeTitles of [null, [], "Images"]) {
      recordAs({ ...FIRST, routeTitles });
      expect(refusal(), JSON.stringify(routeTitles)).toBe(`${at}: routeTitles must be an object`);
    }
  });
});

describe("a recorded release as a side of a comparison", () => {
  it("is its description, which must carry the interface version its record says", () => {
    // The fixture has no paths for a slug map to rename (.ci/run's slug-map run sets one); put back
    // after the test, as the files of a worker share its environment.
    vi.stubEnv("MEDIA_SLUG_MAP", "");
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    writeRecord(releases, FIRST, description("2026-06-20"));
    const [release] = readRecords(releases);
    expect(recordedSide(release!)).toMatchObject({
      source: "releases/1.0.0/openapi.json",
      doc: { info: { version: "2026-06-20" } },
    });
    writeFileSync(join(releases, "1.0.0", "openapi.json"), description("2026-07-01"));
    expect(() => recordedSide(release!)).toThrow(
      'releases/1.0.0/openapi.json: info.version is "2026-07-01", but its record says 2026-06-20',
    );
  });
});
