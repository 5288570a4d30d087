/**
 * Kinds of change planted into a copy of the bundled description, each with what the comparison
 * must report: its changes for client code ([id, severity, release-note line], in report order)
 * and its changelog lines.
 */
import type { JsonSchema } from "../../model/document.ts";
import type { LooseJson } from "../support/loose.ts";

/** A planted copy is edited freely, deep inside. */
type Doc = LooseJson;

export interface PlantedKind {
  kind: string;
  /** Made to both copies first, where the description lacks what the kind changes. */
  before?(doc: Doc): void;
  plant(doc: Doc): void;
  changes: Array<[id: string, severity: "breaking" | "compatible", message: string]>;
  changelog: string[];
}

const body = (doc: Doc, path: string): Doc => doc.paths[path].post.requestBody.content["application/json"].schema;
const prop = (doc: Doc, path: string, name: string): Doc => body(doc, path).properties[name];
const schema = (doc: Doc, name: string): Doc => doc.components.schemas[name];
const rule = (doc: Doc, path: string, start: string): Doc =>
  body(doc, path).allOf.find((item: JsonSchema) => String(item.description).startsWith(start));

export const PLANTED: PlantedKind[] = [
  {
    kind: "route removed (model retired)",
    plant: (d) => {
      delete d.paths["/v1/images/i-d"];
    },
    changes: [
      [
        "route-removed@POST /v1/images/i-d=I-D",
        "breaking",
        "POST /v1/images/i-d: model I-D removed (retired models answer 410 model_retired)",
      ],
    ],
    changelog: ["Model I-D retired: POST /v1/images/i-d is gone; calls answer 410 model_retired."],
  },
  {
    kind: "new model",
    plant: (d) => {
      const op = structuredClone(d.paths["/v1/images/i-c"]);
      op.post.operationId = "createImageIL";
      op.post["x-model-label"] = "I-L";
      d.paths["/v1/images/i-l"] = op;
    },
    changes: [["route-added@POST /v1/images/i-l=I-L", "compatible", "POST /v1/images/i-l: new model I-L"]],
    changelog: ["New model I-L: POST /v1/images/i-l; output image 25 credits × num_images."],
  },
  {
    kind: "new route",
    plant: (d) => {
      const op = structuredClone(d.paths["/v1/account/credits"]);
      op.get.operationId = "getAccountUsage";
      d.paths["/v1/account/usage"] = op;
    },
    changes: [["route-added@GET /v1/account/usage", "compatible", "GET /v1/account/usage: new route"]],
    changelog: [],
  },
  {
    kind: "request enum value removed",
    plant: (d) => {
      const p = prop(d, "/v1/images/i-a", "aspect_ratio");
      p.enum = p.enum.filter((v: string) => v !== "21:9");
    },
    changes: [
      [
        'request-enum-value-removed@POST /v1/images/i-a request body.aspect_ratio="21:9"',
        "breaking",
        'POST /v1/images/i-a request body.aspect_ratio: no longer allows "21:9"',
      ],
    ],
    changelog: [],
  },
  {
    kind: "request enum value added",
    plant: (d) => {
      prop(d, "/v1/images/i-a", "aspect_ratio").enum.push("3:1");
    },
    changes: [
      [
        'request-enum-value-added@POST /v1/images/i-a request body.aspect_ratio="3:1"',
        "compatible",
        'POST /v1/images/i-a request body.aspect_ratio: may now be "3:1"',
      ],
    ],
    changelog: [],
  },
  {
    kind: "response enum value added",
    plant: (d) => {
      schema(d, "JobStatus").enum.push("queued");
    },
    changes: [
      ['response-enum-value-added@schema JobStatus="queued"', "breaking", 'schema JobStatus: may now be "queued"'],
    ],
    changelog: [],
  },
  {
    kind: "response enum value removed",
    plant: (d) => {
      const s = schema(d, "RestrictionReason");
      s.enum = s.enum.filter((v: string) => v !== "input_upload_nudity");
    },
    changes: [
      [
        'response-enum-value-removed@schema RestrictionReason="input_upload_nudity"',
        "compatible",
        'schema RestrictionReason: no longer allows "input_upload_nudity"',
      ],
    ],
    changelog: [],
  },
  {
    kind: "request max narrowed",
    plant: (d) => {
      prop(d, "/v1/images/i-a", "num_images").maximum = 2;
    },
    changes: [
      [
        "request-maximum-decreased@POST /v1/images/i-a request body.num_images",
        "breaking",
        "POST /v1/images/i-a request body.num_images: maximum lowered, 4 → 2",
      ],
    ],
    changelog: [],
  },
  {
    kind: "request max widened",
    plant: (d) => {
      prop(d, "/v1/images/i-a", "num_images").maximum = 8;
    },
    changes: [
      [
        "request-maximum-increased@POST /v1/images/i-a request body.num_images",
        "compatible",
        "POST /v1/images/i-a request body.num_images: maximum raised, 4 → 8",
      ],
    ],
    changelog: [],
  },
  {
    kind: "request min raised",
    plant: (d) => {
      prop(d, "/v1/videos/v-a", "length_seconds").minimum = 6;
    },
    changes: [
      [
        "request-minimum-increased@POST /v1/videos/v-a request body.length_seconds",
        "breaking",
        "POST /v1/videos/v-a request body.length_seconds: minimum raised, 5 → 6",
      ],
    ],
    changelog: [],
  },
  {
    kind: "response minItems lowered",
    before: (d) => {
      schema(d, "ImageJob").properties.images.minItems = 1;
    },
    plant: (d) => {
      schema(d, "ImageJob").properties.images.minItems = 0;
    },
    changes: [
      [
        "response-minItems-decreased@schema ImageJob.images",
        "breaking",
        "schema ImageJob.images: minItems lowered, 1 → 0",
      ],
    ],
    changelog: [],
  },
  {
    kind: "request maxItems lowered",
    plant: (d) => {
      prop(d, "/v1/images/i-a", "reference_images").maxItems = 5;
    },
    changes: [
      [
        "request-maxItems-decreased@POST /v1/images/i-a request body.reference_images",
        "breaking",
        "POST /v1/images/i-a request body.reference_images: maxItems lowered, 10 → 5",
      ],
    ],
    changelog: [],
  },
  {
    kind: "request maxLength added",
    plant: (d) => {
      prop(d, "/v1/images/i-a", "prompt").maxLength = 2000;
    },
    changes: [
      [
        "request-maxLength-added@POST /v1/images/i-a request body.prompt",
        "breaking",
        "POST /v1/images/i-a request body.prompt: now has maxLength 2000",
      ],
    ],
    changelog: [],
  },
  {
    kind: "parameter pattern added",
    plant: (d) => {
      d.components.parameters.ImageJobId.schema.pattern = "^img_";
    },
    changes: [
      ["request-pattern-added@parameter ImageJobId", "breaking", "parameter ImageJobId: now has pattern ^img_"],
    ],
    changelog: [],
  },
  {
    kind: "request field removed",
    plant: (d) => {
      delete body(d, "/v1/images/i-h").properties.seed;
    },
    changes: [
      [
        "request-property-removed@POST /v1/images/i-h request body.seed",
        "breaking",
        "POST /v1/images/i-h request body.seed: field removed",
      ],
    ],
    changelog: [],
  },
  {
    kind: "optional request field added",
    plant: (d) => {
      body(d, "/v1/images/i-a").properties.negative_prompt = { type: "string", description: "x" };
    },
    changes: [
      [
        "request-property-added@POST /v1/images/i-a request body.negative_prompt",
        "compatible",
        "POST /v1/images/i-a request body.negative_prompt: new optional field",
      ],
    ],
    changelog: [],
  },
  {
    kind: "required request field added",
    plant: (d) => {
      const b = body(d, "/v1/images/i-a");
      b.properties.style = { type: "string", description: "x" };
      b.required.push("style");
    },
    changes: [
      [
        "request-required-property-added@POST /v1/images/i-a request body.style",
        "breaking",
        "POST /v1/images/i-a request body.style: new required field",
      ],
    ],
    changelog: [],
  },
  {
    kind: "request field made required",
    plant: (d) => {
      body(d, "/v1/images/i-a").required.push("size");
    },
    changes: [
      [
        "request-property-became-required@POST /v1/images/i-a request body.size",
        "breaking",
        "POST /v1/images/i-a request body.size: now required",
      ],
    ],
    changelog: [],
  },
  {
    kind: "request field made optional",
    plant: (d) => {
      body(d, "/v1/images/i-a").required = [];
    },
    changes: [
      [
        "request-property-became-optional@POST /v1/images/i-a request body.prompt",
        "compatible",
        "POST /v1/images/i-a request body.prompt: no longer required",
      ],
    ],
    changelog: [],
  },
  {
    kind: "response field removed",
    plant: (d) => {
      const s = schema(d, "AccountCredits");
      delete s.properties.extra_credits;
      s.required = s.required.filter((n: string) => n !== "extra_credits");
    },
    changes: [
      [
        "response-property-removed@schema AccountCredits.extra_credits",
        "breaking",
        "schema AccountCredits.extra_credits: field removed",
      ],
    ],
    changelog: [],
  },
  {
    kind: "response field made optional",
    plant: (d) => {
      const s = schema(d, "AccountCredits");
      s.required = s.required.filter((n: string) => n !== "total_available");
    },
    changes: [
      [
        "response-property-became-optional@schema AccountCredits.total_available",
        "breaking",
        "schema AccountCredits.total_available: no longer required",
      ],
    ],
    changelog: [],
  },
  {
    kind: "response field added",
    plant: (d) => {
      schema(d, "AccountCredits").properties.bonus_credits = { type: "integer", description: "x" };
    },
    changes: [
      [
        "response-property-added@schema AccountCredits.bonus_credits",
        "compatible",
        "schema AccountCredits.bonus_credits: new optional field",
      ],
    ],
    changelog: [],
  },
  {
    kind: "response status removed",
    plant: (d) => {
      delete d.paths["/v1/images/i-c"].post.responses["410"];
    },
    changes: [
      ["response-status-removed@POST /v1/images/i-c=410", "breaking", "POST /v1/images/i-c: no longer answers 410"],
    ],
    changelog: [],
  },
  {
    kind: "success status added",
    plant: (d) => {
      d.paths["/v1/images/i-a"].post.responses["202"] = { description: "Accepted later." };
    },
    changes: [
      [
        "success-status-added@POST /v1/images/i-a=202",
        "breaking",
        "POST /v1/images/i-a: may now answer 202, a success status clients do not expect",
      ],
    ],
    changelog: [],
  },
  {
    kind: "error status added",
    plant: (d) => {
      d.paths["/v1/images/i-a"].post.responses["404"] = { description: "Not found." };
    },
    changes: [["error-status-added@POST /v1/images/i-a=404", "compatible", "POST /v1/images/i-a: may now answer 404"]],
    changelog: [],
  },
  {
    kind: "response header removed",
    plant: (d) => {
      delete d.components.responses.BadRequest.headers["X-RateLimit-Reset"];
    },
    changes: [
      [
        "response-header-removed@response BadRequest=X-RateLimit-Reset",
        "breaking",
        "response BadRequest: header X-RateLimit-Reset removed",
      ],
    ],
    changelog: [],
  },
  {
    kind: "shared header made optional",
    plant: (d) => {
      d.components.headers.XRateLimitReset.required = false;
    },
    changes: [
      [
        "response-header-became-optional@header XRateLimitReset=X-RateLimit-Reset",
        "breaking",
        "header XRateLimitReset: header X-RateLimit-Reset is no longer always sent",
      ],
    ],
    changelog: [],
  },
  {
    kind: "shared header range widened",
    plant: (d) => {
      d.components.headers.XRateLimitRemaining.schema.minimum = -1;
    },
    changes: [
      [
        "response-minimum-decreased@header XRateLimitRemaining",
        "breaking",
        "header XRateLimitRemaining: minimum lowered, 0 → -1",
      ],
    ],
    changelog: [],
  },
  {
    kind: "request type changed",
    plant: (d) => {
      prop(d, "/v1/videos/v-a", "seed").type = "string";
    },
    changes: [
      [
        "request-type-changed@POST /v1/videos/v-a request body.seed",
        "breaking",
        "POST /v1/videos/v-a request body.seed: type changed, integer → string",
      ],
    ],
    changelog: [],
  },
  {
    kind: "request type widened",
    plant: (d) => {
      prop(d, "/v1/images/i-f", "seed").type = "number";
    },
    changes: [
      [
        "request-type-widened@POST /v1/images/i-f request body.seed",
        "compatible",
        "POST /v1/images/i-f request body.seed: type widened, integer → number",
      ],
    ],
    changelog: [],
  },
  {
    kind: "response const changed",
    plant: (d) => {
      schema(d, "RateLimitedError").allOf[1].properties.error.properties.code.const = "too_many";
    },
    changes: [
      [
        "response-const-changed@schema RateLimitedError allOf[1].error.code",
        "breaking",
        "schema RateLimitedError allOf[1].error.code: constant changed, rate_limited → too_many",
      ],
    ],
    changelog: [],
  },
  {
    kind: "request closed",
    plant: (d) => {
      body(d, "/v1/images/i-j").additionalProperties = false;
    },
    changes: [
      [
        "request-additional-properties-closed@POST /v1/images/i-j request body",
        "breaking",
        "POST /v1/images/i-j request body: no longer accepts fields it does not list (additionalProperties: false)",
      ],
    ],
    changelog: [],
  },
  {
    kind: "request opened",
    plant: (d) => {
      delete body(d, "/v1/images/i-a").additionalProperties;
    },
    changes: [
      [
        "request-additional-properties-opened@POST /v1/images/i-a request body",
        "compatible",
        "POST /v1/images/i-a request body: now accepts fields it does not list",
      ],
    ],
    changelog: [],
  },
  {
    kind: "dependentRequired added",
    plant: (d) => {
      body(d, "/v1/videos/v-b").allOf[0].dependentRequired.end_image.push("prompt");
    },
    changes: [
      [
        "request-dependent-required-added@POST /v1/videos/v-b request body allOf[0]=end_image requires prompt",
        "breaking",
        "POST /v1/videos/v-b request body allOf[0]: new dependency: end_image requires prompt",
      ],
    ],
    changelog: [],
  },
  {
    kind: "cross-field rule added",
    plant: (d) => {
      body(d, "/v1/images/i-a").allOf = [
        {
          description: 'size: "4K only with one image".',
          if: { required: ["size"], properties: { size: { const: "4K" } } },
          then: { properties: { num_images: { maximum: 1 } } },
        },
      ];
    },
    changes: [
      [
        'request-all-of-branch-added@POST /v1/images/i-a request body=size: "4K only with one image".',
        "breaking",
        'POST /v1/images/i-a request body: new rule: size: "4K only with one image".',
      ],
    ],
    changelog: [],
  },
  {
    kind: "cross-field rule removed",
    plant: (d) => {
      body(d, "/v1/videos/v-b").allOf.splice(1, 1);
    },
    changes: [
      [
        'request-all-of-branch-removed@POST /v1/videos/v-b request body=image: "cannot be combined with reference media".',
        "compatible",
        'POST /v1/videos/v-b request body: rule removed: image: "cannot be combined with reference media".',
      ],
    ],
    changelog: [],
  },
  {
    kind: "condition changed",
    plant: (d) => {
      rule(d, "/v1/videos/v-a", "resolution:").if.properties.resolution.const = "1080p";
    },
    changes: [
      [
        "request-condition-changed@POST /v1/videos/v-a request body allOf[4]",
        "breaking",
        "POST /v1/videos/v-a request body allOf[4]: the if of a conditional rule changed",
      ],
    ],
    changelog: [],
  },
  {
    kind: "exclusion extended under not",
    plant: (d) => {
      body(d, "/v1/videos/v-b").allOf[1].then.not.anyOf.push({ required: ["video"] });
    },
    changes: [
      [
        'request-any-of-branch-added@POST /v1/videos/v-b request body allOf[1] then not={"required":["video"]}',
        "breaking",
        'POST /v1/videos/v-b request body allOf[1] then not: anyOf branch added: {"required":["video"]} (inside not, so the effect is reversed)',
      ],
    ],
    changelog: [],
  },
  {
    kind: "response oneOf branch added",
    plant: (d) => {
      schema(d, "BadRequestBody").oneOf.push({ $ref: "#/components/schemas/ModelRetiredError" });
    },
    changes: [
      [
        "response-one-of-branch-added@schema BadRequestBody=ModelRetiredError",
        "breaking",
        "schema BadRequestBody: oneOf branch added: ModelRetiredError",
      ],
    ],
    changelog: [],
  },
  {
    kind: "request anyOf branch added",
    plant: (d) => {
      rule(d, "/v1/videos/v-a", 'aspect_ratio: "Reference').then.anyOf.push({ required: ["video"] });
    },
    changes: [
      [
        'request-any-of-branch-added@POST /v1/videos/v-a request body allOf[5] then={"required":["video"]}',
        "compatible",
        'POST /v1/videos/v-a request body allOf[5] then: anyOf branch added: {"required":["video"]}',
      ],
    ],
    changelog: [],
  },
  {
    kind: "response header added",
    plant: (d) => {
      d.components.responses.Forbidden.headers["X-Request-Id"] = { description: "x", schema: { type: "string" } };
    },
    changes: [
      [
        "response-header-added@response Forbidden=X-Request-Id",
        "compatible",
        "response Forbidden: new header X-Request-Id",
      ],
    ],
    changelog: [],
  },
  {
    kind: "request default changed",
    plant: (d) => {
      prop(d, "/v1/images/i-a", "size").default = "2K";
    },
    changes: [
      [
        "request-default-changed@POST /v1/images/i-a request body.size",
        "breaking",
        "POST /v1/images/i-a request body.size: default changed, 1K → 2K",
      ],
    ],
    changelog: [],
  },
  {
    kind: "media limit tightened",
    plant: (d) => {
      prop(d, "/v1/lip-sync/ls-a", "audio")["x-media"].maxDurationSeconds = 60;
    },
    changes: [
      [
        "request-media-limit-tightened@POST /v1/lip-sync/ls-a request body.audio=maxDurationSeconds",
        "breaking",
        "POST /v1/lip-sync/ls-a request body.audio: media limit maxDurationSeconds tightened, 120 → 60",
      ],
    ],
    changelog: [],
  },
  {
    kind: "media format removed",
    plant: (d) => {
      const m = prop(d, "/v1/lip-sync/ls-a", "audio")["x-media"];
      m.formats = m.formats.filter((f: string) => f !== "ogg");
    },
    changes: [
      [
        "request-media-format-removed@POST /v1/lip-sync/ls-a request body.audio=ogg",
        "breaking",
        "POST /v1/lip-sync/ls-a request body.audio: no longer accepts format ogg",
      ],
    ],
    changelog: [],
  },
  {
    kind: "terminal status added",
    plant: (d) => {
      schema(d, "JobStatus")["x-terminal-values"].push("completing");
    },
    changes: [
      [
        "response-terminal-status-added@schema JobStatus=completing",
        "breaking",
        "schema JobStatus: completing is now terminal",
      ],
    ],
    changelog: [],
  },
  {
    kind: "retry-after changed",
    plant: (d) => {
      schema(d, "QueueFullError")["x-retry-after"] = true;
    },
    changes: [
      [
        "response-retry-after-changed@schema QueueFullError",
        "breaking",
        "schema QueueFullError: x-retry-after changed, false → true",
      ],
    ],
    changelog: [],
  },
  {
    kind: "operation id changed",
    plant: (d) => {
      d.paths["/v1/account/credits"].get.operationId = "readAccountCredits";
    },
    changes: [
      [
        "operation-id-changed@GET /v1/account/credits",
        "breaking",
        "GET /v1/account/credits: operationId changed, getAccountCredits → readAccountCredits (generated code names operations by it)",
      ],
    ],
    changelog: [],
  },
  {
    kind: "optional parameter added",
    plant: (d) => {
      d.paths["/v1/stock/music"].get.parameters.push({
        name: "page",
        in: "query",
        description: "x",
        schema: { type: "integer" },
      });
    },
    changes: [
      [
        "parameter-added@GET /v1/stock/music query parameter page",
        "compatible",
        "GET /v1/stock/music query parameter page: new optional parameter",
      ],
    ],
    changelog: [],
  },
  {
    kind: "required parameter added",
    plant: (d) => {
      d.paths["/v1/stock/music"].get.parameters.push({
        name: "license",
        in: "query",
        required: true,
        description: "x",
        schema: { type: "string" },
      });
    },
    changes: [
      [
        "required-parameter-added@GET /v1/stock/music query parameter license",
        "breaking",
        "GET /v1/stock/music query parameter license: new required parameter",
      ],
    ],
    changelog: [],
  },
  {
    kind: "parameter removed",
    plant: (d) => {
      const op = d.paths["/v1/stock/images"].get;
      op.parameters = op.parameters.filter((p: Doc) => p.name !== "color");
    },
    changes: [
      [
        "parameter-removed@GET /v1/stock/images query parameter color",
        "breaking",
        "GET /v1/stock/images query parameter color: parameter removed",
      ],
    ],
    changelog: [],
  },
  {
    kind: "parameter made required",
    plant: (d) => {
      d.components.parameters.StockQuery.required = true;
    },
    changes: [
      ["parameter-became-required@parameter StockQuery", "breaking", "parameter StockQuery: parameter is now required"],
    ],
    changelog: [],
  },
  {
    kind: "price changed",
    plant: (d) => {
      d.paths["/v1/images/i-a"].post["x-pricing"].components[0].rateBy.table["2K"] = 21;
    },
    changes: [],
    changelog: ["I-A: output image, size 2K: 19 → 21 credits × num_images (+10.5%)."],
  },
  {
    kind: "flat price changed",
    plant: (d) => {
      d.paths["/v1/images/i-c"].post["x-pricing"].components[0].rate = 30;
    },
    changes: [],
    changelog: ["I-C: output image: 25 → 30 credits × num_images (+20%)."],
  },
  {
    kind: "rate added",
    plant: (d) => {
      d.paths["/v1/images/i-e"].post["x-pricing"].components.push({
        label: "reference image",
        rate: 2,
        per: { itemsBeyond: { field: "reference_images", free: 4 } },
      });
    },
    changes: [],
    changelog: ["I-E: new rate reference image: 2 credits per reference_images item beyond 4."],
  },
  {
    kind: "price now stated",
    plant: (d) => {
      const op = d.paths["/v1/images/i-d"].post;
      op["x-pricing"] = {
        charged: "on-success",
        components: [{ label: "output image", rate: 30, per: { field: "num_images" } }],
      };
      delete op["x-not-shown"].price;
    },
    changes: [],
    changelog: [
      "I-D: price now stated: output image 30 credits × num_images.",
      'Now stated: POST /v1/images/i-d (price); was not shown ("The price of I-D is not shown.").',
    ],
  },
  {
    kind: "price's form now stated, its rate not shown",
    plant: (d) => {
      d.paths["/v1/images/i-d"].post["x-pricing"] = {
        charged: "on-success",
        components: [{ label: "output image", rateNotShown: { by: [] }, per: { field: "num_images" } }],
      };
    },
    changes: [],
    changelog: ["I-D: the price's form now stated: output image at a rate not shown × num_images (partly shown)."],
  },
  {
    kind: "price no longer held",
    plant: (d) => {
      delete d.paths["/v1/3d/d-a"].post["x-pricing"].held;
    },
    changes: [],
    changelog: ["D-A: the price is no longer held when the job is created."],
  },
  {
    kind: "limit changed",
    plant: (d) => {
      d.info["x-limits"].requests.perKey = 300;
    },
    changes: [],
    changelog: ["Limit requests.perKey: 600 → 300 requests per API key per 60 seconds."],
  },
  {
    kind: "cooldown limit changed",
    plant: (d) => {
      d.info["x-limits"].cooldown.pauseSeconds = 900;
    },
    changes: [],
    changelog: ["Limit cooldown.pauseSeconds: 600 → 900 seconds."],
  },
  {
    kind: "free plan narrowed",
    plant: (d) => {
      delete d.paths["/v1/stock/music"].get["x-free-plan"];
    },
    changes: [],
    changelog: ["The Free plan may no longer call GET /v1/stock/music."],
  },
  {
    kind: "polling interval changed",
    plant: (d) => {
      d.paths["/v1/videos/{id}"].get["x-polling"].maxIntervalSeconds = 60;
    },
    changes: [],
    changelog: ["Polling video.intervalSeconds.max: 30 → 60 seconds."],
  },
  {
    kind: "result retention changed",
    plant: (d) => {
      d.paths["/v1/depth-maps/{id}"].get["x-polling"].resultRetentionHours = 48;
    },
    changes: [],
    changelog: ["Polling depthMap.retention.hours: 24 → 48 hours."],
  },
  {
    kind: "not shown now stated",
    plant: (d) => {
      delete schema(d, "JobStatus")["x-not-shown"];
    },
    changes: [],
    changelog: [
      'Now stated: Schema JobStatus (transitions); was not shown ("Transitions between states are not shown.").',
    ],
  },
  {
    kind: "parameter type now stated",
    plant: (d) => {
      const p = d.components.parameters.StockSort;
      delete p["x-not-shown"];
      p.schema = { type: "string" };
    },
    changes: [
      ["request-type-narrowed@parameter StockSort", "breaking", "parameter StockSort: type narrowed, any → string"],
    ],
    changelog: [
      'Now stated: Parameter StockSort (type); was not shown ("The type and the values of the stock search filter sort are not shown.").',
    ],
  },
  {
    kind: "bearer scheme replaced by an API-key header",
    plant: (d) => {
      const { scheme: _bearer, ...kept } = d.components.securitySchemes.bearerAuth;
      d.components.securitySchemes.bearerAuth = { ...kept, type: "apiKey", in: "header", name: "X-API-Key" };
    },
    changes: [
      [
        "security-scheme-changed@security scheme bearerAuth",
        "breaking",
        "security scheme bearerAuth: now API key in header X-API-Key (was HTTP bearer); clients must send their key the new way",
      ],
    ],
    changelog: [],
  },
  {
    kind: "second security scheme required",
    plant: (d) => {
      d.components.securitySchemes.apiKeyHeader = { type: "apiKey", in: "header", name: "X-API-Key" };
      d.security = [{ bearerAuth: [], apiKeyHeader: [] }];
    },
    changes: [
      [
        "security-requirement-tightened@security",
        "breaking",
        "security: authentication now requires apiKeyHeader + bearerAuth (was bearerAuth); a client holding only what it sent before is refused",
      ],
    ],
    changelog: [],
  },
  {
    kind: "security requirement relaxed",
    plant: (d) => {
      d.components.securitySchemes.apiKeyHeader = { type: "apiKey", in: "header", name: "X-API-Key" };
      d.security = [{ bearerAuth: [] }, { apiKeyHeader: [] }];
    },
    changes: [
      [
        "security-requirement-relaxed@security",
        "compatible",
        "security: authentication now accepts bearerAuth or apiKeyHeader (was bearerAuth)",
      ],
    ],
    changelog: [],
  },
  {
    kind: "readOnly added to a request field",
    plant: (d) => {
      prop(d, "/v1/images/i-a", "prompt").readOnly = true;
    },
    changes: [
      [
        "request-read-only-added@POST /v1/images/i-a request body.prompt",
        "breaking",
        "POST /v1/images/i-a request body.prompt: now read-only: the service ignores or refuses it in requests",
      ],
    ],
    changelog: [],
  },
  {
    kind: "writeOnly added to a response field",
    plant: (d) => {
      schema(d, "AccountCredits").properties.total_available.writeOnly = true;
    },
    changes: [
      [
        "response-write-only-added@schema AccountCredits.total_available",
        "breaking",
        "schema AccountCredits.total_available: now write-only: responses no longer carry it",
      ],
    ],
    changelog: [],
  },
  {
    kind: "429 without Retry-After (the service model cannot read it)",
    plant: (d) => {
      delete d.components.responses.TooManyRequests.headers["Retry-After"];
    },
    changes: [
      [
        "service-model-unreadable@description=the 429 response has no header for retryAfter",
        "breaking",
        "description: the service model can no longer read the description: the 429 response has no header for retryAfter",
      ],
      [
        "response-header-removed@response TooManyRequests=Retry-After",
        "breaking",
        "response TooManyRequests: header Retry-After removed",
      ],
    ],
    changelog: [],
  },
  {
    // The same URLs under another parameter name: nothing changes on the wire, nor in what the
    // service model reads, but code typed by the template must follow.
    kind: "path parameter renamed",
    plant: (d) => {
      d.paths["/v1/images/{job_id}"] = d.paths["/v1/images/{id}"];
      delete d.paths["/v1/images/{id}"];
      d.components.parameters.ImageJobId.name = "job_id";
    },
    changes: [
      [
        "path-template-changed@GET /v1/images/{job_id}",
        "breaking",
        "GET /v1/images/{job_id}: path template renamed, /v1/images/{id} → /v1/images/{job_id}: the URLs sent are unchanged, but code typed by the template (the path's key, its path parameter's name) must follow",
      ],
    ],
    changelog: [],
  },
  {
    kind: "version",
    plant: (d) => {
      d.info.version = "2026-07-01";
    },
    changes: [],
    changelog: ["Interface version 2026-06-20 → 2026-07-01."],
  },
];
