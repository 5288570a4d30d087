/**
 * Faults of request validation that are near misses: a server that validates each body, but one
 * plausible mistake away from the description (a sibling model's values, a bound off by one, enums
 * without case, one item too many, null for a required field, numbers as strings, excluded fields
 * together, media inlined where only URLs are taken). The exact negative cases (request-validation)
 * break each constraint far from its bound; these are for the generated requests' near misses.
 */
import type { JsonSchema } from "../../../model/document.ts";
import { createSchemaRegistry } from "../../../model/schema-registry.ts";
import type { ServiceModel } from "../../../model/service-model.ts";
import type { RequestSchema, ServiceState } from "../../../behaviour/state.ts";
import { without, wrap, type Fault } from "./support.ts";

type Properties = Record<string, JsonSchema>;

/**
 * How a fault reads a request schema: the whole schema first, then each property (given the same
 * field of the area's other models), and the cross-field rules; only `operationId`'s where given.
 */
export interface Misreading {
  /** The one operation misread; every operation where absent. */
  readonly operationId?: string;
  readonly schema?: (schema: JsonSchema) => JsonSchema;
  readonly property?: (
    property: JsonSchema,
    field: string,
    siblings: readonly JsonSchema[],
    required: boolean,
  ) => JsonSchema;
  /** A cross-field rule as read, or null where it is not read at all. */
  readonly allOf?: (rule: JsonSchema) => JsonSchema | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The request schemas as `misreading` reads them, compiled once per model. */
function misreadSchemas(
  model: ServiceModel,
  honest: ReadonlyMap<string, RequestSchema>,
  misreading: Misreading,
): ReadonlyMap<string, RequestSchema> {
  const registry = createSchemaRegistry(model.doc);
  const propertiesOf = (schema: JsonSchema | undefined): Properties =>
    isObject(schema?.properties) ? (schema.properties as Properties) : {};
  const areaOf = new Map(model.createRoutes.map((route) => [route.operationId, route.areaId]));
  const misread = new Map<string, RequestSchema>();
  for (const [operationId, honestly] of honest) {
    if (misreading.operationId !== undefined && misreading.operationId !== operationId) {
      misread.set(operationId, honestly);
      continue;
    }
    const request = { ...honestly, schema: misreading.schema?.(honestly.schema) ?? honestly.schema };
    const siblings = model.createRoutes
      .filter((route) => route.areaId === areaOf.get(operationId) && route.operationId !== operationId)
      .map((route) => propertiesOf(honest.get(route.operationId)?.schema));
    const required = Array.isArray(request.schema.required) ? (request.schema.required as string[]) : [];
    const properties = Object.fromEntries(
      Object.entries(propertiesOf(request.schema)).map(([field, property]) => [
        field,
        misreading.property?.(
          property,
          field,
          siblings.flatMap((other) => (other[field] ? [other[field]] : [])),
          required.includes(field),
        ) ?? property,
      ]),
    );
    const { allOf, ...rest } = request.schema;
    const read = misreading.allOf ?? ((rule: JsonSchema) => rule);
    const rules = Array.isArray(allOf) ? (allOf as JsonSchema[]).flatMap((rule) => read(rule) ?? []) : [];
    const schema = { ...rest, properties, ...(rules.length ? { allOf: rules } : {}) };
    misread.set(operationId, { ...request, schema, validate: registry.compile(schema) });
  }
  return misread;
}

/** The request-body rule validating against the schemas as `misreading` reads them. */
export function validatingAs(misreading: Misreading): NonNullable<Fault["rules"]> {
  return (rules) => {
    const compiled = new WeakMap<ServiceModel, ReadonlyMap<string, RequestSchema>>();
    return wrap("request-body", (original) => (call, state) => {
      let requestSchemas = compiled.get(state.model);
      if (!requestSchemas)
        compiled.set(state.model, (requestSchemas = misreadSchemas(state.model, state.requestSchemas, misreading)));
      return original(call, Object.assign(Object.create(state) as ServiceState, { requestSchemas }));
    })(rules);
  };
}

const enumOf = (schema: JsonSchema): unknown[] => (Array.isArray(schema.enum) ? schema.enum : []);
const numberAt = (schema: JsonSchema, key: string): number | undefined =>
  typeof schema[key] === "number" ? (schema[key] as number) : undefined;

/** A property with `key` moved by `delta` where it has one. */
const shifted =
  (key: string, delta: number) =>
  (property: JsonSchema): JsonSchema => {
    const bound = numberAt(property, key);
    return bound === undefined ? property : { ...property, [key]: bound + delta };
  };

/** A string `value` of a field of `type` read as that type, as a form parser would; otherwise unchanged. */
function coerced(value: unknown, type: unknown): unknown {
  if (typeof value !== "string") return value;
  if ((type === "integer" || type === "number") && value.trim() !== "" && Number.isFinite(Number(value)))
    return Number(value);
  if (type === "boolean" && (value === "true" || value === "false")) return value === "true";
  return value;
}

/** A media field's schema without its reference to MediaUrl (on its items, for a list): any string is taken. */
function withoutMediaUrl(property: JsonSchema): JsonSchema {
  const plain = (schema: JsonSchema): JsonSchema => {
    const { allOf: _allOf, ...rest } = schema;
    return JSON.stringify(schema.allOf ?? []).includes("/MediaUrl") ? rest : schema;
  };
  return isObject(property.items) ? { ...property, items: plain(property.items as JsonSchema) } : plain(property);
}

/** A cross-field rule that forbids fields together: `if` one is given, `then` `not` the other. */
const isExclusion = (rule: JsonSchema): boolean => isObject(rule.then) && "not" in rule.then;
/** A cross-field rule without the fields its value needs (`then` `required`, or one of them): only its limits are left, if any. */
function withoutNeeds(rule: JsonSchema): JsonSchema | null {
  if (!isObject(rule.then)) return rule;
  const { required: _required, anyOf: _anyOf, ...limits } = rule.then;
  return Object.keys(limits).length ? { ...rule, then: limits } : null;
}

export const VALIDATION_FAULTS = {
  "enum-union-of-area": {
    breaks: ["endpoints.enums-ranges-exact"],
    bug: "each enum field is checked against the values any model of its area allows (the union of the area's enums), not this model's",
    rules: validatingAs({
      property: (property, _field, siblings) =>
        enumOf(property).length
          ? { ...property, enum: [...new Set([...enumOf(property), ...siblings.flatMap(enumOf)])] }
          : property,
    }),
  },
  "maximum-one-past": {
    breaks: ["endpoints.enums-ranges-exact"],
    bug: "each maximum is compared as if exclusive of the next integer (one past it is taken)",
    rules: validatingAs({ property: shifted("maximum", 1) }),
  },
  "minimum-one-short": {
    breaks: ["endpoints.enums-ranges-exact"],
    bug: "each minimum is compared as if it were one lower (one below it is taken)",
    rules: validatingAs({ property: shifted("minimum", -1) }),
  },
  "enum-case-insensitive": {
    breaks: ["endpoints.enums-ranges-exact"],
    bug: "enum values are compared without case (1k for 1K)",
    rules: validatingAs({
      property: (property) =>
        enumOf(property).length
          ? {
              ...property,
              enum: [
                ...new Set(
                  enumOf(property).flatMap((value) =>
                    typeof value === "string" ? [value, value.toLowerCase(), value.toUpperCase()] : [value],
                  ),
                ),
              ],
            }
          : property,
    }),
  },
  "max-items-one-past": {
    breaks: ["endpoints.enums-ranges-exact"],
    bug: "a list may hold one item more than its maxItems",
    rules: validatingAs({ property: shifted("maxItems", 1) }),
  },
  "required-null-accepted": {
    breaks: ["endpoints.enums-ranges-exact"],
    bug: "a required field sent as null counts as given",
    rules: validatingAs({
      property: (property, _field, _siblings, required) =>
        required ? { anyOf: [property, { type: "null" }] } : property,
    }),
  },
  "numbers-as-strings": {
    breaks: ["endpoints.enums-ranges-exact"],
    bug: 'numbers and booleans sent as strings are taken ("2" for 2), as a form parser or a validator that coerces types would',
    rules: wrap("request-body", (original) => (call, state) => {
      const refused = original(call, state);
      const request = state.requestSchemas.get(call.op.operationId);
      const properties = request?.schema.properties;
      if (!refused || !request || !isObject(call.body) || !isObject(properties)) return refused;
      const body = Object.fromEntries(
        Object.entries(call.body).map(([field, value]) => [
          field,
          coerced(value, (properties as Properties)[field]?.type),
        ]),
      );
      if (!request.validate(body)) return refused;
      call.body = body;
      return undefined;
    }),
  },
  "exclusive-fields-accepted": {
    breaks: ["endpoints.enums-ranges-exact"],
    bug: "fields the description says cannot be combined are accepted together (the cross-field exclusions are not checked)",
    rules: validatingAs({ allOf: (rule) => (isExclusion(rule) ? null : rule) }),
  },
  "mode-needs-ignored": {
    breaks: ["endpoints.enums-ranges-exact"],
    bug: "a value the description allows only in one mode is accepted without that mode's fields (`2k` without `video`)",
    rules: validatingAs({ allOf: withoutNeeds }),
  },
  "media-forms-unchecked": {
    breaks: ["service.input-media-forms", "service.video-audio-by-url"],
    bug: "media fields are checked against their type only (a schema without MediaUrl, no x-media forms): a video or audio inlined (data URI, raw base64) where only URLs are taken is accepted",
    rules: (rules) => validatingAs({ property: withoutMediaUrl })(without("media-forms")(rules)),
  },
  "upscale-input-length-unchecked": {
    breaks: ["video-upscales.input-limits"],
    bug: "the upscale route never measures its input's length, so a video past 20 s is upscaled",
    // The duration rule and the quote both read the URL's #duration: the input is taken as of no stated length.
    rules: wrap("media-durations", (original) => (call, state) => {
      const body = call.body as Record<string, unknown> | undefined;
      if (call.op.path === "/v1/video-upscales/vu-a" && typeof body?.video === "string")
        call.body = { ...body, video: body.video.replace(/#.*$/, "") };
      return original(call, state);
    }),
  },
  "input-plus-output-length-unchecked": {
    breaks: ["videos.v-b.length-limits"],
    bug: "V-B checks its reference videos and its output length each on its own: 3 s of video with a 28-s output (31 s together) is made",
    // The duration rule without x-media's maxTotalWithField: each field's own limits still hold.
    rules: wrap("media-durations", (original) => (call, state) => {
      const reply = original(call, state);
      return reply && JSON.stringify(reply.body).includes("plus body.length_seconds") ? undefined : reply;
    }),
  },
} satisfies Record<string, Fault>;
