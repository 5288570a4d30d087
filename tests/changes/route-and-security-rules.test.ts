/**
 * Route, security and schema rules on tiny descriptions: each change's id (`rule@location=detail`),
 * its class for client code and its release-note line; and the collector's bookkeeping of the
 * routes that reach a change.
 */
import { describe, expect, it } from "vitest";
import { ChangeCollector } from "../../changes/change.ts";
import { compareDescriptions } from "../../changes/compare.ts";
import { compareRoutes } from "../../changes/operation-diff.ts";
import { loadBundle, type OpenApiDocument } from "../../model/document.ts";
import { placeholderPaths } from "../../model/slug-map.ts";
import type { LooseJson } from "../support/loose.ts";
import { PLANTED } from "./planted.ts";

type Found = [id: string, severity: string, message: string];

const doc = (paths: LooseJson, components: LooseJson = {}, extra: LooseJson = {}): OpenApiDocument =>
  ({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths, components, ...extra }) as OpenApiDocument;

/** One POST /v1/things, its operation `over` a plain one answering 200. */
const post = (over: LooseJson = {}, components: LooseJson = {}, extra: LooseJson = {}): OpenApiDocument =>
  doc(
    { "/v1/things": { post: { operationId: "createThing", responses: { "200": { description: "ok" } }, ...over } } },
    components,
    extra,
  );

const json = (schema: LooseJson = {}): LooseJson => ({ "application/json": { schema } });

function changes(before: OpenApiDocument, after: OpenApiDocument): Found[] {
  const collector = new ChangeCollector();
  compareRoutes({ before, after }, collector, () => undefined);
  return collector.changes().map((change) => [change.id, change.severity, change.message]);
}

const R = "POST /v1/things";

describe("route rules", () => {
  const page = (required: boolean): LooseJson => ({ name: "page", in: "query", required, schema: { type: "integer" } });
  const body = (required: boolean, content: LooseJson = json()): LooseJson => ({ requestBody: { required, content } });
  const answers = (content: LooseJson): LooseJson => ({ responses: { "200": { description: "ok", content } } });
  const headers = (header: LooseJson): LooseJson => ({ responses: { "200": { description: "ok", headers: header } } });
  const pathParams = (thingType: string): OpenApiDocument =>
    doc({
      "/v1/things/{thing_id}/parts/{part_id}": {
        get: {
          operationId: "getPart",
          parameters: [
            { name: "thing_id", in: "path", required: true, schema: { type: thingType } },
            { name: "part_id", in: "path", required: true, schema: { type: "string" } },
          ],
          responses: { "200": { description: "ok" } },
        },
      },
    });
  const getAt = (...paths: string[]): OpenApiDocument =>
    doc(Object.fromEntries(paths.map((path) => [path, { get: { operationId: path, responses: {} } }])));
  const multipart = (type: string): LooseJson =>
    body(true, { "multipart/form-data": { schema: { type: "object", properties: { file: { type } } } } });

  it.each<[string, OpenApiDocument, OpenApiDocument, Found[]]>([
    [
      "a route removed that serves no model",
      post(),
      doc({}),
      [[`route-removed@${R}`, "breaking", `${R}: route removed`]],
    ],
    [
      "a route with a placeholder is not the route of its prefix",
      getAt("/v1/things/{id}"),
      getAt("/v1/things/{id}", "/v1/things/"),
      [["route-added@GET /v1/things/", "compatible", "GET /v1/things/: new route"]],
    ],
    [
      "a route now deprecated",
      post(),
      post({ deprecated: true }),
      [[`route-deprecated@${R}`, "compatible", `${R}: deprecated`]],
    ],
    ["a route deprecated on both sides is no change", post({ deprecated: true }), post({ deprecated: true }), []],
    [
      "an operationId stated where there was none",
      post({ operationId: undefined }),
      post(),
      [
        [
          `operation-id-changed@${R}`,
          "breaking",
          `${R}: operationId changed, none → createThing (generated code names operations by it)`,
        ],
      ],
    ],
    [
      "an operationId dropped",
      post(),
      post({ operationId: undefined }),
      [
        [
          `operation-id-changed@${R}`,
          "breaking",
          `${R}: operationId changed, createThing → none (generated code names operations by it)`,
        ],
      ],
    ],
    [
      "a parameter made optional",
      post({ parameters: [page(true)] }),
      post({ parameters: [page(false)] }),
      [
        [
          `parameter-became-optional@${R} query parameter page`,
          "compatible",
          `${R} query parameter page: parameter is now optional`,
        ],
      ],
    ],
    [
      "a shared parameter inlined is compared at the route",
      post({ parameters: [{ $ref: "#/components/parameters/Page" }] }, { parameters: { Page: page(true) } }),
      post({ parameters: [page(false)] }, { parameters: { Page: page(true) } }),
      [
        [
          `parameter-became-optional@${R} query parameter page`,
          "compatible",
          `${R} query parameter page: parameter is now optional`,
        ],
      ],
    ],
    [
      "a path parameter is known by its place: a change to the first of two",
      pathParams("string"),
      pathParams("integer"),
      [
        [
          "request-type-changed@GET /v1/things/{thing_id}/parts/{part_id} path parameter thing_id",
          "breaking",
          "GET /v1/things/{thing_id}/parts/{part_id} path parameter thing_id: type changed, string → integer",
        ],
      ],
    ],
    [
      "an optional request body added",
      post(),
      post(body(false)),
      [[`request-body-added@${R} request body`, "compatible", `${R} request body: now takes an optional request body`]],
    ],
    [
      "a required request body added",
      post(),
      post(body(true)),
      [[`required-request-body-added@${R} request body`, "breaking", `${R} request body: now requires a request body`]],
    ],
    [
      "a request body removed",
      post(body(false)),
      post(),
      [[`request-body-removed@${R} request body`, "breaking", `${R} request body: request body removed`]],
    ],
    [
      "a request body made required",
      post(body(false)),
      post(body(true)),
      [
        [
          `request-body-became-required@${R} request body`,
          "breaking",
          `${R} request body: request body is now required`,
        ],
      ],
    ],
    [
      "a request body made optional",
      post(body(true)),
      post(body(false)),
      [
        [
          `request-body-became-optional@${R} request body`,
          "compatible",
          `${R} request body: request body is now optional`,
        ],
      ],
    ],
    [
      "a request media type added",
      post(body(true)),
      post(body(true, { ...json(), "multipart/form-data": { schema: {} } })),
      [
        [
          `request-media-type-added@${R} request body=multipart/form-data`,
          "compatible",
          `${R} request body: now also accepts multipart/form-data`,
        ],
      ],
    ],
    [
      "a request media type removed",
      post(body(true, { ...json(), "multipart/form-data": { schema: {} } })),
      post(body(true)),
      [
        [
          `request-media-type-removed@${R} request body=multipart/form-data`,
          "breaking",
          `${R} request body: no longer accepts multipart/form-data`,
        ],
      ],
    ],
    [
      "a schema of another media type than JSON is placed under its type",
      post(multipart("string")),
      post(multipart("integer")),
      [
        [
          `request-type-changed@${R} request body multipart/form-data.file`,
          "breaking",
          `${R} request body multipart/form-data.file: type changed, string → integer`,
        ],
      ],
    ],
    [
      "a response media type added",
      post(answers(json())),
      post(answers({ ...json(), "image/png": {} })),
      [
        [
          `response-media-type-added@${R} response 200 body=image/png`,
          "compatible",
          `${R} response 200 body: may now answer image/png`,
        ],
      ],
    ],
    [
      "a response media type removed",
      post(answers({ ...json(), "image/png": {} })),
      post(answers(json())),
      [
        [
          `response-media-type-removed@${R} response 200 body=image/png`,
          "breaking",
          `${R} response 200 body: no longer answers image/png`,
        ],
      ],
    ],
    [
      "a new 2xx status is a success clients do not expect",
      post(),
      post({ responses: { "200": { description: "ok" }, "201": { description: "created" } } }),
      [
        [
          `success-status-added@${R}=201`,
          "breaking",
          `${R}: may now answer 201, a success status clients do not expect`,
        ],
      ],
    ],
    [
      "a new error status",
      post(),
      post({ responses: { "200": { description: "ok" }, "422": { description: "invalid" } } }),
      [[`error-status-added@${R}=422`, "compatible", `${R}: may now answer 422`]],
    ],
    [
      "a route's own header now always sent",
      post(headers({ "X-Count": { schema: { type: "integer" } } })),
      post(headers({ "X-Count": { required: true, schema: { type: "integer" } } })),
      [
        [
          `response-header-became-required@${R} response 200 header X-Count=X-Count`,
          "compatible",
          `${R} response 200 header X-Count: header X-Count is now always sent`,
        ],
      ],
    ],
    [
      "a header name's case is no change (HTTP header names are case-insensitive)",
      post(headers({ "X-Count": { schema: { type: "integer" } } })),
      post(headers({ "x-count": { schema: { type: "integer" } } })),
      [],
    ],
  ])("%s", (_, before, after, expected) => {
    expect(changes(before, after)).toEqual(expected);
  });
});

describe("security rules", () => {
  const SCHEMES = {
    bearerAuth: { type: "http", scheme: "bearer" },
    apiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key" },
  };
  const BEARER = { bearerAuth: [] };
  const KEY = { apiKeyHeader: [] };
  /** POST /v1/things under the document's `security` (absent when undefined), with `schemes` over the two above. */
  const secured = (security: LooseJson, own: LooseJson = {}, schemes: LooseJson = {}): OpenApiDocument =>
    post(own, { securitySchemes: { ...SCHEMES, ...schemes } }, security === undefined ? {} : { security });
  const TIGHTENED = "a client holding only what it sent before is refused";

  it.each<[string, OpenApiDocument, OpenApiDocument, Found[]]>([
    [
      "authentication required where none was",
      secured(undefined),
      secured([BEARER]),
      [
        [
          "security-requirement-tightened@security",
          "breaking",
          `security: authentication now requires bearerAuth (was none); ${TIGHTENED}`,
        ],
      ],
    ],
    [
      "authentication offered but optional where none was",
      secured(undefined),
      secured([BEARER, {}]),
      [
        [
          "security-requirement-relaxed@security",
          "compatible",
          "security: authentication now accepts bearerAuth or none (was none)",
        ],
      ],
    ],
    [
      "authentication dropped",
      secured([BEARER]),
      secured([]),
      [
        [
          "security-requirement-relaxed@security",
          "compatible",
          "security: authentication now accepts none (was bearerAuth)",
        ],
      ],
    ],
    [
      "one of two alternatives dropped refuses the clients that held it",
      secured([BEARER, KEY]),
      secured([BEARER]),
      [
        [
          "security-requirement-tightened@security",
          "breaking",
          `security: authentication now requires bearerAuth (was bearerAuth or apiKeyHeader); ${TIGHTENED}`,
        ],
      ],
    ],
    [
      "an operation's own requirement is reported at its route",
      secured([BEARER]),
      secured([BEARER], { security: [KEY] }),
      [
        [
          `security-requirement-tightened@${R} security`,
          "breaking",
          `${R} security: authentication now requires apiKeyHeader (was bearerAuth); ${TIGHTENED}`,
        ],
      ],
    ],
    [
      "a scheme's description is for readers",
      secured([BEARER]),
      secured([BEARER], {}, { bearerAuth: { ...SCHEMES.bearerAuth, description: "A token." } }),
      [],
    ],
    [
      "a scheme's extensions are for readers",
      secured([BEARER]),
      secured([BEARER], {}, { bearerAuth: { ...SCHEMES.bearerAuth, "x-token-url": "https://example.test" } }),
      [],
    ],
    [
      "a scheme a client may use now works differently; the unchanged one is not reported",
      secured([BEARER, KEY]),
      secured([BEARER, KEY], {}, { apiKeyHeader: { type: "apiKey", in: "header", name: "X-Key" } }),
      [
        [
          "security-scheme-changed@security scheme apiKeyHeader",
          "breaking",
          "security scheme apiKeyHeader: now API key in header X-Key (was API key in header X-API-Key); clients must send their key the new way",
        ],
      ],
    ],
    [
      "a changed scheme the route did not use before is only the requirement's change",
      secured([BEARER]),
      secured([KEY], {}, { apiKeyHeader: { type: "apiKey", in: "header", name: "X-Key" } }),
      [
        [
          "security-requirement-tightened@security",
          "breaking",
          `security: authentication now requires apiKeyHeader (was bearerAuth); ${TIGHTENED}`,
        ],
      ],
    ],
  ])("%s", (_, before, after, expected) => {
    expect(changes(before, after)).toEqual(expected);
  });
});

describe("schema rules' release-note lines", () => {
  const B = `${R} request body`;
  const O = `${R} response 200 body`;
  /** POST /v1/things taking `request` and answering `response` as JSON. */
  const bodies = (request: LooseJson, response: LooseJson = {}): OpenApiDocument =>
    post({
      requestBody: { required: true, content: json(request) },
      responses: { "200": { description: "ok", content: json(response) } },
    });
  const media = (xMedia: LooseJson): LooseJson => ({ type: "string", "x-media": xMedia });
  const branch = (kind: string | undefined, value: string): LooseJson => ({
    type: "object",
    required: kind === undefined ? ["value"] : ["kind", "value"],
    properties: { ...(kind === undefined ? {} : { kind: { const: kind } }), value: { type: value } },
  });
  const tagged = [branch("text", "string"), branch("count", "integer")];
  const untagged = [branch(undefined, "string"), branch("count", "integer")];
  const union = (branches: LooseJson[], propertyName?: string): LooseJson => ({
    oneOf: branches,
    ...(propertyName ? { discriminator: { propertyName } } : {}),
  });
  const titled = (...titles: string[]): LooseJson => ({ oneOf: titles.map((title) => ({ title, type: "object" })) });
  const conditional = { if: { required: ["start"] }, then: { required: ["end"] } };
  const int = { type: "integer" };

  it.each<[string, LooseJson, LooseJson, Found]>([
    [
      "a bound removed",
      { ...int, maximum: 10 },
      int,
      [`request-maximum-removed@${B}`, "compatible", `${B}: no longer has maximum (was 10)`],
    ],
    [
      "a pattern removed",
      { type: "string", pattern: "^a" },
      { type: "string" },
      [`request-pattern-removed@${B}`, "compatible", `${B}: no longer has pattern (was ^a)`],
    ],
    [
      "a pattern changed",
      { type: "string", pattern: "^a" },
      { type: "string", pattern: "^b" },
      [`request-pattern-changed@${B}`, "breaking", `${B}: pattern changed, ^a → ^b`],
    ],
    [
      "a first anyOf",
      {},
      { anyOf: [{ type: "string" }, int] },
      [`request-any-of-added@${B}`, "breaking", `${B}: must now match one of the anyOf branches`],
    ],
    [
      "oneOf dropped",
      { oneOf: [{ type: "string" }, int] },
      {},
      [`request-one-of-removed@${B}`, "compatible", `${B}: no longer has oneOf`],
    ],
    [
      "a oneOf branch removed",
      titled("Text", "Count", "Flag"),
      titled("Text", "Count"),
      [`request-one-of-branch-removed@${B}=Flag`, "breaking", `${B}: oneOf branch removed: Flag`],
    ],
    [
      "an enum stated",
      { type: "string" },
      { type: "string", enum: ["a", "b"] },
      [`request-enum-added@${B}`, "breaking", `${B}: now limited to a, b`],
    ],
    [
      "an enum dropped",
      { type: "string", enum: ["a", "b"] },
      { type: "string" },
      [`request-enum-removed@${B}`, "compatible", `${B}: no longer limited to a, b`],
    ],
    [
      "a const stated",
      { type: "string" },
      { type: "string", const: "a" },
      [`request-const-added@${B}`, "breaking", `${B}: now must be a`],
    ],
    [
      "a const dropped",
      { type: "string", const: "a" },
      { type: "string" },
      [`request-const-removed@${B}`, "compatible", `${B}: no longer must be a`],
    ],
    [
      "a dependency dropped",
      { type: "object", dependentRequired: { end: ["start"] } },
      { type: "object" },
      [
        `request-dependent-required-removed@${B}=end requires start`,
        "compatible",
        `${B}: dependency removed: end requires start`,
      ],
    ],
    [
      "an if/then rule added",
      {},
      conditional,
      [`request-conditional-added@${B}`, "breaking", `${B}: new if/then rule`],
    ],
    [
      "an if/then rule removed",
      conditional,
      {},
      [`request-conditional-removed@${B}`, "compatible", `${B}: if/then rule removed`],
    ],
    [
      "a not added",
      {},
      { not: { required: ["a"] } },
      [`request-not-added@${B}`, "breaking", `${B}: new not exclusion`],
    ],
    [
      "a not removed",
      { not: { required: ["a"] } },
      {},
      [`request-not-removed@${B}`, "compatible", `${B}: not exclusion removed`],
    ],
    [
      "a default stated",
      { type: "string" },
      { type: "string", default: "1K" },
      [`request-default-added@${B}`, "compatible", `${B}: now states default 1K`],
    ],
    [
      "a default dropped",
      { type: "string", default: "1K" },
      { type: "string" },
      [`request-default-removed@${B}`, "breaking", `${B}: no longer states default 1K`],
    ],
    [
      "an input form added",
      media({ forms: ["url"] }),
      media({ forms: ["url", "base64"] }),
      [`request-media-form-added@${B}=base64`, "compatible", `${B}: now accepts input form base64`],
    ],
    [
      "an input form removed",
      media({ forms: ["url", "base64"] }),
      media({ forms: ["url"] }),
      [`request-media-form-removed@${B}=base64`, "breaking", `${B}: no longer accepts input form base64`],
    ],
    [
      "a media format added",
      media({ formats: ["mp3"] }),
      media({ formats: ["mp3", "wav"] }),
      [`request-media-format-added@${B}=wav`, "compatible", `${B}: now accepts format wav`],
    ],
    [
      "a media limit relaxed",
      media({ maxDurationSeconds: 60 }),
      media({ maxDurationSeconds: 120 }),
      [
        `request-media-limit-relaxed@${B}=maxDurationSeconds`,
        "compatible",
        `${B}: media limit maxDurationSeconds relaxed, 60 → 120`,
      ],
    ],
    [
      "a media rule that is not a bound changed",
      media({ frameRate: 24 }),
      media({ frameRate: 30 }),
      [`request-media-rule-changed@${B}=frameRate`, "breaking", `${B}: media rule frameRate changed, 24 → 30`],
    ],
    [
      "read-only dropped",
      { type: "string", readOnly: true },
      { type: "string" },
      [`request-read-only-removed@${B}`, "compatible", `${B}: no longer read-only`],
    ],
    [
      "write-only dropped",
      { type: "string", writeOnly: true },
      { type: "string" },
      [`request-write-only-removed@${B}`, "compatible", `${B}: no longer write-only`],
    ],
    [
      "a discriminator over branches already tagged",
      union(tagged),
      union(tagged, "kind"),
      [
        `request-discriminator-stated@${B}=kind`,
        "compatible",
        `${B}: discriminator kind stated or dropped; every branch already requires its own constant there, so the accepted values do not change`,
      ],
    ],
    [
      "a discriminator over branches not all tagged",
      union(untagged),
      union(untagged, "kind"),
      [
        `request-discriminator-added@${B}=kind`,
        "breaking",
        `${B}: branches now told apart by kind, which not every branch required as a constant`,
      ],
    ],
    [
      "a discriminator dropped from branches not all tagged",
      union(untagged, "kind"),
      union(untagged),
      [`request-discriminator-removed@${B}=kind`, "compatible", `${B}: branches no longer told apart by kind`],
    ],
    [
      "a discriminator moved to another property",
      union(untagged, "kind"),
      union(untagged, "type"),
      [
        `request-discriminator-changed@${B}`,
        "breaking",
        `${B}: discriminator changed, {"propertyName":"kind"} → {"propertyName":"type"}`,
      ],
    ],
    [
      "a keyword without a rule",
      { type: "array", contains: { const: "a" } },
      { type: "array", contains: { const: "b" } },
      [`request-keyword-changed@${B}=contains`, "breaking", `${B}: contains changed`],
    ],
  ])("%s (request)", (_, before, after, expected) => {
    expect(changes(bodies(before), bodies(after))).toEqual([expected]);
  });

  it("a status no longer terminal (the typed client stops polling on terminal ones)", () => {
    const status = (...terminal: string[]): LooseJson => ({
      type: "string",
      enum: ["done", "failed"],
      "x-terminal-values": terminal,
    });
    expect(changes(bodies({}, status("done", "failed")), bodies({}, status("done")))).toEqual([
      [`response-terminal-status-removed@${O}=failed`, "breaking", `${O}: failed is no longer terminal`],
    ]);
  });
});

describe("the change record", () => {
  it("a schema rule keeps its fixed severity unless it sits under not, which reverses the effect", () => {
    const collector = new ChangeCollector();
    collector.report({ rule: "property-removed", location: "schema Job.id", direction: "response" });
    collector.report({ rule: "property-removed", location: "schema Job.id not", direction: "response", negated: true });
    expect(collector.changes().map((change) => [change.id, change.severity, change.message])).toEqual([
      ["response-property-removed@schema Job.id", "breaking", "schema Job.id: field removed"],
      [
        "response-property-removed@schema Job.id not",
        "compatible",
        "schema Job.id not: field removed (inside not, so the effect is reversed)",
      ],
    ]);
  });

  it("a schema rule needs a direction", () => {
    expect(() => new ChangeCollector().report({ rule: "enum-added", location: "schema Size" })).toThrow(
      "a schema rule needs a direction",
    );
  });

  it("carries a detail only where there is one, and names it in the id", () => {
    const collector = new ChangeCollector();
    collector.report({ rule: "route-removed", location: "POST /v1/things" });
    collector.report({ rule: "route-removed", location: "POST /v1/images/i-d", detail: "I-D" });
    const [model, route] = collector.changes();
    expect(route?.id).toBe("route-removed@POST /v1/things");
    expect(Object.hasOwn(route!, "detail")).toBe(false);
    expect(model).toMatchObject({ id: "route-removed@POST /v1/images/i-d=I-D", detail: "I-D" });
  });

  it("lists the routes that reach a change: none outside a route, the innermost route, each once, sorted", () => {
    const collector = new ChangeCollector();
    const report = (location: string): void => collector.report({ rule: "route-deprecated", location });
    report("outside before");
    collector.forRoute("POST /b", () => {
      collector.forRoute("GET /a", () => report("inner"));
      report("outer");
      report("outer");
    });
    report("outside after");
    expect(() =>
      collector.forRoute("GET /c", () => {
        throw new Error("compare failed");
      }),
    ).toThrow("compare failed");
    report("after a failure");
    collector.forRoute("GET /a", () => report("outer"));
    const routes = Object.fromEntries(collector.changes().map((change) => [change.location, change.routes]));
    expect(routes).toEqual({
      "after a failure": [],
      inner: ["GET /a"],
      outer: ["GET /a", "POST /b"],
      "outside after": [],
      "outside before": [],
    });
  });

  it("compares a shared component once; each later route only joins its changes", () => {
    const collector = new ChangeCollector();
    let compared = 0;
    const compare = (): void => {
      compared++;
      collector.report({ rule: "enum-value-added", location: "schema Size", detail: '"L"', direction: "response" });
    };
    collector.forRoute("POST /b", () => collector.once("schema Size response", compare));
    collector.forRoute("GET /a", () => collector.once("schema Size response", compare));
    expect(compared).toBe(1);
    expect(collector.changes().map((change) => change.routes)).toEqual([["GET /a", "POST /b"]]);
  });

  it("a description the service model can read again is a compatible change naming why the old one failed", () => {
    const bundle = loadBundle();
    const base = { ...bundle, paths: placeholderPaths(bundle.paths) as typeof bundle.paths };
    const unreadable = structuredClone(base);
    PLANTED.find((kind) => kind.kind.startsWith("429 without Retry-After"))!.plant(unreadable);
    const comparison = compareDescriptions({ source: "old", doc: unreadable }, { source: "new", doc: base });
    expect(comparison.changes.map((change) => [change.id, change.severity, change.message])).toContainEqual([
      "service-model-readable@description=the 429 response has no header for retryAfter",
      "compatible",
      "description: the service model can read the description again (the old one failed: the 429 response has no header for retryAfter)",
    ]);
  });
});
