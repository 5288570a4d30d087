/**
 * The service model reads the specification's facts where the description states them, and fails
 * naming the spot when a fact it needs is gone. The expected values are the seed's.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { notShownPlaceholders } from "../../conformance/not-shown-examples.ts";
import { loadBundle, type JsonSchema, type OpenApiDocument } from "../../model/document.ts";
import { readServiceModel, type ServiceModel } from "../../model/service-model.ts";
import { builtPath, doc } from "../support/description.ts";

let model: ServiceModel;
// Read in a hook, not as the module loads: a reader's mutant then runs against every test here
// (tests/mutation/hook-coverage.ts), not only against the broken-description cases that reach it too.
beforeAll(() => {
  model = readServiceModel(loadBundle());
});

const area = (id: string) => model.areas.find((candidate) => candidate.id === id)!;
/** A create route by its label (slugs may be real ones, from a slug map). */
const route = (label: string) => model.createRoutes.find((candidate) => candidate.label === label)!;

describe("the service model of the description", () => {
  it("has the eight model areas with their segments, label prefixes and the id prefixes the seed shows", () => {
    expect(
      model.areas.map(({ id, segment, labelPrefix, jobIdPrefix }) => [id, segment, labelPrefix, jobIdPrefix]),
    ).toEqual([
      ["image", "images", "I", "img_"],
      ["video", "videos", "V", null],
      ["audio", "audios", "A", null],
      ["model3d", "3d", "D", null],
      ["motionControl", "motion-control", "MC", "mtn_"],
      ["lipSync", "lip-sync", "LS", "mtn_"],
      ["depthMap", "depth-maps", "DM", "dpt_"],
      ["videoUpscale", "video-upscales", "VU", null],
    ]);
  });

  it("has every create route once, each in its area, polled at the area's poll route", () => {
    expect(model.createRoutes).toHaveLength(24);
    for (const candidate of model.areas) {
      expect(candidate.poll.path).toBe(`/v1/${candidate.segment}/{id}`);
      for (const created of candidate.createRoutes)
        expect(created.path).toBe(`/v1/${candidate.segment}/${created.slug}`);
    }
    expect(route("I-G")).toMatchObject({ idField: "job_id", idType: "integer" });
    expect(route("I-A")).toMatchObject({
      idField: "id",
      idType: "string",
      responseFields: ["id", "message", "model", "status"],
    });
    expect(route("LS-A").responseFields).toEqual(["id", "message", "model", "status", "credits", "seconds"]);
  });

  it("reads cadences, result fields and retention per area", () => {
    expect(area("video").poll.intervalSeconds).toEqual({ min: 10, max: 30 });
    expect(area("model3d").poll).toMatchObject({
      intervalSeconds: { min: 15, max: 30 },
      retention: { hours: 24, approximate: true },
    });
    expect(area("depthMap").poll.retention).toEqual({ hours: 24, approximate: false });
    expect(area("image").poll.intervalSeconds).toBeNull();
    expect(area("image").resultFields).toEqual(["images"]);
    expect(area("model3d").resultFields).toEqual(["model_url", "files"]);
  });

  it("reads each area's poll facts as the seed states them, and none it does not state", () => {
    // "Polling cadence: every few seconds for images, every 10 to 30 seconds for video, every 15 to
    // 30 seconds for 3D"; "a job usually takes 2 to 5 minutes" (3D); the depth map "is deleted 24
    // hours after generation", 3D files "about 24 hours after". Nothing of the kind for the others.
    expect(
      model.areas.map(({ id, poll }) => [
        id,
        poll.cadence,
        poll.intervalSeconds,
        poll.typicalDurationSeconds,
        poll.retention,
      ]),
    ).toEqual([
      ["image", "every few seconds", null, null, null],
      ["video", "every 10 to 30 seconds", { min: 10, max: 30 }, null, null],
      ["audio", null, null, null, null],
      [
        "model3d",
        "every 15 to 30 seconds",
        { min: 15, max: 30 },
        { min: 120, max: 300 },
        { hours: 24, approximate: true },
      ],
      ["motionControl", null, null, null, null],
      ["lipSync", null, null, null, null],
      ["depthMap", null, null, null, { hours: 24, approximate: false }],
      ["videoUpscale", null, null, null, null],
    ]);
    // The poll results table: the fields each area's success carries, where the seed names them
    // (3D: "`model_url` (the GLB) and `files` (every produced format)").
    expect(model.areas.map(({ id, resultFields }) => [id, resultFields])).toEqual([
      ["image", ["images"]],
      ["video", ["video_url"]],
      ["audio", ["audio_url"]],
      ["model3d", ["model_url", "files"]],
      ["motionControl", ["video_url"]],
      ["lipSync", []],
      ["depthMap", ["video_url"]],
      ["videoUpscale", []],
    ]);
  });

  it("answers a create with 200 and leaves every other operation's success status open, as the seed does", () => {
    // "success is HTTP 200 (`Job accepted.`)" for all create routes; no other route's is stated.
    for (const operation of model.operations)
      expect([operation.operationId, operation.successStatus]).toEqual([
        operation.operationId,
        operation.kind === "create" ? 200 : null,
      ]);
    expect(model.operations.filter((operation) => operation.kind === "poll")).toHaveLength(model.areas.length);
    expect(
      model.operations.filter((operation) => operation.kind === "other").map((operation) => operation.path),
    ).toEqual([
      "/v1/account/credits",
      "/v1/models",
      "/v1/cost",
      "/v1/uploads",
      "/v1/posts",
      "/v1/stock/images",
      "/v1/stock/sound-effects",
      "/v1/stock/music",
    ]);
  });

  it("reads each create's media fields, single or a list, and the id each create answers", () => {
    const media = (label: string) =>
      Object.fromEntries(Object.entries(route(label).media).map(([field, { kind, list }]) => [field, [kind, list]]));
    expect(media("I-A")).toEqual({ reference_images: ["image", true] });
    expect(media("I-B")).toEqual({ image: ["image", false] });
    expect(media("I-F")).toEqual({});
    expect(media("MC-A")).toEqual({ image: ["image", false], video: ["video", false] });
    expect(media("LS-A")).toEqual({ audio: ["audio", false], image: ["image", false] });
    // Four input forms for the lip-sync audio; a video only by URL (public or uploaded) for motion control.
    expect(route("LS-A").media.audio!.forms).toEqual(["public-url", "data-uri", "raw-base64", "uploaded-file-url"]);
    expect(route("MC-A").media.video!.forms).toEqual(["public-url", "uploaded-file-url"]);
    // I-G answers `job_id` (integer) and no `id`; every other create that links its poll answers a string `id`.
    for (const created of model.createRoutes.filter((candidate) => candidate.idField !== null))
      expect([created.label, created.idField, created.idType]).toEqual(
        created.label === "I-G" ? ["I-G", "job_id", "integer"] : [created.label, "id", "string"],
      );
  });

  it("reads job statuses: seven values, three terminal, the success, timeout and initial ones", () => {
    expect(model.jobStatus).toMatchObject({
      values: ["pending", "starting", "processing", "completing", "succeeded", "failed", "timeout"],
      terminal: ["succeeded", "failed", "timeout"],
      success: "succeeded",
      timeout: "timeout",
      initial: "pending",
      failure: ["failed", "timeout"],
    });
  });

  it("reads the errors: 400 causes, 410 code, and each 429 variant with its Retry-After", () => {
    expect(model.errors.invalidRequest).toEqual({
      status: 400,
      type: "invalid_request_error",
      code: "model_not_available",
    });
    expect(model.errors.moderation).toMatchObject({ messageField: "error", reasonField: "restriction_reason" });
    expect(model.errors.moderation.reasons).toEqual([
      "input_csam",
      "input_explicit_adult",
      "input_upload_nudity",
      "input_celebrity_likeness",
      "strict_model_nsfw",
    ]);
    expect(model.errors.retired.code).toBe("model_retired");
    // "only the rate limiter and the cooldown send `Retry-After`"; rate_limit_error / rate_limited is
    // the one 429 type and code shown ("Codes for conditions 2, 3 and 4: not shown"); the cooldown's
    // body carries `retry_after_seconds`.
    expect(
      model.errors.tooManyRequests.variants.map(({ condition, retryAfter, type, code, secondsField }) => [
        condition,
        retryAfter,
        type,
        code,
        secondsField,
      ]),
    ).toEqual([
      ["rate-limited", true, "rate_limit_error", "rate_limited", null],
      ["queue-full", false, null, null, null],
      ["spend-limit", false, null, null, null],
      ["cooldown", true, null, null, "retry_after_seconds"],
    ]);
    // The moderation block is a 400 whose every reason the description explains.
    expect(model.errors.moderation.status).toBe(400);
    expect(Object.keys(model.errors.moderation.reasonDescriptions)).toEqual(model.errors.moderation.reasons);
    // The examples' stand-in where the seed shows no type or code; the codes it shows are not stand-ins.
    expect(notShownPlaceholders(model)).toEqual(["(not shown)"]);
  });

  it("reads what each operation takes: a JSON body, the documented query parameters", () => {
    const takes = (operationId: string) => model.operations.find((operation) => operation.operationId === operationId)!;
    expect(takes("listModels")).toMatchObject({ requestBody: false, queryParameters: ["type"] });
    expect(takes("searchStockMusic")).toMatchObject({
      requestBody: false,
      queryParameters: ["query", "min_duration", "max_duration", "sort"],
    });
    expect(takes("searchStockImages").queryParameters).toEqual([
      "query",
      "category",
      "orientation",
      "color",
      "type",
      "sort",
      "transparent",
    ]);
    expect(takes("getAccountCredits")).toMatchObject({ requestBody: false, queryParameters: [] });
    expect(takes("createPost")).toMatchObject({ requestBody: true, queryParameters: [] });
    expect(
      model.operations.filter((operation) => operation.kind === "create").every((operation) => operation.requestBody),
    ).toBe(true);
  });

  it("reads the limits, the plan gate, the cooldown family and held prices", () => {
    expect(model.limits).toEqual({
      requests: { perKey: 600, perSourceIp: 1200, windowSeconds: 60, window: "fixed", rejectedRequestsCount: true },
      uploads: { perAccount: 60, windowSeconds: 60, window: "rolling", operationId: "createUpload" },
      concurrency: { maxOnUltra: 10, pollingCounts: false },
      spendLimit: { period: "month" },
      cooldown: {
        family: "content-filtered",
        consecutiveFailures: 3,
        withinSeconds: 3600,
        pauseSeconds: 600,
        growthSeconds: 600,
      },
      stockResultsPerPage: 20,
    });
    expect(model.operations.filter((operation) => operation.freePlan).map((operation) => operation.path)).toEqual([
      "/v1/stock/images",
      "/v1/stock/sound-effects",
      "/v1/stock/music",
    ]);
    expect(
      model.createRoutes.filter((created) => created.family === "content-filtered").map((created) => created.label),
    ).toEqual(["I-B"]);
    expect(model.createRoutes.filter((created) => created.priceHeld).map((created) => created.label)).toEqual([
      "D-A",
      "D-B",
      "LS-A",
    ]);
    expect(model.rateLimitHeaders).toEqual({
      limit: "X-RateLimit-Limit",
      remaining: "X-RateLimit-Remaining",
      reset: "X-RateLimit-Reset",
    });
    expect(model.retryAfterHeader).toBe("Retry-After");
  });
});

describe("the id prefix an area's create responses state", () => {
  /** The image area's job id prefix when ImageCreateResponse's `id` has `pattern`. */
  const imagePrefix = (pattern: string): string | null => {
    const copy = structuredClone(doc);
    const own = (copy.components.schemas as Record<string, { allOf: JsonSchema[] }>).ImageCreateResponse!.allOf[1]!;
    (own.properties as Record<string, JsonSchema>).id!.pattern = pattern;
    return readServiceModel(copy).areas.find((candidate) => candidate.id === "image")!.jobIdPrefix;
  };

  it("is the literal a pattern anchored at the start consists of", () => {
    expect(imagePrefix("^img_")).toBe("img_");
    expect(imagePrefix("^job-2_")).toBe("job-2_");
  });

  it("is none for a pattern that says more than a prefix, or allows other starts", () => {
    // The sandbox makes ids from the prefix: one that a longer pattern would refuse must not be read.
    expect(imagePrefix("^img_[0-9a-f]{8}$")).toBeNull();
    expect(imagePrefix("img_")).toBeNull();
    expect(imagePrefix("^vid_|^img_")).toBeNull();
  });
});

describe("a description that lacks a fact", () => {
  const broken = (change: (copy: OpenApiDocument) => void) => {
    const copy = structuredClone(doc);
    change(copy);
    return () => readServiceModel(copy);
  };
  const schemas = (copy: OpenApiDocument) => copy.components.schemas as Record<string, JsonSchema>;

  it.each([
    [
      "no tag with x-area",
      (copy: OpenApiDocument) => {
        for (const tag of copy.tags as Array<Record<string, unknown>>) delete tag["x-area"];
      },
      /no tag carries x-area/,
    ],
    [
      "a label outside its area",
      (copy: OpenApiDocument) => (copy.paths[builtPath("/v1/images/i-a")]!.post!["x-model-label"] = "V-Z"),
      /label V-Z does not start with area image's prefix I-/,
    ],
    [
      "x-limits naming an unknown variant",
      (copy: OpenApiDocument) =>
        ((copy.info["x-limits"] as { concurrency: { variant: string } }).concurrency.variant = "NoSuchError"),
      /x-limits\.concurrency\.variant names NoSuchError/,
    ],
    [
      "a 429 variant without x-retry-after",
      (copy: OpenApiDocument) => delete schemas(copy).QueueFullError!["x-retry-after"],
      /QueueFullError does not say with x-retry-after/,
    ],
    [
      "JobStatus without x-terminal-values",
      (copy: OpenApiDocument) => delete schemas(copy).JobStatus!["x-terminal-values"],
      /x-terminal-values/,
    ],
    [
      "two create routes with one label",
      (copy: OpenApiDocument) => (copy.paths[builtPath("/v1/images/i-b")]!.post!["x-model-label"] = "I-A"),
      /x-model-label I-A labels both POST \S+ and POST \S+; every model has its own label/,
    ],
    [
      "create paths that are not the poll path with the slug",
      (copy: OpenApiDocument) =>
        (copy.paths = Object.fromEntries(
          Object.entries(copy.paths).map(([path, item]) => [path.replace("/v1/images/{id}", "/v1/images/{job}"), item]),
        )),
      /POST \/v1\/images\/\S+ is not its area's poll path \/v1\/images\/\{job\} with the slug for the id/,
    ],
  ])("fails naming the spot: %s", (_what, change, message) => {
    expect(broken(change)).toThrow(message);
  });
});
