/**
 * The list of house rules: one line per rule, exporting lint/rules/<name>/check.ts under the
 * name Spectral reports it by (`house-<name>`). lint/spectral/house-rules.ts turns these into the
 * Spectral rules that .spectral.yaml extends.
 */
export { default as "paths" } from "./paths/check.ts";
export { default as "create-responses" } from "./create-responses/check.ts";
export { default as "too-many-requests" } from "./too-many-requests/check.ts";
export { default as "rate-limit-headers" } from "./rate-limit-headers/check.ts";
export { default as "media-fields" } from "./media-fields/check.ts";
export { default as "create-pricing" } from "./create-pricing/check.ts";
export { default as "pricing-fields" } from "./pricing-fields/check.ts";
export { default as "poll-status" } from "./poll-status/check.ts";
export { default as "descriptions" } from "./descriptions/check.ts";
export { default as "operation-conventions" } from "./operation-conventions/check.ts";
export { default as "no-discriminator" } from "./no-discriminator/check.ts";
export { default as "schemas-compile" } from "./schemas-compile/check.ts";
export { default as "extensions" } from "./extensions/check.ts";
export { default as "enum-extensions" } from "./enum-extensions/check.ts";
export { default as "limits" } from "./limits/check.ts";
export { default as "examples" } from "./examples/check.ts";
