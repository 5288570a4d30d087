/**
 * Faults of create responses and of the create routes' conventions: a field missing or of another
 * type, another status or media type, routes not under /v1 or not by slug, I-G's legacy shape lost,
 * and (generated from the catalogue's `<area>.response` rules) one area's responses in an envelope.
 */
import type { Call } from "../../../behaviour/rules.ts";
import type { Answer } from "../../../sandbox/server.ts";
import type { ServiceState } from "../../../behaviour/state.ts";
import {
  areaOf,
  bodyOf,
  family,
  isCreate,
  MODEL,
  named,
  notFound,
  omitted,
  operationAt,
  replaced,
  rulesMatching,
  when,
  type Body,
  type CheckName,
  type Fault,
} from "./support.ts";

const ACCEPTED = "valid request {name} accepted";
const accepted = (route: string): CheckName => named("lifecycle", ACCEPTED, undefined, route);

/** A create's 200 on a route `applies` picks, its body changed by `change`. */
const createBody = (
  change: (body: Body, call: Call, state: ServiceState) => Body,
  applies: (call: Call) => boolean = () => true,
) =>
  when(
    (answer, call) => isCreate(call) && answer.status === 200 && applies(call),
    (answer, call, state) => ({ ...answer, body: change(bodyOf(answer), call!, state) }),
  );

/** The create's 200 otherwise changed. */
const createAnswer = (change: (answer: Answer, call: Call, state: ServiceState) => Answer) =>
  when(
    (answer, call) => isCreate(call) && answer.status === 200,
    (answer, call, state) => change(answer, call!, state),
  );

/** The route whose create response is the legacy one (an integer job id): I-G. */
const legacy = MODEL.createRoutes.find((route) => route.idType === "integer");
if (!legacy) throw new Error("the description has no create route with an integer job id (I-G's legacy response)");
const LEGACY_ROUTE = `POST ${legacy.path}`;
const isLegacy = (call: Call): boolean => call.op.path === legacy.path;
/** A create route with the common create response, which the faults of all creates are caught on. */
const common = MODEL.createRoutes.find((route) => route.idField === "id" && route.responseFields.includes("model"));
if (!common) throw new Error("the description has no create route with the common create response (id, model)");
const COMMON_ROUTE = `POST ${common.path}`;

export const CREATE_FAULTS = {
  "create-response-without-message": {
    breaks: ["resources.create-response.message"],
    bug: "create responses lack message (the handler builds the body without it)",
    areas: ["images"],
    answer: createBody((body) => omitted(body, ["message"])),
  },
  "create-response-without-model": {
    breaks: ["resources.create-response.model"],
    bug: "create responses lack model",
    areas: ["images"],
    answer: createBody((body) => omitted(body, ["model"])),
  },
  "create-id-as-job-id": {
    breaks: ["resources.create-response.id"],
    bug: "create responses name the job id job_id (I-G's legacy field) instead of id",
    areas: ["images"],
    answer: createBody(
      (body) => ("id" in body ? { ...omitted(body, ["id"]), job_id: body.id } : body),
      (call) => !isLegacy(call),
    ),
  },
  "create-returns-finished-job": {
    breaks: ["service.create-returns-id-no-media"],
    bug: "a create answers the finished job, media URLs and all, instead of its id (generation run within the request)",
    areas: ["images"],
    answer: createBody((body, _call, state) => {
      const job = state.jobs.get(String(body.id ?? body.job_id));
      if (!job) return body;
      const area = state.areas.get(job.route.areaId)!;
      return state.responses.job(area, job, state.model.jobStatus.success).body as Body;
    }),
  },
  "create-answered-201": {
    breaks: ["endpoints.create-conventions"],
    bug: "an accepted create answers 201 Created, not 200",
    areas: ["images"],
    answer: createAnswer((answer) => ({ ...answer, status: 201 })),
  },
  "create-response-as-text": {
    breaks: ["conventions.bodies-json"],
    bug: "create responses are sent as text/plain (the framework's default), not application/json",
    areas: ["images"],
    answer: createAnswer((answer) => ({ ...answer, headers: { ...answer.headers, "content-type": "text/plain" } })),
  },
  "creates-not-under-v1": {
    breaks: ["conventions.routes-start-v1", "versioning.v1-prefix"],
    bug: "the create routes are mounted without the /v1 prefix, so POST /v1/images/{slug} answers 404",
    areas: ["images"],
    answer: when(
      (_answer, call) => isCreate(call),
      (answer, call, state) => replaced(answer, notFound(state, call!.op.path)),
    ),
  },
  "model-from-body-not-slug": {
    breaks: ["conventions.model-routes-end-in-slug"],
    bug: "creates ignore the route's model slug and read the model from body.model, refusing a body without it",
    areas: ["images"],
    answer: when(
      (_answer, call) => isCreate(call),
      (answer, _call, state) =>
        replaced(answer, state.responses.invalidRequest("body.model: is required (the model to generate with)")),
    ),
  },
  "legacy-job-id-as-string": {
    breaks: ["resources.create-response.legacy-i-g"],
    bug: `${legacy.label}'s legacy create response gives job_id as a string, not an integer`,
    areas: [areaOf(legacy.path)],
    answer: createBody((body) => ({ ...body, job_id: String(body.job_id) }), isLegacy),
  },
  "legacy-route-common-response": {
    breaks: ["images.i-g.legacy-response", "resources.create-response.legacy-i-g"],
    bug: `${legacy.label} answers the common create response (id, message, model, status) instead of its legacy one`,
    areas: [areaOf(legacy.path)],
    answer: createBody(
      (body) => ({ id: String(body.job_id), message: body.message, model: legacy.slug, status: body.status }),
      isLegacy,
    ),
  },
} satisfies Record<string, Fault>;

export const CREATE_CATCHES: Record<keyof typeof CREATE_FAULTS, CheckName> = {
  "create-response-without-message": accepted(COMMON_ROUTE),
  "create-response-without-model": accepted(COMMON_ROUTE),
  "create-id-as-job-id": accepted(COMMON_ROUTE),
  "create-returns-finished-job": accepted(COMMON_ROUTE),
  "create-answered-201": accepted(COMMON_ROUTE),
  "create-response-as-text": accepted(COMMON_ROUTE),
  "creates-not-under-v1": accepted(COMMON_ROUTE),
  "model-from-body-not-slug": accepted(COMMON_ROUTE),
  "legacy-job-id-as-string": accepted(LEGACY_ROUTE),
  "legacy-route-common-response": accepted(LEGACY_ROUTE),
};

/**
 * Per `<area>.response` rule of the catalogue, one fault: that area's create routes (the rule's
 * pointers) wrap their create response in a `data` envelope, as a handler copied from another API would.
 */
export const ENVELOPED_RESPONSES = family(
  rulesMatching(/^[a-z0-9-]+\.response$/).map((rule) => {
    const routes = (rule.openapi ?? []).flatMap((pointer) => operationAt(pointer) ?? []);
    if (routes.length === 0) throw new Error(`${rule.id}: no pointer names a create route`);
    const paths = new Set(routes.map((route) => route.path));
    const area = rule.id.replace(/\.response$/, "");
    return [
      `create-response-in-envelope:${area}`,
      {
        breaks: [rule.id],
        bug: `the ${area} create routes answer their create response inside a data envelope ({ data: { id, … } })`,
        areas: [areaOf(routes[0]!.path)],
        answer: createBody(
          (body) => ({ data: body }),
          (call) => paths.has(call.op.path),
        ),
      },
      accepted(routes[0]!.route),
    ] as const;
  }),
);
