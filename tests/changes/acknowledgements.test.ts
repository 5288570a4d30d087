/**
 * The acknowledgements file (changes/acknowledgements.ts): read strictly, every refusal naming the
 * entry; applied to a comparison, each entry must name one of its breaking changes; ids written
 * against the placeholder slugs match the changes a slug-mapped build names.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Acknowledgement, applyAcknowledgements, readAcknowledgements } from "../../changes/acknowledgements.ts";
import { ChangeCollector, type Finding } from "../../changes/change.ts";
import type { Comparison } from "../../changes/compare.ts";
import { UsageError } from "../../tools/command.ts";

const LABEL = "changes/acknowledged.json";
const QUEUED = 'response-enum-value-added@schema JobStatus="queued"';
const REMOVED = "route-removed@POST /v1/images/i-d=I-D";
const ADDED = "route-added@GET /v1/account/usage";

let dir = "";
let slugMap: string | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "acknowledgements-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Placeholder slugs unless a test names a map, whatever the environment says.
beforeEach(() => {
  slugMap = process.env.MEDIA_SLUG_MAP;
  process.env.MEDIA_SLUG_MAP = "none";
});
afterEach(() => {
  if (slugMap === undefined) delete process.env.MEDIA_SLUG_MAP;
  else process.env.MEDIA_SLUG_MAP = slugMap;
});

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

/** A comparison of before.json with after.json that found `findings`. */
function comparison(...findings: Finding[]): Comparison {
  const collector = new ChangeCollector();
  for (const finding of findings) collector.report(finding);
  return {
    before: { source: "before.json", version: "1" },
    after: { source: "after.json", version: "2" },
    changes: collector.changes(),
    changelog: [],
  };
}

const queued: Finding = {
  rule: "enum-value-added",
  location: "schema JobStatus",
  detail: '"queued"',
  direction: "response",
};
const retired: Finding = { rule: "route-removed", location: "POST /v1/images/i-d", detail: "I-D" };
const usage: Finding = { rule: "route-added", location: "GET /v1/account/usage" };

describe("reading the acknowledgements file", () => {
  it("gives each entry's id and reason, in order", () => {
    const path = file("ok.json", {
      acknowledged: [
        { id: QUEUED, reason: "Jobs may wait in a queue." },
        { id: REMOVED, reason: "I-D is retired." },
      ],
    });
    expect(readAcknowledgements(path, LABEL)).toEqual([
      { id: QUEUED, reason: "Jobs may wait in a queue." },
      { id: REMOVED, reason: "I-D is retired." },
    ]);
  });

  it.each<[string, unknown, string]>([
    ["not an object", [], `${LABEL}: must be an object with an "acknowledged" array`],
    ["no acknowledged array", { acknowledged: {} }, `${LABEL}: must be an object with an "acknowledged" array`],
    [
      "a key beside acknowledged",
      { acknowledged: [], release: "2.0.0" },
      `${LABEL}: unknown key "release"; the file holds only "acknowledged"`,
    ],
    [
      "an entry that is not an object",
      { acknowledged: [QUEUED] },
      `${LABEL}: acknowledged[0] must be an object with "id" and "reason"`,
    ],
    [
      "an entry with an unknown key",
      { acknowledged: [{ id: QUEUED, reason: "r", ticket: 4 }] },
      `${LABEL}: acknowledged[0] has unknown key "ticket" (allowed: id, reason)`,
    ],
    [
      "an entry without an id",
      { acknowledged: [{ id: QUEUED, reason: "r" }, { reason: "r" }] },
      `${LABEL}: acknowledged[1].id must be a non-empty string, the id of a breaking change as the diff prints it`,
    ],
    [
      "an entry whose id is blank",
      { acknowledged: [{ id: "   ", reason: "r" }] },
      `${LABEL}: acknowledged[0].id must be a non-empty string, the id of a breaking change as the diff prints it`,
    ],
    [
      "an entry without a reason",
      { acknowledged: [{ id: QUEUED }] },
      `${LABEL}: acknowledged[0].reason must be a non-empty string saying why the break is accepted`,
    ],
    [
      "an entry whose reason is blank",
      { acknowledged: [{ id: QUEUED, reason: " \n" }] },
      `${LABEL}: acknowledged[0].reason must be a non-empty string saying why the break is accepted`,
    ],
    [
      "an id given twice",
      {
        acknowledged: [
          { id: QUEUED, reason: "a" },
          { id: REMOVED, reason: "b" },
          { id: QUEUED, reason: "c" },
        ],
      },
      `${LABEL}: acknowledged[2].id repeats acknowledged[0].id "${QUEUED}"`,
    ],
  ])("refuses %s, naming the entry", (name, content, message) => {
    const path = file(`${name.replaceAll(" ", "-")}.json`, content);
    expect(() => readAcknowledgements(path, LABEL)).toThrow(new UsageError(message));
  });

  it("names the file by its path when given no label", () => {
    const path = file("extra.json", { acknowledged: [], notes: "" });
    expect(() => readAcknowledgements(path)).toThrow(
      new UsageError(`${path}: unknown key "notes"; the file holds only "acknowledged"`),
    );
  });

  it("refuses a file it cannot read, saying why", () => {
    const missing = join(dir, "missing.json");
    expect(() => readAcknowledgements(missing, LABEL)).toThrow(UsageError);
    expect(() => readAcknowledgements(missing, LABEL)).toThrow(
      `${LABEL}: not readable (ENOENT: no such file or directory, open '${missing}')`,
    );
  });
});

describe("applying acknowledgements", () => {
  const ack = (id: string, reason = "accepted"): Acknowledgement => ({ id, reason });

  it("marks each acknowledged breaking change with its reason and counts what is left", () => {
    const compared = comparison(queued, retired, usage);
    const report = applyAcknowledgements(compared, [ack(QUEUED, "Jobs may wait in a queue.")], LABEL);
    const byId = new Map(report.changes.map((change) => [change.id, change]));
    expect(byId.get(QUEUED)?.acknowledged).toBe("Jobs may wait in a queue.");
    // A change no entry names is reported as it was, with no acknowledged field.
    expect(byId.get(REMOVED)).toStrictEqual(compared.changes.find((change) => change.id === REMOVED));
    expect(byId.get(ADDED)).toStrictEqual(compared.changes.find((change) => change.id === ADDED));
    expect(report.summary).toEqual({ breaking: 2, acknowledged: 1, unacknowledged: 1, compatible: 1 });
  });

  it("refuses an id that names no change of the comparison, naming the entry and the sides", () => {
    expect(() =>
      applyAcknowledgements(comparison(queued), [ack(QUEUED), ack("route-removed@GET /v1/nowhere")], LABEL),
    ).toThrow(
      new UsageError(
        `${LABEL}: acknowledged[1].id "route-removed@GET /v1/nowhere" names no change between before.json and after.json; remove it or copy the id the diff prints`,
      ),
    );
  });

  it("refuses an id that names a compatible change", () => {
    expect(() => applyAcknowledgements(comparison(usage), [ack(ADDED)], LABEL)).toThrow(
      new UsageError(
        `${LABEL}: acknowledged[0].id "${ADDED}" names a compatible change; only breaking changes are acknowledged`,
      ),
    );
  });

  it("names the entries of acknowledgements given in no file as acknowledgements", () => {
    expect(() => applyAcknowledgements(comparison(), [ack(QUEUED)])).toThrow(
      `acknowledgements: acknowledged[0].id "${QUEUED}" names no change between before.json and after.json`,
    );
  });

  it("reads ids written against the placeholder slugs as a slug-mapped build names its routes", () => {
    process.env.MEDIA_SLUG_MAP = file("slug-map.json", { "i-a": "aurora", "i-d": "dusk" });
    // The slug ends the id, or comes before a space, an `=` or a quote; a route whose slug the map does not name stays.
    const findings: Finding[] = [
      { rule: "operation-id-changed", location: "POST /v1/images/aurora" },
      { rule: "request-body-removed", location: "POST /v1/images/aurora request body" },
      { rule: "route-removed", location: "POST /v1/images/dusk", detail: "I-D" },
      {
        rule: "enum-value-removed",
        location: "schema Route",
        detail: '"POST /v1/images/aurora"',
        direction: "request",
      },
      { rule: "parameter-removed", location: "GET /v1/account/credits query parameter page" },
    ];
    const written = [
      "operation-id-changed@POST /v1/images/i-a",
      "request-body-removed@POST /v1/images/i-a request body",
      "route-removed@POST /v1/images/i-d=I-D",
      'request-enum-value-removed@schema Route="POST /v1/images/i-a"',
      "parameter-removed@GET /v1/account/credits query parameter page",
    ];
    const report = applyAcknowledgements(
      comparison(...findings),
      written.map((id) => ack(id, id)),
      LABEL,
    );
    expect(report.summary).toEqual({ breaking: 5, acknowledged: 5, unacknowledged: 0, compatible: 0 });
    expect(Object.fromEntries(report.changes.map((change) => [change.id, change.acknowledged]))).toEqual({
      "operation-id-changed@POST /v1/images/aurora": written[0],
      "request-body-removed@POST /v1/images/aurora request body": written[1],
      "route-removed@POST /v1/images/dusk=I-D": written[2],
      'request-enum-value-removed@schema Route="POST /v1/images/aurora"': written[3],
      "parameter-removed@GET /v1/account/credits query parameter page": written[4],
    });
  });
});
