/**
 * Names of the shared components the authoring conventions (openapi/README.md) require, as they
 * are named in the bundle (`#/components/<kind>/<name>`).
 */

/** The shared response of each error status a create operation answers. */
export const CREATE_ERROR_RESPONSES: Readonly<Record<string, string>> = {
  "400": "BadRequest",
  "401": "Unauthorized",
  "403": "Forbidden",
  "410": "ModelRetired",
  "429": "TooManyRequests",
};

/** Suffix of the area's shared 200 of a create operation: `<Area>JobAccepted` (`LegacyImageJobAccepted` for I-G). */
export const JOB_ACCEPTED_SUFFIX = "JobAccepted";

/** The two error bodies every 4xx body is built from: the error body and the moderation-block body. */
export const ERROR_BODY_SCHEMAS: readonly string[] = ["ErrorBody", "ModerationBlock"];

/** Prefix of the rate-limit headers every response declares (the OWASP rate-limit convention). */
export const RATE_LIMIT_HEADER_PREFIX = "X-RateLimit-";

/**
 * The schema of a media input taken by URL only (public or uploaded-file URL): what a field whose
 * `x-media.forms` leaves out the inline forms refers to, so that any validator refuses inline media.
 */
export const MEDIA_URL_SCHEMA = "MediaUrl";
