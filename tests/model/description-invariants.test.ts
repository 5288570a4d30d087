/**
 * The service model (model/service-model.ts) reads what the sandbox, the suite and the generators
 * rely on from the description, and refuses a description that breaks one of those facts with an
 * error that names the fact: each case below breaks one in a copy of the bundle.
 */
import { describe, expect, it } from "vitest";
import {
  deref,
  loadBundle,
  resolvePointer,
  type JsonSchema,
  type OpenApiDocument,
  type Operation,
} from "../../model/document.ts";
import { loadServiceModel, readServiceModel } from "../../model/service-model.ts";
import { builtPath } from "../support/description.ts";

type Edit = (doc: OpenApiDocument) => void;

// The routes the cases break, by their paths in this build (a slug map gives some real slugs).
const I_A = builtPath("/v1/images/i-a");
const I_B = builtPath("/v1/images/i-b");
const V_A = builtPath("/v1/videos/v-a");
const CREATE_I_A = loadBundle().paths[I_A]!.post!.operationId;

const schemas = (doc: OpenApiDocument): Record<string, JsonSchema> => doc.components.schemas!;
const limits = (doc: OpenApiDocument): Record<string, Record<string, unknown>> =>
  doc.info["x-limits"] as Record<string, Record<string, unknown>>;
const post = (doc: OpenApiDocument, path: string): Operation => doc.paths[path]!.post!;
/** The document's tags, as the model reads them (`x-area` on the areas' tags). */
const tags = (doc: OpenApiDocument): Array<{ name: string; "x-area"?: { segment: string } }> =>
  (doc as unknown as { tags: Array<{ name: string; "x-area"?: { segment: string } }> }).tags;
const credits = (doc: OpenApiDocument): Operation => doc.paths["/v1/account/credits"]!.get!;
/** The status each example of a create response shows, set to `status`. */
const createExamplesShow = (doc: OpenApiDocument, status: string, paths?: readonly string[]): void => {
  for (const [path, item] of Object.entries(doc.paths)) {
    const operation = item.post;
    if (typeof operation?.["x-model-label"] !== "string" || (paths && !paths.includes(path))) continue;
    // The operation's own copy of its response and examples, which may be shared components.
    const ok = structuredClone(deref(doc, operation.responses["200"])) as {
      content: Record<string, { examples?: Record<string, unknown> }>;
    };
    const examples = ok.content["application/json"]!.examples ?? {};
    for (const [name, example] of Object.entries(examples))
      examples[name] = { value: { ...deref<{ value: object }>(doc, example as { $ref: string }).value, status } };
    operation.responses["200"] = ok as Operation["responses"][string];
  }
};

/** A response of components/responses, as the cases edit it. */
type EditedResponse = { content?: Record<string, { schema?: unknown; examples?: Record<string, unknown> }> };
const sharedResponse = (doc: OpenApiDocument, name: string): EditedResponse =>
  doc.components.responses![name] as EditedResponse;
/** The named examples of the shared 400 response, which every create refers to. */
const badRequestExamples = (doc: OpenApiDocument): Record<string, unknown> =>
  sharedResponse(doc, "BadRequest").content!["application/json"]!.examples!;

/** The poll link the image creates' shared 200 response names. */
const imagePollLink = (doc: OpenApiDocument): Record<string, unknown> =>
  (doc.components.links as Record<string, Record<string, unknown>>).PollImageJob!;

function brokenBy(edit: Edit): () => unknown {
  const doc = structuredClone(loadBundle());
  edit(doc);
  return () => readServiceModel(doc);
}

const CASES: ReadonlyArray<[fact: string, edit: Edit, message: string]> = [
  [
    "JobStatus marks its terminal values",
    (doc) => delete schemas(doc).JobStatus!["x-terminal-values"],
    "service model: no schema carries x-terminal-values (JobStatus)",
  ],
  ["JobStatus has an enum", (doc) => delete schemas(doc).JobStatus!.enum, "service model: JobStatus has no enum"],
  [
    "every terminal value is one of JobStatus's values",
    (doc) => (schemas(doc).JobStatus!["x-terminal-values"] as string[]).push("done"),
    "service model: JobStatus's x-terminal-values names done, which its enum lacks",
  ],
  [
    "timeout is terminal",
    (doc) => (schemas(doc).JobStatus!["x-terminal-values"] = ["succeeded", "failed"]),
    "service model: JobStatus's x-terminal-values lack timeout",
  ],
  [
    "the success status is terminal",
    (doc) => (schemas(doc).JobStatus!["x-terminal-values"] = ["failed", "timeout"]),
    "service model: the success status succeeded is not terminal",
  ],
  [
    "every create response's example shows one initial status",
    (doc) => createExamplesShow(doc, "processing", [V_A]),
    "service model: the create responses' examples show 2 initial statuses (pending, processing); exactly one expected",
  ],
  [
    "the initial status is not terminal",
    (doc) => createExamplesShow(doc, "failed"),
    "service model: the initial status failed is not a non-terminal JobStatus",
  ],
  ["the limits are stated", (doc) => delete doc.info["x-limits"], "service model: info has no x-limits"],
  [
    "each limit's 429 variant is a schema",
    (doc) => (limits(doc).spendLimit!.variant = "NoSuchError"),
    "service model: x-limits.spendLimit.variant names NoSuchError, which components/schemas lacks",
  ],
  [
    "one 429 variant stands for one condition",
    (doc) => (limits(doc).concurrency!.variant = "RateLimitedError"),
    "service model: x-limits names RateLimitedError for both rate-limited and queue-full",
  ],
  [
    "the uploads' limit names an operation",
    (doc) => (limits(doc).uploads!.operationId = "uploadSomething"),
    "service model: x-limits.uploads.operationId names uploadSomething, which no operation has",
  ],
  [
    "the account's credits route has an operationId",
    (doc) => delete (credits(doc) as { operationId?: string }).operationId,
    "the description has no operation GET /v1/account/credits with an operationId (the account's credits)",
  ],
  [
    "every model has its own label",
    (doc) => (post(doc, I_B)["x-model-label"] = "I-A"),
    `service model: x-model-label I-A labels both POST ${I_A} and POST ${I_B}; every model has its own label`,
  ],
  [
    "a create's label starts with its area's prefix",
    (doc) => (post(doc, I_B)["x-model-label"] = "V-Z"),
    `service model: POST ${I_B}'s label V-Z does not start with area image's prefix I-`,
  ],
  [
    "an area is marked on a tag",
    (doc) => {
      for (const tag of tags(doc)) delete tag["x-area"];
    },
    "service model: no tag carries x-area",
  ],
  [
    "an operation carries one tag",
    (doc) => post(doc, I_A).tags!.push("Videos"),
    `service model: ${I_A} must carry exactly one tag`,
  ],
  [
    "an area has one poll route",
    (doc) => (doc.paths["/v1/images/{id}"]!.get!.tags = ["Videos"]),
    "service model: area image (tag Images) has 0 poll routes; one expected",
  ],
  [
    "an area's poll route lies under its segment",
    (doc) => (tags(doc).find((tag) => tag.name === "Images")!["x-area"]!.segment = "pictures"),
    "service model: the poll route /v1/images/{id} of area image is not under /v1/pictures/",
  ],
  [
    "a create's 200 response names one poll link",
    (doc) =>
      ((doc.components.responses!.ImageJobAccepted as { links: Record<string, unknown> }).links.again = {
        $ref: "#/components/links/PollImageJob",
      }),
    `service model: POST ${I_A}'s 200 response has 2 links; one poll link expected`,
  ],
  [
    "the poll link passes the job's id",
    (doc) => delete imagePollLink(doc).parameters,
    `service model: the poll link of POST ${I_A} has no id parameter`,
  ],
  [
    "the poll link's id is a top-level field of the create response",
    (doc) => (imagePollLink(doc).parameters = { id: "$response.body#/id/value" }),
    `service model: the poll link of POST ${I_A} reads $response.body#/id/value, not a top-level body field`,
  ],
  [
    "the poll link's id is a bare runtime expression",
    (doc) => (imagePollLink(doc).parameters = { id: "{$response.body#/id}" }),
    `service model: the poll link of POST ${I_A} reads {$response.body#/id}, not a top-level body field`,
  ],
  [
    "the poll link names its operation",
    (doc) => delete imagePollLink(doc).operationId,
    `service model: the poll link of POST ${I_A} names no operationId`,
  ],
  [
    "the poll link names its area's poll route",
    (doc) => (imagePollLink(doc).operationId = "getVideoJob"),
    `service model: the poll link of POST ${I_A} names getVideoJob, not getImageJob`,
  ],
  [
    "the poll schemas agree on the success status",
    (doc) => (schemas(doc).VideoJob!.if = { properties: { status: { const: "completing" } }, required: ["status"] }),
    "service model: the poll schemas name 2 success statuses (succeeded, completing); exactly one expected",
  ],
  [
    "only GET and POST operations",
    (doc) => (doc.paths["/v1/posts"]!.put = structuredClone(doc.paths["/v1/posts"]!.post)),
    "service model: PUT /v1/posts: only GET and POST operations are modelled",
  ],
  [
    "a query parameter has a name",
    (doc) => delete (doc.paths["/v1/models"]!.get!.parameters![0] as { name?: string }).name,
    "service model: a query parameter of /v1/models has no name",
  ],
  [
    "the shared 429 response names each rate-limit header",
    (doc) =>
      delete (doc.components.responses!.TooManyRequests as { headers: Record<string, unknown> }).headers[
        "X-RateLimit-Limit"
      ],
    "service model: the 429 response has no header for limit",
  ],
  [
    "each 429 variant says whether it sends Retry-After",
    (doc) => delete schemas(doc).QueueFullError!["x-retry-after"],
    "service model: the 429 variant QueueFullError does not say with x-retry-after whether it sends Retry-After",
  ],
  [
    "the error body requires its fields",
    (doc) => delete (schemas(doc).ErrorBody!.properties as Record<string, JsonSchema>).error!.required,
    `service model: the error body of POST ${I_A}'s 401 response requires no error fields`,
  ],
  [
    "the retired model's body fixes its code",
    (doc) => (schemas(doc).ModelRetiredError!.allOf as JsonSchema[]).pop(),
    `service model: POST ${I_A}'s 410 body fixes no error.code`,
  ],
  [
    "the 400 examples show one invalid-request type and code",
    (doc) =>
      (badRequestExamples(doc).other = {
        value: { error: { type: "api_error", code: "internal", message: "Something broke." } },
      }),
    `service model: the 400 examples of POST ${I_A} show 2 error type/code pairs; exactly one expected`,
  ],
  [
    "the 400 examples show an invalid-request type and code at all",
    (doc) => delete badRequestExamples(doc)["invalid-request"],
    `service model: the 400 examples of POST ${I_A} show 0 error type/code pairs; exactly one expected`,
  ],
  [
    "the 429 body is a union of its variants",
    (doc) => delete schemas(doc).TooManyRequestsBody!.anyOf,
    `service model: POST ${I_A}'s 429 body is not a oneOf/anyOf of variants`,
  ],
  [
    "each 429 variant stands for a condition x-limits names",
    (doc) => {
      schemas(doc).ExtraError = structuredClone(schemas(doc).CooldownError!);
      (schemas(doc).TooManyRequestsBody!.anyOf as JsonSchema[]).push({ $ref: "#/components/schemas/ExtraError" });
    },
    "service model: no x-limits entry names the 429 variant ExtraError",
  ],
  [
    "a 429 variant is a component schema, named by its reference",
    (doc) => (schemas(doc).TooManyRequestsBody!.anyOf as JsonSchema[]).push({ type: "object" }),
    `service model: a 429 body variant of POST ${I_A} is not a $ref to a schema of components/schemas`,
  ],
  [
    "a 429 variant is a whole component schema, not a part of one",
    (doc) =>
      (schemas(doc).TooManyRequestsBody!.anyOf as JsonSchema[]).push({
        $ref: "#/components/schemas/CooldownError/allOf/1",
      }),
    `service model: a 429 body variant of POST ${I_A} is not a $ref to a schema of components/schemas`,
  ],
  [
    "the moderation block requires a message besides its reason",
    (doc) => (schemas(doc).ModerationBlock!.required = ["restriction_reason"]),
    `service model: the moderation body of POST ${I_A} has no message field`,
  ],
  [
    "a 400 variant enumerates the moderation reasons",
    (doc) => delete schemas(doc).RestrictionReason!.enum,
    `service model: no 400 body variant of POST ${I_A} has an enum property (the moderation block)`,
  ],
  [
    "the retired model's 410 has a JSON body",
    (doc) => delete sharedResponse(doc, "ModelRetired").content,
    `service model: POST ${I_A}'s 410 response has no JSON schema`,
  ],
  [
    "a create route is its area's segment and a slug",
    (doc) => {
      doc.paths[I_B.replace("/v1/images/", "/v1/images/more/")] = doc.paths[I_B]!;
      delete doc.paths[I_B];
    },
    `service model: POST ${I_B.replace("/v1/images/", "/v1/images/more/")} is tagged image but is not /v1/images/<slug>`,
  ],
  [
    "a create route lies under its own area's segment",
    (doc) => {
      doc.paths[I_B.replace("/v1/images/", "/v1/videos/")] = doc.paths[I_B]!;
      delete doc.paths[I_B];
    },
    `service model: POST ${I_B.replace("/v1/images/", "/v1/videos/")} is tagged image but is not /v1/images/<slug>`,
  ],
  [
    "an area's create responses state one id prefix",
    (doc) => {
      const accepted = structuredClone(sharedResponse(doc, "ImageJobAccepted"));
      accepted.content!["application/json"]!.schema = {
        allOf: [
          { $ref: "#/components/schemas/CreateResponse" },
          { type: "object", properties: { id: { type: "string", pattern: "^pic_" } } },
        ],
      };
      post(doc, I_B).responses["200"] = accepted as Operation["responses"][string];
    },
    "service model: the create responses of area image state different id prefixes: img_, pic_",
  ],
  [
    "an operation carries a tag",
    (doc) => delete post(doc, I_A).tags,
    `service model: ${I_A} must carry exactly one tag`,
  ],
  [
    "a create answers 200",
    (doc) => delete post(doc, I_A).responses["200"],
    `service model: ${CREATE_I_A} has no 200 response`,
  ],
  [
    "a create's 200 response has a JSON schema",
    (doc) => (post(doc, I_A).responses["200"] = { description: "Job accepted." } as Operation["responses"][string]),
    `service model: POST ${I_A}'s 200 response has no JSON schema`,
  ],
  [
    "a create has a JSON request schema",
    (doc) => delete post(doc, I_A).requestBody,
    `service model: POST ${I_A} has no JSON request schema`,
  ],
  [
    "the 401 response has a JSON schema (the error body)",
    (doc) => delete sharedResponse(doc, "Unauthorized").content,
    `service model: POST ${I_A}'s 401 response has no JSON schema`,
  ],
  [
    "the 429 response has a JSON schema",
    (doc) => delete sharedResponse(doc, "TooManyRequests").content,
    `service model: POST ${I_A}'s 429 response has no JSON schema`,
  ],
  [
    "a create answers 429",
    (doc) => delete post(doc, I_A).responses["429"],
    `service model: POST ${I_A} has no 429 response`,
  ],
  [
    "a create response states the seconds billed",
    (doc) =>
      delete ((schemas(doc).MotionCreateResponse!.allOf as JsonSchema[])[1]!.properties as Record<string, unknown>)
        .seconds,
    "no 200 response of the description has a seconds field (a create response's price)",
  ],
  [
    "the account's credits show the balance",
    (doc) => delete (schemas(doc).AccountCredits!.properties as Record<string, JsonSchema>).total_available,
    "GET /v1/account/credits's 200 response has no total_available",
  ],
];

describe("the service model refuses a description that breaks what it relies on", () => {
  it.each(CASES)("%s", (_fact, edit, message) => {
    expect(brokenBy(edit)).toThrow(new Error(message));
  });

  it("follows only local references, and names one it cannot resolve", () => {
    const doc = loadBundle();
    expect(resolvePointer<JsonSchema>(doc, "#/components/schemas/JobStatus").title).toBe("JobStatus");
    // A pointer's escapes: ~1 is a slash, ~0 a tilde.
    expect(resolvePointer(doc, `#/paths/${I_A.replaceAll("/", "~1")}/post/operationId`)).toBe(
      post(doc, I_A).operationId,
    );
    expect(() => resolvePointer(doc, "other.yaml#/components/schemas/JobStatus")).toThrow(
      new Error("only local references are resolved, got other.yaml#/components/schemas/JobStatus"),
    );
    expect(() => resolvePointer(doc, "#/components/schemas/NoSuchSchema")).toThrow(
      new Error("unresolvable reference #/components/schemas/NoSuchSchema"),
    );
    expect(() => resolvePointer(doc, "#/info/title/length")).toThrow(
      new Error("unresolvable reference #/info/title/length"),
    );
  });

  it("reads the bundle as it is (so each case above fails on its one edit)", () => {
    expect(brokenBy(() => {})).not.toThrow();
  });
});

/** The model read from a copy of the bundle changed by `edit`. */
function readAfter(edit: Edit) {
  const doc = structuredClone(loadBundle());
  edit(doc);
  return readServiceModel(doc);
}

describe("the service model reads a description that varies within what it relies on", () => {
  it("lists the create routes in the order of the paths, whatever the order of the areas' tags", () => {
    const doc = loadBundle();
    const creates = Object.keys(doc.paths).filter(
      (path) => typeof doc.paths[path]!.post?.["x-model-label"] === "string",
    );
    const model = readAfter((copy) => tags(copy).reverse());
    expect(model.areas.at(-1)?.id).toBe("image");
    expect(model.createRoutes.map((route) => route.path)).toEqual(creates);
  });

  it("reads a bundle file once, and answers each later call with that model", () => {
    expect(loadServiceModel()).toBe(loadServiceModel());
  });

  it("takes only an area's GET on /v1/<segment>/{id} for its poll, not its other routes", () => {
    const model = readAfter((doc) => {
      const poll = doc.paths["/v1/images/{id}"]!.get!;
      // A GET below a job, a listing GET and a POST on a job, each tagged with the area.
      doc.paths["/v1/images/{id}/files"] = { get: { ...structuredClone(poll), operationId: "listImageJobFiles" } };
      doc.paths["/v1/images"] = { get: { ...structuredClone(poll), operationId: "listImageJobs", parameters: [] } };
      doc.paths["/v1/images/{id}"]!.post = { ...structuredClone(poll), operationId: "cancelImageJob" };
    });
    expect(model.areas.find((area) => area.id === "image")?.poll.path).toBe("/v1/images/{id}");
    const kinds = Object.fromEntries(model.operations.map((operation) => [operation.operationId, operation.kind]));
    expect([kinds.getImageJob, kinds.listImageJobFiles, kinds.listImageJobs, kinds.cancelImageJob]).toEqual([
      "poll",
      "other",
      "other",
      "other",
    ]);
  });

  it("gives an area no result fields where its poll schema's success requires none", () => {
    const model = readAfter((doc) => (schemas(doc).VideoJob!.then = { properties: { video_url: { type: "string" } } }));
    expect(model.areas.find((area) => area.id === "video")?.resultFields).toEqual([]);
  });

  it("lists an operation's query parameters, not its path parameters", () => {
    const model = readServiceModel(structuredClone(loadBundle()));
    const query = (path: string) => model.operations.find((operation) => operation.path === path)?.queryParameters;
    expect([query("/v1/images/{id}"), query("/v1/models")]).toEqual([[], ["type"]]);
  });

  it("reads the invalid-request type and code from the one 400 example with both, past others", () => {
    const model = readAfter((doc) => {
      const examples = badRequestExamples(doc);
      examples.typeOnly = { value: { error: { type: "api_error", message: "No code." } } };
      examples.codeOnly = { value: { error: { code: "internal", message: "No type." } } };
      examples.nullError = { value: { error: null } };
    });
    expect(model.errors.invalidRequest).toEqual({
      status: 400,
      type: "invalid_request_error",
      code: "model_not_available",
    });
  });

  it("takes the moderation block's message field as its required field besides the reason, in either order", () => {
    const model = readAfter((doc) => (schemas(doc).ModerationBlock!.required = ["restriction_reason", "error"]));
    expect([model.errors.moderation.messageField, model.errors.moderation.reasonField]).toEqual([
      "error",
      "restriction_reason",
    ]);
  });

  it("gives the moderation reasons no descriptions where the description has none", () => {
    const model = readAfter((doc) => {
      delete schemas(doc).RestrictionReason!.description;
      delete schemas(doc).RestrictionReason!["x-enumDescriptions"];
    });
    expect([model.errors.moderation.description, model.errors.moderation.reasonDescriptions]).toEqual(["", {}]);
    expect(model.errors.moderation.reasons).toHaveLength(5);
  });

  it("states an operation's success status only where it lists one and does not mark it not shown", () => {
    const model = readAfter((doc) => {
      const upload = doc.paths["/v1/uploads"]!.post!;
      delete upload["x-not-shown"];
      upload.responses["201"] = upload.responses["200"]!;
      const post = doc.paths["/v1/posts"]!.post!;
      delete post["x-not-shown"];
    });
    const status = (operationId: string) =>
      model.operations.find((operation) => operation.operationId === operationId)?.successStatus;
    expect([status("createUpload"), status("createPost")]).toEqual([null, 200]);
  });
});
