/** The service-wide limits (info's x-limits) and the headers that report them. */
import { deref, operations, type OpenApiDocument, type ResponseObject } from "./document.ts";
import { fail } from "./schema-parts.ts";
import type { LimitsModel, ServiceModel, TooManyCondition } from "./types.ts";

interface XLimits {
  requests: LimitsModel["requests"] & { variant: string };
  uploads: LimitsModel["uploads"] & { variant: string };
  concurrency: LimitsModel["concurrency"] & { variant: string };
  spendLimit: LimitsModel["spendLimit"] & { variant: string };
  cooldown: LimitsModel["cooldown"] & { variant: string };
  stockSearch: { maxResultsPerPage: number };
}

/** Which 429 condition each x-limits entry describes. */
const CONDITION_OF: Record<Exclude<keyof XLimits, "stockSearch">, TooManyCondition> = {
  requests: "rate-limited",
  uploads: "rate-limited",
  concurrency: "queue-full",
  spendLimit: "spend-limit",
  cooldown: "cooldown",
};

export function readLimits(doc: OpenApiDocument): {
  limits: LimitsModel;
  variants: ReadonlyMap<string, TooManyCondition>;
} {
  const x = (doc.info["x-limits"] as XLimits | undefined) ?? fail("info has no x-limits");
  const variants = new Map<string, TooManyCondition>();
  for (const [entry, condition] of Object.entries(CONDITION_OF) as Array<
    [keyof typeof CONDITION_OF, TooManyCondition]
  >) {
    const variant = x[entry].variant;
    if (!doc.components.schemas?.[variant])
      fail(`x-limits.${entry}.variant names ${variant}, which components/schemas lacks`);
    const known = variants.get(variant);
    if (known !== undefined && known !== condition)
      fail(`x-limits names ${variant} for both ${known} and ${condition}`);
    variants.set(variant, condition);
  }
  if (!operations(doc).some(({ operation }) => operation.operationId === x.uploads.operationId)) {
    fail(`x-limits.uploads.operationId names ${x.uploads.operationId}, which no operation has`);
  }
  const { perKey, perSourceIp, windowSeconds, window, rejectedRequestsCount } = x.requests;
  const { perAccount, windowSeconds: uploadWindow, window: uploadKind, operationId } = x.uploads;
  const { family, consecutiveFailures, withinSeconds, pauseSeconds, growthSeconds } = x.cooldown;
  return {
    limits: {
      requests: { perKey, perSourceIp, windowSeconds, window, rejectedRequestsCount },
      uploads: { perAccount, windowSeconds: uploadWindow, window: uploadKind, operationId },
      concurrency: { maxOnUltra: x.concurrency.maxOnUltra, pollingCounts: x.concurrency.pollingCounts },
      spendLimit: { period: x.spendLimit.period },
      cooldown: { family, consecutiveFailures, withinSeconds, pauseSeconds, growthSeconds },
      stockResultsPerPage: x.stockSearch.maxResultsPerPage,
    },
    variants,
  };
}

/** The header components that report the window, by the role their component name gives them. */
const HEADER_ROLES = {
  XRateLimitLimit: "limit",
  XRateLimitRemaining: "remaining",
  XRateLimitReset: "reset",
  RetryAfter: "retryAfter",
} as const;

/** Header names as the shared 429 response (which carries all four) spells them. */
export function readRateLimitHeaders(
  doc: OpenApiDocument,
): Pick<ServiceModel, "rateLimitHeaders" | "retryAfterHeader"> {
  const tooMany = operations(doc)
    .map(({ operation }) => operation.responses["429"])
    .find((candidate) => candidate !== undefined);
  const headers = deref<ResponseObject>(doc, tooMany ?? fail("no operation answers 429")).headers ?? {};
  const names: Partial<Record<(typeof HEADER_ROLES)[keyof typeof HEADER_ROLES], string>> = {};
  for (const [name, header] of Object.entries(headers)) {
    const component = /^#\/components\/headers\/(.+)$/.exec(header.$ref ?? "")?.[1] as
      | keyof typeof HEADER_ROLES
      | undefined;
    const role = component ? HEADER_ROLES[component] : undefined;
    if (role) names[role] = name;
  }
  const need = (role: keyof typeof names): string => names[role] ?? fail(`the 429 response has no header for ${role}`);
  return {
    rateLimitHeaders: { limit: need("limit"), remaining: need("remaining"), reset: need("reset") },
    retryAfterHeader: need("retryAfter"),
  };
}
