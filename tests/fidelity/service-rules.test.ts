/**
 * Fidelity of the rules that hold for the whole service, read off the seed's States, Errors,
 * Limits, Authentication and Versioning sections: the values are written here as the seed states
 * them, and must be found where a reader or a tool looks for them in the description.
 */
import { describe, expect, it } from "vitest";
import { deref, operations, type JsonSchema, type ResponseObject } from "../../model/document.ts";
import { doc, operation } from "../support/description.ts";

const schema = (name: string): JsonSchema => doc.components.schemas![name]!;
const response = (name: string): ResponseObject => doc.components.responses![name]!;
const info = doc.info.description as string;
const polling = (path: string) => operation(path, "get")["x-polling"] as Record<string, unknown>;

describe("job states", () => {
  it("JobStatus is exactly the seven states, three of them terminal", () => {
    expect(schema("JobStatus").enum).toEqual([
      "pending",
      "starting",
      "processing",
      "completing",
      "succeeded",
      "failed",
      "timeout",
    ]);
    expect(schema("JobStatus")["x-terminal-values"]).toEqual(["succeeded", "failed", "timeout"]);
    expect(schema("JobStatus")["x-not-shown"]).toHaveProperty("transitions");
  });

  it("a succeeded job carries its result fields, those of the poll results table (poll if/then)", () => {
    for (const [name, fields] of [
      ["ImageJob", ["images"]],
      ["VideoJob", ["video_url"]],
      ["AudioJob", ["audio_url"]],
      // "`model_url` (the GLB) and `files` (every produced format)"
      ["Model3dJob", ["model_url", "files"]],
      ["MotionControlJob", ["video_url"]],
      ["DepthMapJob", ["video_url"]],
    ] as const) {
      expect(schema(name).required).toEqual(["status"]);
      expect(schema(name).then, name).toEqual({ required: fields });
    }
  });
});

describe("authentication", () => {
  it("is HTTP bearer with keys of a fixed live prefix and a secret part", () => {
    const scheme = (
      doc.components.securitySchemes as
        | Record<string, { type?: string; scheme?: string; description?: string }>
        | undefined
    )?.bearerAuth;
    expect([scheme?.type, scheme?.scheme]).toEqual(["http", "bearer"]);
    expect(scheme?.description?.replace(/\s+/g, " ")).toContain(
      "Keys have a fixed live prefix followed by a secret part",
    );
  });
});

describe("errors", () => {
  it("moderation blocks are 400 with exactly the seed's five restriction reasons", () => {
    expect(schema("RestrictionReason").enum).toEqual([
      "input_csam",
      "input_explicit_adult",
      "input_upload_nudity",
      "input_celebrity_likeness",
      "strict_model_nsfw",
    ]);
    expect(schema("ModerationBlock").required).toEqual(["error", "restriction_reason"]);
    expect(schema("ErrorBody").properties).toMatchObject({ error: { required: ["type", "code", "message"] } });
  });

  it("400 invalid_request_error / model_not_available, 410 model_retired, 429 rate_limit_error / rate_limited", () => {
    const invalid = doc.components.examples!.InvalidRequest!.value as { error: { type: string; code: string } };
    expect(invalid.error).toMatchObject({ type: "invalid_request_error", code: "model_not_available" });
    expect(JSON.stringify(schema("ModelRetiredError"))).toContain('"code":{"const":"model_retired"}');
    expect(JSON.stringify(schema("RateLimitedError"))).toContain(
      '"type":{"const":"rate_limit_error"},"code":{"const":"rate_limited"}',
    );
  });

  it("only the rate limiter and the cooldown send Retry-After", () => {
    const variants = (schema("TooManyRequestsBody").anyOf as Array<{ $ref: string }>).map(
      ({ $ref }) => $ref.split("/").at(-1)!,
    );
    const sending = variants.filter((name) => schema(name)["x-retry-after"] === true);
    expect(variants.sort()).toEqual(["CooldownError", "QueueFullError", "RateLimitedError", "SpendLimitError"]);
    expect(sending.sort()).toEqual(["CooldownError", "RateLimitedError"]);
    expect(response("TooManyRequests").headers).toHaveProperty("Retry-After");
  });

  it("every operation answers 401 and 403 with the error body, and 429 through the shared response", () => {
    for (const { path, method, operation: op } of operations(doc)) {
      for (const status of ["401", "403", "429"])
        expect(op.responses[status], `${method} ${path} ${status}`).toBeDefined();
      expect(deref<ResponseObject>(doc, op.responses["429"]!)).toBe(response("TooManyRequests"));
    }
  });
});

describe("limits, written where a reader finds them", () => {
  it.each([
    [/600 per minute per API key/, "requests per key"],
    [/1200 per minute per source IP/, "requests per IP"],
    [/fixed one-minute windows; whichever limit is hit first applies/, "windows"],
    [/Rejected requests\s+still count against the window/, "rejected requests count"],
    [/60 per minute per account, a rolling window/, "uploads"],
    [/up to 10 on Ultra/, "concurrency cap"],
    [/polling never counts against it/, "polling and the cap"],
    [
      /three consecutive failed generations within an hour[\s\S]*ten minutes,\s+growing by ten minutes with each additional failure; any success clears it/,
      "cooldown",
    ],
    [/20 results per page at most/, "stock page size"],
  ])("info states %s (%s)", (pattern) => {
    expect(info).toMatch(pattern);
  });

  it("X-RateLimit-Reset counts at most the seconds of a one-minute window, in its schema and in x-limits", () => {
    const reset = doc.components.headers!.XRateLimitReset as { schema: JsonSchema };
    expect(reset.schema).toMatchObject({ type: "integer", minimum: 0, maximum: 60 });
    expect((doc.info["x-limits"] as { requests: { windowSeconds: number } }).requests.windowSeconds).toBe(60);
  });

  it("the uploads route restates its own limit and is free", () => {
    expect(operation("/v1/uploads").description).toMatch(/60 uploads per minute per\s+account, a rolling window/);
    expect(operation("/v1/uploads")["x-pricing"]).toEqual({ charged: "free", components: [] });
  });
});

describe("plans, billing and polling", () => {
  it("the stock searches are the Free plan's routes, and create routes are charged on success only", () => {
    for (const path of ["/v1/stock/images", "/v1/stock/sound-effects", "/v1/stock/music"]) {
      expect(operation(path, "get").description).toMatch(/Free plan/);
    }
    expect(info).toMatch(/On the Free plan, keys may call\s+only the stock searches/);
    for (const { path, operation: op } of operations(doc)) {
      const pricing = op["x-pricing"] as { charged?: string } | undefined;
      if (op["x-model-label"] && pricing) expect(pricing.charged, path).toBe("on-success");
    }
  });

  it("cadences and retention are the seed's", () => {
    expect(polling("/v1/videos/{id}")).toMatchObject({ minIntervalSeconds: 10, maxIntervalSeconds: 30 });
    expect(polling("/v1/3d/{id}")).toEqual({
      cadence: "every 15 to 30 seconds",
      minIntervalSeconds: 15,
      maxIntervalSeconds: 30,
      typicalDurationSeconds: { min: 120, max: 300 },
      resultRetentionHours: 24,
      resultRetentionApproximate: true,
    });
    expect(polling("/v1/depth-maps/{id}")).toEqual({ resultRetentionHours: 24 });
    expect(polling("/v1/images/{id}")).toEqual({ cadence: "every few seconds" });
  });
});

describe("versioning", () => {
  it("states the version string, the /v1 prefix and retired models' 410", () => {
    expect(doc.info.version).toBe("2026-06-20");
    for (const path of Object.keys(doc.paths)) expect(path).toMatch(/^\/v1\//);
    expect(info).toMatch(/Retired models answer HTTP 410 with code `model_retired`/);
    expect((doc.info as { "x-not-shown"?: object })["x-not-shown"]).toHaveProperty("deprecation-period");
  });
});
