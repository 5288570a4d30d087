/**
 * `npm run diff:bench`: how long a comparison of two full descriptions takes, in process (loading
 * excluded): the latest release with the bundle, and the bundle with a copy in which every numeric
 * bound moves and every enum of a shared component gains a value (request enums are left alone:
 * a new value would need a price), so that most schemas differ.
 */
import type { OpenApiDocument } from "../model/document.ts";
import { compareDescriptions, type Side } from "./compare.ts";
import { loadSide } from "./load-side.ts";
import { BUNDLE_FILE, latestRelease, releaseSide } from "./releases.ts";
import { BOUNDS } from "./rules.ts";
import { isObject } from "./schema-shape.ts";

const RUNS = 20;

function schemasChanged(doc: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(doc);
  const visit = (node: unknown, enums: boolean): void => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item, enums));
    if (!isObject(node)) return;
    if (enums && Array.isArray(node.enum)) node.enum.push("bench-value");
    for (const { keyword } of BOUNDS) if (typeof node[keyword] === "number") node[keyword] = (node[keyword] as number) + 1;
    Object.values(node).forEach((value) => visit(value, enums));
  };
  visit(copy.paths, false);
  visit(copy.components, true);
  return copy;
}

function measure(label: string, before: Side, after: Side): void {
  const times: number[] = [];
  let changes = 0;
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    changes = compareDescriptions(before, after).changes.length;
    times.push(performance.now() - start);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const ms = (value: number): string => `${value.toFixed(1)} ms`;
  console.log(`${label}: ${changes} changes; first run ${ms(times[0]!)}, median ${ms(sorted[Math.floor(RUNS / 2)]!)}, slowest ${ms(sorted.at(-1)!)} (${RUNS} runs)`);
}

const release = releaseSide(latestRelease());
const bundle = loadSide(BUNDLE_FILE, "bundle");
measure(`${release.source} → generated/openapi.json`, release, bundle);
measure("generated/openapi.json → its schemas changed", bundle, { source: "changed", doc: schemasChanged(bundle.doc) });
