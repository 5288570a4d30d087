import type { Check } from "../finding.ts";
import { checkCreatePricing } from "./create-pricing.ts";
import { checkCreateResponses } from "./create-responses.ts";
import { checkDescriptions } from "./descriptions.ts";
import { checkEnumExtensions } from "./enum-extensions.ts";
import { checkExtensions } from "./extensions.ts";
import { checkMediaFields } from "./media-fields.ts";
import { checkOperationConventions } from "./operation-conventions.ts";
import { checkPaths } from "./paths.ts";
import { checkPollStatus } from "./poll-status.ts";
import { checkPricingFields } from "./pricing-fields.ts";
import { checkRateLimitHeaders } from "./rate-limit-headers.ts";
import { checkNoDiscriminator, checkSchemasCompile } from "./schemas-compile.ts";
import { checkTooManyRequests } from "./too-many-requests.ts";

/** The house checks by the name .spectral.yaml selects them with (`functionOptions.check`). */
export const CHECKS = {
  paths: checkPaths,
  "create-responses": checkCreateResponses,
  "too-many-requests": checkTooManyRequests,
  "rate-limit-headers": checkRateLimitHeaders,
  "media-fields": checkMediaFields,
  "create-pricing": checkCreatePricing,
  "pricing-fields": checkPricingFields,
  "poll-status": checkPollStatus,
  descriptions: checkDescriptions,
  "operation-conventions": checkOperationConventions,
  "no-discriminator": checkNoDiscriminator,
  "schemas-compile": checkSchemasCompile,
  extensions: checkExtensions,
  "enum-extensions": checkEnumExtensions,
} satisfies Record<string, Check>;

export type CheckName = keyof typeof CHECKS;
