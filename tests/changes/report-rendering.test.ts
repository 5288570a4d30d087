/**
 * The diff's Markdown report and the advice it gives, on small hand-made reports: the order of its
 * sections and groups, how a bullet names where a change is and which routes use it, each model
 * told once, the counts in words, and what a client developer does about each kind of break.
 */
import { describe, expect, it } from "vitest";
import type { Report, ReportedChange } from "../../changes/acknowledgements.ts";
import type { RouteTitle } from "../../changes/compare.ts";
import type { ChangelogEntry } from "../../changes/domain-changelog.ts";
import { renderMarkdown } from "../../changes/render-markdown.ts";
import type { Severity } from "../../changes/severity.ts";
import { whatToDo } from "../../changes/what-to-do.ts";

interface ChangeFields {
  rule: string;
  severity: Severity;
  location: string;
  says: string;
  routes: string[];
  detail?: string;
  acknowledged?: string;
}

/** A change as the collector builds it: the id and message from the rule, location and detail. */
function change({ says, ...fields }: ChangeFields): ReportedChange {
  const detail = fields.detail === undefined ? "" : `=${fields.detail}`;
  return { id: `${fields.rule}@${fields.location}${detail}`, message: `${fields.location}: ${says}`, ...fields };
}

interface ReportParts {
  changes?: ReportedChange[];
  changelog?: ChangelogEntry[];
  routeTitles?: Record<string, RouteTitle>;
  before?: { source: string; version: string };
  after?: { source: string; version: string };
}

/** A report with its summary counted as applyAcknowledgements counts it. */
function report(parts: ReportParts): Report {
  const changes = parts.changes ?? [];
  const breaking = changes.filter((item) => item.severity === "breaking");
  const acknowledged = breaking.filter((item) => item.acknowledged !== undefined).length;
  return {
    before: parts.before ?? { source: "a.json", version: "1" },
    after: parts.after ?? { source: "b.json", version: "1" },
    changes,
    changelog: parts.changelog ?? [],
    ...(parts.routeTitles ? { routeTitles: parts.routeTitles } : {}),
    summary: {
      breaking: breaking.length,
      acknowledged,
      unacknowledged: breaking.length - acknowledged,
      compatible: changes.length - breaking.length,
    },
  };
}

const VERSION_ENTRY: ChangelogEntry = { topic: "version", subject: "version", line: "Interface version 1 → 2." };

/**
 * Every kind of group at once, listed out of order: the whole description, two areas' shared
 * changes, routes of several areas, a route without a title, one without a tag, a retired model and
 * a new one, and a changelog of three topics.
 */
function fullReport(): Report {
  const titles: Record<string, RouteTitle> = {
    "GET /v1/accounts": { area: "Accounts", title: "" },
    "GET /v1/things": { area: "Things", title: "List things" },
    "POST /v1/things": { area: "Things", title: "Create a thing" },
    "POST /v1/things/om-1": { area: "Things", title: "Create with Old Maker" },
    "POST /v1/things/tm-2": { area: "Things", title: "Create with Thing Maker 2" },
    "GET /v1/zebras": { area: "Zebra", title: "List zebras" },
  };
  const breaking = (fields: Omit<ChangeFields, "severity">) => change({ ...fields, severity: "breaking" });
  const compatible = (fields: Omit<ChangeFields, "severity">) => change({ ...fields, severity: "compatible" });
  return report({
    before: { source: "/home/maintainer/work/old.json", version: "1" },
    after: { source: "HEAD:generated/openapi.json", version: "2" },
    routeTitles: titles,
    changes: [
      breaking({
        rule: "response-property-removed",
        location: "GET /v1/zebras response body.stripes",
        says: "field removed",
        routes: ["GET /v1/zebras"],
      }),
      breaking({
        rule: "response-enum-value-added",
        location: "schema Status",
        detail: '"paused"',
        says: 'may now be "paused"',
        routes: ["GET /v1/accounts", "GET /v1/things", "GET /v1/zebras", "POST /v1/things"],
      }),
      breaking({
        rule: "service-model-unreadable",
        location: "description",
        detail: "info has no x-limits",
        says: "the service model can no longer read the description: info has no x-limits",
        routes: [],
      }),
      breaking({
        rule: "route-removed",
        location: "POST /v1/things/om-1",
        detail: "Old Maker",
        says: "model Old Maker removed (retired models answer 410 model_retired)",
        routes: ["POST /v1/things/om-1"],
      }),
      breaking({
        rule: "request-maximum-decreased",
        location: "POST /v1/things request body.size",
        says: "maximum lowered, 10 → 5",
        routes: ["POST /v1/things"],
        acknowledged: "Sizes above 5 were never served.",
      }),
      breaking({
        rule: "response-type-changed",
        location: "schema Thing.name",
        says: "type changed, string → integer",
        routes: ["GET /v1/things", "POST /v1/things"],
      }),
      breaking({
        rule: "parameter-became-required",
        location: "GET /v1/accounts parameter page",
        says: "parameter is now required.",
        routes: ["GET /v1/accounts"],
      }),
      breaking({
        rule: "response-minimum-decreased",
        location: "schema Money",
        says: "minimum lowered, 0 → -1",
        routes: ["GET /v1/accounts", "GET /v1/things", "GET /v1/zebras"],
      }),
      compatible({
        rule: "response-property-added",
        location: "GET /v1/things response body.color",
        says: "new optional field",
        routes: ["GET /v1/things"],
      }),
      compatible({
        rule: "route-added",
        location: "POST /v1/things/tm-2",
        detail: "Thing Maker 2",
        says: "new model Thing Maker 2",
        routes: ["POST /v1/things/tm-2"],
      }),
      compatible({
        rule: "route-added",
        location: "DELETE /v1/other",
        says: "new route",
        routes: ["DELETE /v1/other"],
      }),
    ],
    changelog: [
      { topic: "limits", subject: "maxConcurrentJobs", line: "Limit maxConcurrentJobs: 5 → 10." },
      {
        topic: "models",
        subject: "Old Maker",
        line: "Model Old Maker retired: POST /v1/things/om-1 is gone; calls answer 410 model_retired.",
      },
      VERSION_ENTRY,
      {
        topic: "models",
        subject: "Thing Maker 2",
        line: "New model Thing Maker 2: POST /v1/things/tm-2; 3 credits per request.",
      },
    ],
  });
}

const READS = "**What to do:** update the code that reads answers to handle what they may now hold or lack.";
const SENDS = "**What to do:** change the requests you send to fit; the service refuses what it no longer accepts.";

describe("the Markdown report", () => {
  it("lists breaking changes before compatible ones and the changelog, grouped by area (the whole description, then across areas, then by name) and by route (by name), each route under its tag and summary", () => {
    expect(renderMarkdown(fullReport())).toBe(
      [
        "# Changes from 1 to 2",
        "",
        "Compared old.json (version 1) with HEAD:generated/openapi.json (version 2): **8 breaking** (1 accepted), 3 compatible, 4 changelog entries.",
        "",
        "## Breaking changes",
        "",
        "### The whole description",
        "",
        "- `description`: the service model can no longer read the description: info has no x-limits. **What to do:** stay on the previous version: this description's limits, Retry-After and prices cannot be read.",
        "",
        "### Across areas",
        "",
        '- `schema Status` (used by 4 routes: `GET /v1/accounts`, `GET /v1/things`, `GET /v1/zebras` and 1 more): may now be "paused". **What to do:** handle "paused" wherever your code reads this value (a switch over its values, a type listing them).',
        `- \`schema Money\` (used by 3 routes: \`GET /v1/accounts\`, \`GET /v1/things\`, \`GET /v1/zebras\`): minimum lowered, 0 → -1. ${READS}`,
        "",
        "### Accounts",
        "",
        "#### `GET /v1/accounts`",
        "",
        `- \`parameter page\`: parameter is now required. ${SENDS}`,
        "",
        "### Things",
        "",
        `- \`schema Thing.name\` (used by 2 routes: \`GET /v1/things\`, \`POST /v1/things\`): type changed, string → integer. ${READS}`,
        "",
        "#### `POST /v1/things` — Create a thing",
        "",
        `- \`request body.size\`: maximum lowered, 10 → 5. ${SENDS} *Accepted:* Sizes above 5 were never served.`,
        "",
        "#### `POST /v1/things/om-1` — Create with Old Maker",
        "",
        "- model Old Maker removed (retired models answer 410 model_retired). **What to do:** move to a current model of the same kind; calls to this route now answer 410 model_retired.",
        "",
        "### Zebra",
        "",
        "#### `GET /v1/zebras` — List zebras",
        "",
        "- `response body.stripes`: field removed. **What to do:** stop reading this field: answers no longer carry it.",
        "",
        "## Compatible changes",
        "",
        "### Other routes",
        "",
        "#### `DELETE /v1/other`",
        "",
        "- new route.",
        "",
        "### Things",
        "",
        "#### `GET /v1/things` — List things",
        "",
        "- `response body.color`: new optional field.",
        "",
        "## Changelog",
        "",
        "### Version",
        "",
        "- Interface version 1 → 2.",
        "",
        "### Models",
        "",
        "- New model Thing Maker 2: POST /v1/things/tm-2; 3 credits per request.",
        "",
        "### Limits",
        "",
        "- Limit maxConcurrentJobs: 5 → 10.",
        "",
      ].join("\n"),
    );
  });

  it('says "No changes." under "Changes to version X" when the versions are equal and nothing changed', () => {
    const same = { version: "2026-06-20" };
    const text = renderMarkdown(
      report({ before: { source: "a.json", ...same }, after: { source: "b.json", ...same } }),
    );
    expect(text).toBe(
      "# Changes to version 2026-06-20\n\nCompared a.json (version 2026-06-20) with b.json (version 2026-06-20): **0 breaking**, 0 compatible, 0 changelog entries.\n\nNo changes.\n",
    );
  });

  it("with a changelog entry alone: one entry in the singular, only the changelog section, and not 'No changes.'", () => {
    const text = renderMarkdown(report({ after: { source: "b.json", version: "2" }, changelog: [VERSION_ENTRY] }));
    expect(text).toBe(
      "# Changes from 1 to 2\n\nCompared a.json (version 1) with b.json (version 2): **0 breaking**, 0 compatible, 1 changelog entry.\n\n## Changelog\n\n### Version\n\n- Interface version 1 → 2.\n",
    );
  });

  it("with a compatible change alone: no breaking section, no changelog section, and not 'No changes.'; headings nest under the level asked for", () => {
    const added = change({
      rule: "response-property-added",
      severity: "compatible",
      location: "GET /v1/things response body.color",
      says: "new optional field",
      routes: ["GET /v1/things"],
    });
    const text = renderMarkdown(
      report({ changes: [added], routeTitles: { "GET /v1/things": { area: "Things", title: "List things" } } }),
      2,
    );
    expect(text).toBe(
      [
        "## Changes to version 1",
        "",
        "Compared a.json (version 1) with b.json (version 1): **0 breaking**, 1 compatible, 0 changelog entries.",
        "",
        "### Compatible changes",
        "",
        "#### Things",
        "",
        "##### `GET /v1/things` — List things",
        "",
        "- `response body.color`: new optional field.",
        "",
      ].join("\n"),
    );
  });

  it("drops a changelog model line only for a model whose route removal is listed, not for another breaking change naming the same label", () => {
    const text = renderMarkdown(
      report({
        changes: [
          change({
            rule: "response-enum-value-added",
            severity: "breaking",
            location: "schema ModelLabel",
            detail: "Flux 2",
            says: "may now be Flux 2",
            routes: ["GET /v1/models"],
          }),
          // A route removal without a model is a plain route, not a retired model.
          change({
            rule: "route-removed",
            severity: "breaking",
            location: "GET /v1/legacy",
            says: "route removed",
            routes: ["GET /v1/legacy"],
          }),
        ],
        changelog: [
          {
            topic: "models",
            subject: "Flux 2",
            line: "New model Flux 2: POST /v1/images/fx-2; 4 credits per request.",
          },
        ],
      }),
    );
    expect(text).toContain(
      "## Changelog\n\n### Models\n\n- New model Flux 2: POST /v1/images/fx-2; 4 credits per request.\n",
    );
    expect(text).toContain("- route removed. **What to do:** stop calling this route.");
  });

  it("leaves a new model's route to its Models line only: a route added for a label the changelog names under another topic stays listed", () => {
    const text = renderMarkdown(
      report({
        changes: [
          change({
            rule: "route-added",
            severity: "compatible",
            location: "POST /v1/things/mk",
            detail: "Maker",
            says: "new model Maker",
            routes: ["POST /v1/things/mk"],
          }),
        ],
        changelog: [{ topic: "prices", subject: "Maker", line: "Maker: 3 → 4 credits per request." }],
      }),
    );
    expect(text).toContain("#### `POST /v1/things/mk`\n\n- new model Maker.\n");
    expect(text).toContain("### Prices\n\n- Maker: 3 → 4 credits per request.\n");
  });
});

describe("what a client developer does about a breaking change", () => {
  const REQUESTS = "change the requests you send to fit; the service refuses what it no longer accepts.";
  const ANSWERS = "update the code that reads answers to handle what they may now hold or lack.";
  it.each([
    [
      "route-removed",
      "Flux 2",
      "move to a current model of the same kind; calls to this route now answer 410 model_retired.",
    ],
    ["route-removed", undefined, "stop calling this route."],
    [
      "path-template-changed",
      undefined,
      "rename the path parameter where your code names the route by its template (the typed `client.api`, `paths[...]`); the URLs you send stay the same.",
    ],
    ["operation-id-changed", "createThing", "rename your calls of the generated method, as the change says."],
    ["security-scheme-changed", undefined, "change how your client sends its key, as the change says."],
    ["security-requirement-tightened", undefined, "change how your client sends its key, as the change says."],
    [
      "service-model-unreadable",
      "info has no x-limits",
      "stay on the previous version: this description's limits, Retry-After and prices cannot be read.",
    ],
    ["request-enum-value-removed", '"2K"', 'stop sending "2K"; send one of the values still allowed.'],
    [
      "response-enum-value-added",
      '"queued"',
      'handle "queued" wherever your code reads this value (a switch over its values, a type listing them).',
    ],
    ["response-property-removed", undefined, "stop reading this field: answers no longer carry it."],
    // What the client sends: request schema rules, parameters and request bodies.
    ["request-maximum-decreased", undefined, REQUESTS],
    ["required-parameter-added", undefined, REQUESTS],
    ["parameter-removed", undefined, REQUESTS],
    ["required-request-body-added", undefined, REQUESTS],
    ["request-body-removed", undefined, REQUESTS],
    // Everything else is about what the client reads.
    ["response-property-became-optional", undefined, ANSWERS],
    ["response-status-removed", "200", ANSWERS],
    ["response-header-removed", "Retry-After", ANSWERS],
  ])("%s (detail %s)", (rule, detail, expected) => {
    const broken = change({ rule, severity: "breaking", location: "GET /v1/things", says: "changed", routes: [] });
    expect(whatToDo(detail === undefined ? broken : { ...broken, detail })).toBe(expected);
  });
});
