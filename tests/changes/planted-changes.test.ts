/**
 * Each kind of change planted alone into a copy of the bundled description: the comparison reports
 * exactly the expected changes, classified for client code, with their release-note lines, and
 * exactly the expected changelog lines.
 */
import { describe, expect, it } from "vitest";
import { compareDescriptions, type Comparison } from "../../changes/compare.ts";
import { loadBundle } from "../../model/document.ts";
import { placeholderPaths } from "../../model/slug-map.ts";
import type { LooseJson } from "../support/loose.ts";
import { PLANTED, type PlantedKind } from "./planted.ts";

// The kinds name routes by their placeholder slugs, whatever slug map the project builds with.
const bundle = loadBundle();
const base = { ...bundle, paths: placeholderPaths(bundle.paths) as typeof bundle.paths };
const pristine = JSON.stringify(base);

/** The description as every kind in `kinds` needs it before its change (most need nothing). */
function before(kinds: readonly PlantedKind[]): typeof base {
  const doc = structuredClone(base);
  for (const kind of kinds) kind.before?.(doc);
  return doc;
}

function compareWith(kind: PlantedKind): Comparison {
  const old = before([kind]);
  const planted = structuredClone(old);
  kind.plant(planted);
  return compareDescriptions({ source: "before", doc: old }, { source: "after", doc: planted });
}

describe("planted changes", () => {
  it("cover at least 25 kinds, each reporting something", () => {
    expect(new Set(PLANTED.map((kind) => kind.kind)).size).toBe(PLANTED.length);
    expect(PLANTED.length).toBeGreaterThanOrEqual(25);
    for (const kind of PLANTED) expect(kind.changes.length + kind.changelog.length, kind.kind).toBeGreaterThan(0);
    const breaking = PLANTED.flatMap((kind) => kind.changes).filter(([, severity]) => severity === "breaking");
    expect(breaking.length).toBeGreaterThanOrEqual(25);
  });

  it.each(PLANTED.map((kind) => [kind.kind, kind] as const))("%s", (_, kind) => {
    const comparison = compareWith(kind);
    expect(comparison.changes.map((change) => [change.id, change.severity, change.message])).toEqual(kind.changes);
    expect(comparison.changelog.map((entry) => entry.line)).toEqual(kind.changelog);
  });

  it("leave the description they are compared with untouched", () => {
    expect(JSON.stringify(base) === pristine).toBe(true);
  });
});

describe("the comparison", () => {
  it("finds nothing between a description and a copy of it", () => {
    const comparison = compareDescriptions({ source: "a", doc: base }, { source: "b", doc: structuredClone(base) });
    expect(comparison.changes).toEqual([]);
    expect(comparison.changelog).toEqual([]);
  });

  it("reads any valid OpenAPI 3.1 description: path items by $ref, operations without responses, no paths at all", () => {
    const byRef = structuredClone(base) as LooseJson;
    byRef.components.pathItems = { Credits: byRef.paths["/v1/account/credits"] };
    byRef.paths["/v1/account/credits"] = { $ref: "#/components/pathItems/Credits" };
    expect(compareDescriptions({ source: "a", doc: base }, { source: "b", doc: byRef }).changes).toEqual([]);
    const silent = structuredClone(base) as LooseJson;
    delete silent.paths["/v1/account/credits"].get.responses;
    const removed = compareDescriptions({ source: "a", doc: base }, { source: "b", doc: silent }).changes.filter(
      (change) => change.rule === "response-status-removed",
    );
    expect(removed.map((change) => change.detail)).toContain("200");
    const bare = {
      openapi: "3.1.0",
      info: { title: "t", version: "2" },
      paths: {},
      components: {},
    } as unknown as typeof base;
    const comparison = compareDescriptions({ source: "a", doc: base }, { source: "b", doc: bare });
    expect(comparison.changes.filter((change) => change.rule === "route-removed")).toHaveLength(
      Object.values(base.paths).flatMap((item) => Object.keys(item)).length,
    );
    expect(comparison.changes.find((change) => change.rule === "service-model-unreadable")?.severity).toBe("breaking");
  });

  it("reports a change to a shared schema once, with every route that reaches it", () => {
    const kind = PLANTED.find((candidate) => candidate.kind === "response enum value added")!;
    const [change, ...others] = compareWith(kind).changes;
    expect(others).toEqual([]);
    const polls = Object.keys(base.paths)
      .filter((path) => path.endsWith("/{id}"))
      .map((path) => `GET ${path}`);
    expect(polls.length).toBeGreaterThan(5);
    expect(change!.routes).toEqual(expect.arrayContaining([...polls, "POST /v1/images/i-a", "POST /v1/videos/v-a"]));
    // Routes whose responses never reach JobStatus are not listed.
    expect(change!.routes).not.toContain("GET /v1/account/credits");
  });

  it("classifies the same edit by direction: a new enum value is compatible in a request, breaking in a response", () => {
    const severity = (name: string): string =>
      compareWith(PLANTED.find((kind) => kind.kind === name)!).changes[0]!.severity;
    expect(severity("request enum value added")).toBe("compatible");
    expect(severity("response enum value added")).toBe("breaking");
    expect(severity("request enum value removed")).toBe("breaking");
    expect(severity("response enum value removed")).toBe("compatible");
  });

  it("finds each planted change again when all of them are planted into one copy", () => {
    // Kinds that edit the same spot as another are left out, and so is a description the service
    // model cannot read (its models, prices and limits are then not compared); the rest must not mask each other.
    const overlapping = new Set([
      "request max widened",
      "request field made optional",
      "price now stated",
      "price's form now stated, its rate not shown",
      "request opened",
      "security requirement relaxed",
      "429 without Retry-After (the service model cannot read it)",
    ]);
    const kinds = PLANTED.filter((kind) => !overlapping.has(kind.kind));
    const old = before(kinds);
    const planted = structuredClone(old);
    for (const kind of kinds) kind.plant(planted);
    const comparison = compareDescriptions({ source: "before", doc: old }, { source: "after", doc: planted });
    const ids = comparison.changes.map((change) => change.id);
    for (const kind of kinds) for (const [id] of kind.changes) expect(ids, kind.kind).toContain(id);
    const lines = comparison.changelog.map((entry) => entry.line);
    for (const kind of kinds) for (const line of kind.changelog) expect(lines, kind.kind).toContain(line);
  });
});
