/**
 * A release's notes (release/notes.ts), read as the client developer reads them (release/README.md,
 * "One record per release"): what the release means for their code (major: what to change; minor:
 * additions only; patch: nothing), then each breaking change with **What to do** and **Why**, the
 * compatible ones, and the models, prices and limits that changed, by area, route (with its
 * title), field, value; all rendered from the record alone. The records here are written by hand,
 * in the form the change report gives its changes (`message` is `location: what changed`,
 * changes/change.ts), so each rule is checked on the case it is about.
 */
import { describe, expect, it } from "vitest";
import type { ReportedChange } from "../../changes/acknowledgements.ts";
import type { ChangelogEntry } from "../../changes/domain-changelog.ts";
import { count, releaseNotes } from "../../release/notes.ts";
import type { ReleaseRecord } from "../../release/records.ts";
import { releasedBefore } from "./record-fixtures.ts";

const CREATE_IMAGE = "POST /v1/images/i-a";
const GET_IMAGE = "GET /v1/images/{job_id}";
const GET_VIDEO = "GET /v1/videos/{job_id}";
const GET_MUSIC = "GET /v1/music/{job_id}";
const GET_MODEL = "GET /v1/models/{job_id}";
const CREDITS = "GET /v1/account/credits";
const STOCK = "GET /v1/stock/images";
const TITLES = {
  [CREATE_IMAGE]: { area: "Images", title: "Create an image with I-A" },
  [GET_IMAGE]: { area: "Images", title: "Get an image job" },
  [GET_VIDEO]: { area: "Videos", title: "Get a video job" },
  [GET_MUSIC]: { area: "Music", title: "Get a music job" },
  [GET_MODEL]: { area: "3D models", title: "Get a 3D model job" },
  [CREDITS]: { area: "Account", title: "Get the account's credits" },
  [STOCK]: { area: "Stock", title: "Search stock images" },
};

interface Made {
  readonly rule?: string;
  readonly severity?: "breaking" | "compatible";
  readonly location: string;
  readonly says?: string;
  readonly routes?: string[];
  readonly detail?: string;
  readonly acknowledged?: string;
}

/** A change as the change report gives it: its message is its location, then what changed. */
function change(made: Made): ReportedChange {
  const { rule = "response-property-added", severity = "compatible", location, says = "changed", routes = [] } = made;
  return {
    id: `${rule}@${location}${made.detail === undefined ? "" : `=${made.detail}`}`,
    rule,
    severity,
    location,
    message: `${location}: ${says}`,
    routes,
    ...(made.detail === undefined ? {} : { detail: made.detail }),
    ...(made.acknowledged === undefined ? {} : { acknowledged: made.acknowledged }),
  };
}

const record = (over: Partial<ReleaseRecord>): ReleaseRecord => ({
  version: "1.1.0",
  interfaceVersion: "2026-07-01",
  bump: "minor",
  comparedWith: "1.0.0",
  changes: [],
  changelog: [],
  routeTitles: TITLES,
  ...over,
});

const notesOf = (over: Partial<ReleaseRecord>): string => releaseNotes(record(over));

/** The lines under a heading (its exact text), up to the next heading of the same or a higher level, blank lines left out. */
function under(notes: string, heading: string): string[] {
  const lines = notes.split("\n");
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no heading ${JSON.stringify(heading)} in:\n${notes}`);
  const level = heading.indexOf(" ");
  const end = lines.findIndex((line, index) => index > start && /^#+ /.test(line) && line.indexOf(" ") <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).filter((line) => line !== "");
}

/** The headings of the notes, in order. */
const headings = (notes: string): string[] => notes.split("\n").filter((line) => line.startsWith("#"));

/** The bullet of the notes of a release with this one change. */
const bulletOf = (made: Made): string => {
  const bullets = notesOf({ changes: [change(made)] })
    .split("\n")
    .filter((line) => line.startsWith("- "));
  expect(bullets).toHaveLength(1);
  return bullets[0]!;
};

/**
 * The notes are Markdown blocks (CommonMark; markdownlint's MD012, MD022, MD032): each heading and
 * each paragraph a line of its own between blank lines, each list a run of bullets between blank
 * lines, never two blank lines in a row.
 */
function expectMarkdownBlocks(notes: string): void {
  const lines = notes.split("\n");
  lines.forEach((line, index) => {
    const next = lines[index + 1];
    const previous = lines[index - 1];
    const at = `line ${index + 1} ${JSON.stringify(line)} of:\n${notes}`;
    if (line === "") expect(next, at).not.toBe("");
    else if (line.startsWith("- ")) {
      if (next !== undefined) expect(next === "" || next.startsWith("- "), at).toBe(true);
      if (index > 0) expect(previous === "" || previous!.startsWith("- "), at).toBe(true);
    } else {
      expect(line.startsWith("#") || /^\S/.test(line), at).toBe(true);
      if (next !== undefined) expect(next, at).toBe("");
      if (index > 0) expect(previous, at).toBe("");
    }
  });
}

describe("counting in the notes", () => {
  it("says one for one, the number and the plural otherwise", () => {
    expect(count(1, "breaking change")).toBe("one breaking change");
    expect(count(2, "breaking change")).toBe("2 breaking changes");
    expect(count(0, "compatible change")).toBe("0 compatible changes");
    expect(count(3, "changelog entry", "changelog entries")).toBe("3 changelog entries");
    expect(count(1, "changelog entry", "changelog entries")).toBe("one changelog entry");
  });
});

describe("what a release means for the developer's code", () => {
  const breakingChange = change({
    rule: "request-property-removed",
    severity: "breaking",
    location: `${CREATE_IMAGE} request body.seed`,
    says: "field removed",
    routes: [CREATE_IMAGE],
    acknowledged: "Seeds were never honoured.",
  });

  it("a major release counts its breaking changes and names the release it was compared with", () => {
    const notes = notesOf({ version: "2.0.0", bump: "major", comparedWith: "1.4.0", changes: [breakingChange] });
    expect(notes).toContain(
      "**A major release:** one breaking change for code written against 1.4.0; each says what to do.",
    );
    const two = notesOf({
      version: "2.0.0",
      bump: "major",
      comparedWith: "1.4.0",
      changes: [breakingChange, { ...breakingChange, location: `${CREATE_IMAGE} request body.style` }],
    });
    expect(two).toContain("2 breaking changes for code written against 1.4.0");
    expect(two).not.toContain("minor release");
  });

  it("a minor release says code written against the one before keeps working", () => {
    const notes = notesOf({ version: "1.5.0", bump: "minor", comparedWith: "1.4.0" });
    expect(notes).toContain(
      "A minor release: additions and compatible changes only; code written against 1.4.0 keeps working.",
    );
    expect(notes).not.toContain("major release");
    expect(notes).not.toContain("patch release");
  });

  it("a patch release says nothing changes for the developer's code", () => {
    const notes = notesOf({ version: "1.4.1", bump: "patch", comparedWith: "1.4.0" });
    expect(notes).toContain(
      "A patch release: descriptions, examples and documentation only; nothing changes for your code.",
    );
    expect(notes).not.toMatch(/major release|minor release/);
  });

  it("the first release says so, and what it ships since a description released before the packages", () => {
    const first = { version: "1.0.0", bump: "first" as const };
    expect(notesOf({ ...first, comparedWith: null })).toContain("The first release of the packages.\n");
    expect(notesOf({ ...first, comparedWith: null, changes: [breakingChange] })).toContain(
      "The first release of the packages.\n",
    );
    // Compared with nothing to tell: no "Since".
    expect(notesOf({ ...first, comparedWith: "2026-06-20" })).toContain("The first release of the packages.\n");
    const since = "The first release of the packages. Since the description published as interface version";
    expect(notesOf({ ...first, comparedWith: "2026-06-20", changes: [breakingChange] })).toContain(
      `${since} \`2026-06-20\`:`,
    );
    const price: ChangelogEntry = { topic: "prices", subject: "I-A", line: "I-A: 24 → 25 credits per image." };
    expect(notesOf({ ...first, comparedWith: "2026-06-20", changelog: [price] })).toContain(`${since} \`2026-06-20\`:`);
    // The description released before the packages is named by its interface version, even one that looks like a
    // package version: the first release has no package release before it.
    expect(notesOf({ ...first, comparedWith: "10.20.30", changes: [breakingChange] })).toContain(
      `${since} \`10.20.30\`:`,
    );
  });

  it("a description released before the packages is its own section, by its interface version", () => {
    const notes = releaseNotes(releasedBefore("2026-06-20"));
    expect(notes.split("\n").slice(0, 3)).toEqual([
      "## Interface version 2026-06-20",
      "",
      "The description published before the packages' first release.",
    ]);
    expect(notes).not.toContain("apiVersion");
  });

  it("a release names its interface version, the client's apiVersion, and the one before when it changed", () => {
    const moved: ChangelogEntry = {
      topic: "version",
      subject: "version",
      line: "Interface version 2026-06-20 → 2026-07-01.",
    };
    const price: ChangelogEntry = { topic: "prices", subject: "I-A", line: "I-A: 24 → 25 credits per image." };
    const said = "Interface version `2026-06-20` → `2026-07-01` (the client's `apiVersion`).";
    expect(notesOf({ changelog: [price, moved] })).toContain(`\n${said}\n`);
    expect(
      notesOf({ changelog: [moved] })
        .split("\n")
        .slice(0, 3),
    ).toEqual(["## 1.1.0", "", said]);
    // The same interface version: no arrow, nothing before it.
    expect(notesOf({ changelog: [price] })).toContain(
      "\nInterface version `2026-07-01` (the client's `apiVersion`).\n",
    );
    // Its line is the section's own, not a changelog entry.
    const notes = notesOf({ changelog: [moved] });
    expect(notes).not.toContain("- Interface version");
    expect(headings(notes)).toEqual(["## 1.1.0"]);
  });
});

describe("where each change is, in the reference docs' terms", () => {
  const at = (rest: string, says = "changed"): string =>
    bulletOf({ location: `${CREATE_IMAGE} ${rest}`, says, routes: [CREATE_IMAGE] });
  const lead = `- \`${CREATE_IMAGE}\` — Create an image with I-A;`;

  it("a request field, the request body, with the media type where it is not JSON", () => {
    expect(at("request body.aspect_ratio")).toBe(`${lead} request field \`aspect_ratio\`: changed.`);
    expect(at("request body.reference_images[].url")).toBe(
      `${lead} request field \`reference_images[].url\`: changed.`,
    );
    expect(at("request body multipart/form-data.image")).toBe(
      `${lead} request field \`image\` (multipart/form-data): changed.`,
    );
    expect(at("request body")).toBe(`${lead} request body: changed.`);
    expect(at("request body multipart/form-data")).toBe(`${lead} request body (multipart/form-data): changed.`);
  });

  it("a field of an answer, an answer's body, header or status, by the status", () => {
    expect(at("response 200 body.images[].url")).toBe(`${lead} field \`images[].url\` of the 200 answer: changed.`);
    expect(at("response 400 body application/problem+json.detail")).toBe(
      `${lead} field \`detail\` of the 400 answer (application/problem+json): changed.`,
    );
    expect(at("response 200 body")).toBe(`${lead} the 200 answer's body: changed.`);
    expect(at("response 400 body application/problem+json")).toBe(
      `${lead} the 400 answer's body (application/problem+json): changed.`,
    );
    expect(at("response 429 header Retry-After")).toBe(`${lead} header \`Retry-After\` of the 429 answer: changed.`);
    expect(at("response 404")).toBe(`${lead} the 404 answer: changed.`);
  });

  it("a parameter, by where it is sent", () => {
    expect(at("query parameter color")).toBe(`${lead} query parameter \`color\`: changed.`);
    expect(at("path parameter job_id")).toBe(`${lead} path parameter \`job_id\`: changed.`);
    expect(at("header parameter Idempotency-Key")).toBe(`${lead} header parameter \`Idempotency-Key\`: changed.`);
    expect(at("cookie parameter session")).toBe(`${lead} cookie parameter \`session\`: changed.`);
  });

  it("a shared schema or its field, and the description as a whole", () => {
    expect(bulletOf({ location: "schema AccountCredits.total_available", routes: [CREDITS] })).toBe(
      `- \`${CREDITS}\` — Get the account's credits; field \`total_available\` of \`AccountCredits\`: changed.`,
    );
    expect(bulletOf({ location: "schema ImageJob.images[].url", routes: [GET_IMAGE] })).toBe(
      `- \`${GET_IMAGE}\` — Get an image job; field \`images[].url\` of \`ImageJob\`: changed.`,
    );
    expect(bulletOf({ location: "schema JobStatus", routes: [GET_IMAGE, GET_VIDEO] })).toBe(
      `- \`JobStatus\` (in \`${GET_IMAGE}\`, \`${GET_VIDEO}\`): changed.`,
    );
    expect(bulletOf({ location: "response BadRequest", routes: [GET_IMAGE, GET_VIDEO] })).toBe(
      `- the BadRequest answer (in \`${GET_IMAGE}\`, \`${GET_VIDEO}\`): changed.`,
    );
    expect(bulletOf({ location: "description", says: "the service model can no longer read it" })).toBe(
      "- the description as a whole: the service model can no longer read it.",
    );
  });

  it("a field is named whole after its schema, even where its name holds the words another part begins with", () => {
    // JSON Schema allows any property name; each part is recognised at the start of the location only.
    for (const field of [
      "request body",
      "request body.x",
      "response 200",
      "response 200 body",
      "response 200 body.x",
      "response 200 header X-Id",
      "query parameter q",
    ])
      expect(bulletOf({ location: `schema Job.last ${field}`, routes: [GET_IMAGE] }), field).toBe(
        `- \`${GET_IMAGE}\` — Get an image job; field \`last ${field}\` of \`Job\`: changed.`,
      );
  });

  it("a location it has no words for is shown as the report writes it, read from its start to its end", () => {
    // The body's combinators, a schema's branches and the keywords past a parameter are not fields.
    expect(at("request body allOf[0]")).toBe(`${lead} \`request body allOf[0]\`: changed.`);
    expect(at("response 200 body oneOf[1]")).toBe(`${lead} \`response 200 body oneOf[1]\`: changed.`);
    expect(at("query parameter sort anyOf[0]")).toBe(`${lead} \`query parameter sort anyOf[0]\`: changed.`);
    const shared = (location: string) => bulletOf({ location, routes: [GET_IMAGE, GET_VIDEO] });
    const inBoth = `(in \`${GET_IMAGE}\`, \`${GET_VIDEO}\`)`;
    expect(shared("schema RateLimitedError allOf[1].error.code")).toBe(
      `- \`schema RateLimitedError allOf[1].error.code\` ${inBoth}: changed.`,
    );
    expect(shared("schema Job allOf[0].description")).toBe(`- \`schema Job allOf[0].description\` ${inBoth}: changed.`);
    expect(shared("security scheme bearerAuth")).toBe(`- \`security scheme bearerAuth\` ${inBoth}: changed.`);
  });
});

describe("each change's bullet", () => {
  it("names one route by its title, or the routes using a shared part, three of them and how many more", () => {
    const routes = [GET_IMAGE, GET_VIDEO, GET_MUSIC, GET_MODEL, CREDITS];
    const shown = `\`${GET_IMAGE}\`, \`${GET_VIDEO}\`, \`${GET_MUSIC}\``;
    expect(bulletOf({ location: "schema JobStatus", routes: routes.slice(0, 3) })).toBe(
      `- \`JobStatus\` (in ${shown}): changed.`,
    );
    expect(bulletOf({ location: "schema JobStatus", routes: routes.slice(0, 4) })).toBe(
      `- \`JobStatus\` (in ${shown} and 1 more): changed.`,
    );
    expect(bulletOf({ location: "schema JobStatus", routes })).toBe(
      `- \`JobStatus\` (in ${shown} and 2 more): changed.`,
    );
    // A route the record has no title for is named alone.
    expect(bulletOf({ location: "GET /v1/status response 200", routes: ["GET /v1/status"] })).toBe(
      "- `GET /v1/status`; the 200 answer: changed.",
    );
    // A change of the route itself says only the route.
    expect(bulletOf({ location: CREATE_IMAGE, says: "may now answer 404", routes: [CREATE_IMAGE] })).toBe(
      `- \`${CREATE_IMAGE}\` — Create an image with I-A: may now answer 404.`,
    );
  });

  it("ends what changed with one full stop", () => {
    const says = 'new rule: size: "4K only with one image".';
    expect(bulletOf({ location: `${CREATE_IMAGE} request body`, says, routes: [CREATE_IMAGE] })).toMatch(
      /: new rule: size: "4K only with one image"\.$/,
    );
    expect(
      bulletOf({ location: `${CREATE_IMAGE} request body`, says: "no full stop", routes: [CREATE_IMAGE] }),
    ).toMatch(/: no full stop\.$/);
  });

  it("says what to do and why for a breaking change, neither for a compatible one", () => {
    const removed = {
      rule: "request-enum-value-removed",
      location: `${CREATE_IMAGE} request body.aspect_ratio`,
      says: 'no longer allows "21:9"',
      detail: '"21:9"',
      routes: [CREATE_IMAGE],
    };
    expect(bulletOf({ ...removed, severity: "breaking", acknowledged: "I-A no longer renders 21:9." })).toBe(
      `- \`${CREATE_IMAGE}\` — Create an image with I-A; request field \`aspect_ratio\`: no longer allows "21:9". **What to do:** stop sending "21:9"; send one of the values still allowed. **Why:** I-A no longer renders 21:9.`,
    );
    const compatible = bulletOf({ ...removed, rule: "request-enum-value-added", says: 'may now be "3:1"' });
    expect(compatible).not.toContain("**What to do:**");
    expect(compatible).not.toContain("**Why:**");
    expect(compatible).toMatch(/may now be "3:1"\.$/);
  });
});

describe("the notes' sections", () => {
  const breaking = (location: string, routes: string[]): ReportedChange =>
    change({ rule: "response-property-removed", severity: "breaking", location, says: "field removed", routes });
  const compatible = (location: string, routes: string[]): ReportedChange =>
    change({ location, says: "new optional field", routes });

  it("breaking changes, then compatible ones, each by area: the whole description, across areas, then by name", () => {
    const notes = notesOf({
      version: "2.0.0",
      bump: "major",
      changes: [
        breaking(`${GET_VIDEO} response 200 body.video.url`, [GET_VIDEO]),
        breaking("description", []),
        breaking(`${GET_IMAGE} response 200 body.images`, [GET_IMAGE]),
        breaking("schema JobStatus", [GET_IMAGE, GET_VIDEO]),
        breaking(`${CREDITS} response 200 body.total`, [CREDITS]),
        breaking("GET /v1/status response 200 body.ok", ["GET /v1/status"]),
        breaking(`${CREATE_IMAGE} response 200 body.seed`, [CREATE_IMAGE]),
        compatible(`${STOCK} response 200 body.next`, [STOCK]),
        compatible(`${GET_MODEL} response 200 body.mesh`, [GET_MODEL]),
      ],
    });
    expectMarkdownBlocks(notes);
    expect(headings(notes)).toEqual([
      "## 2.0.0",
      "### Breaking changes",
      "#### The whole description",
      "#### Across areas",
      "#### Account",
      "#### Images",
      "#### Other routes",
      "#### Videos",
      "### Compatible changes",
      "#### 3D models",
      "#### Stock",
    ]);
    expect(under(notes, "#### Images")).toEqual([
      `- \`${GET_IMAGE}\` — Get an image job; field \`images\` of the 200 answer: field removed. **What to do:** stop reading this field: answers no longer carry it.`,
      `- \`${CREATE_IMAGE}\` — Create an image with I-A; field \`seed\` of the 200 answer: field removed. **What to do:** stop reading this field: answers no longer carry it.`,
    ]);
    expect(under(notes, "#### Across areas")).toEqual([
      `- \`JobStatus\` (in \`${GET_IMAGE}\`, \`${GET_VIDEO}\`): field removed. **What to do:** stop reading this field: answers no longer carry it.`,
    ]);
    expect(under(notes, "### Compatible changes")).toEqual([
      "#### 3D models",
      `- \`${GET_MODEL}\` — Get a 3D model job; field \`mesh\` of the 200 answer: new optional field.`,
      "#### Stock",
      `- \`${STOCK}\` — Search stock images; field \`next\` of the 200 answer: new optional field.`,
    ]);
  });

  it("a minor release lists its compatible changes, and no empty section", () => {
    const notes = notesOf({ changes: [compatible(`${STOCK} response 200 body.next`, [STOCK])] });
    expectMarkdownBlocks(notes);
    expect(headings(notes)).toEqual(["## 1.1.0", "### Compatible changes", "#### Stock"]);
    expect(headings(notesOf({ bump: "patch", version: "1.0.1" }))).toEqual(["## 1.0.1"]);
  });

  it("models, prices and limits, each under its topic, in the topics' order, with no empty topic", () => {
    const entries: ChangelogEntry[] = [
      { topic: "limits", subject: "I-A", line: "Limit I-A: 10 → 5 jobs at once." },
      { topic: "prices", subject: "I-A", line: "I-A: 24 → 25 credits per image." },
      { topic: "version", subject: "version", line: "Interface version 2026-06-20 → 2026-07-01." },
      { topic: "prices", subject: "V-A", line: "V-A: 100 → 90 credits per second." },
    ];
    const notes = notesOf({ changelog: entries });
    expectMarkdownBlocks(notes);
    expect(headings(notes)).toEqual(["## 1.1.0", "### Models, prices and limits", "#### Prices", "#### Limits"]);
    expect(under(notes, "#### Prices")).toEqual([
      "- I-A: 24 → 25 credits per image.",
      "- V-A: 100 → 90 credits per second.",
    ]);
    expect(under(notes, "#### Limits")).toEqual(["- Limit I-A: 10 → 5 jobs at once."]);
  });

  it("a new model is told once, by its line; a retired one by its breaking change; a moved one by where it went", () => {
    const newModel = change({
      rule: "route-added",
      location: "POST /v1/images/i-l",
      says: "new model I-L",
      detail: "I-L",
      routes: ["POST /v1/images/i-l"],
    });
    const newRoute = change({
      rule: "route-added",
      location: "GET /v1/account/usage",
      says: "new route",
      routes: ["GET /v1/account/usage"],
    });
    const gone = (route: string, model: string) =>
      change({
        rule: "route-removed",
        severity: "breaking",
        location: route,
        says: `model ${model} removed (retired models answer 410 model_retired)`,
        detail: model,
        routes: [route],
        acknowledged: `${model} is retired.`,
      });
    const notes = notesOf({
      version: "2.0.0",
      bump: "major",
      changes: [
        gone("POST /v1/images/i-d", "I-D"),
        gone("POST /v1/images/i-e", "I-E"),
        change({
          rule: "route-added",
          location: "POST /v1/images/i-e2",
          says: "new model I-E",
          detail: "I-E",
          routes: ["POST /v1/images/i-e2"],
        }),
        newModel,
        newRoute,
      ],
      changelog: [
        { topic: "models", subject: "I-L", line: "New model I-L: `POST /v1/images/i-l`; output image 25 credits." },
        {
          topic: "models",
          subject: "I-E",
          line: "Model I-E moved from `POST /v1/images/i-e` to `POST /v1/images/i-e2`.",
        },
        { topic: "models", subject: "I-D", line: "Model I-D retired: `POST /v1/images/i-d` is gone." },
      ],
    });
    expectMarkdownBlocks(notes);
    expect(notes.match(/I-L/g)).toHaveLength(1);
    expect(notes.match(/I-D retired/g)).toBeNull();
    expect(notes).toContain("model I-D removed (retired models answer 410 model_retired).");
    expect(under(notes, "#### Models")).toEqual([
      "- New model I-L: `POST /v1/images/i-l`; output image 25 credits.",
      "- Model I-E moved from `POST /v1/images/i-e` to `POST /v1/images/i-e2`.",
    ]);
    // A route that serves no model is a compatible change of its own.
    expect(under(notes, "### Compatible changes")).toEqual([
      "#### Other routes",
      "- `GET /v1/account/usage`: new route.",
    ]);
    // A changelog entry of another topic about a model retired stays.
    const price = notesOf({
      version: "2.0.0",
      bump: "major",
      changes: [gone("POST /v1/images/i-d", "I-D")],
      changelog: [{ topic: "prices", subject: "I-D", line: "I-D: price no longer held." }],
    });
    expect(under(price, "#### Prices")).toEqual(["- I-D: price no longer held."]);
    // A route added for a model is told by its change where no models line tells it.
    const priced = notesOf({
      changes: [newModel],
      changelog: [{ topic: "prices", subject: "I-L", line: "I-L: output image 25 credits." }],
    });
    expect(under(priced, "### Compatible changes")).toEqual([
      "#### Other routes",
      "- `POST /v1/images/i-l`: new model I-L.",
    ]);
  });
});
