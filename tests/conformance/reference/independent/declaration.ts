import { TARGET_DEFAULTS, type TargetConfig } from "../../../../conformance/config.ts";
import {
  CROWD_KEYS,
  DAILY_FREE_IMAGES,
  DISCOUNT_PERCENT,
  INDEPENDENT_CAP,
  KEYS,
  MARKERS,
  HOSTED_CLIPS,
  OTHER_CAP,
  RETIRED_LABEL,
  SPEND_LIMIT_CREDITS,
} from "./setup.ts";
import { OWN_SUPPLIED_RATES } from "./pricing.ts";

/**
 * The independent server's declaration, as its team would write it (its own keys, markers, cap,
 * retired model and spend-limit account, an Ultra account's free pool and a discounted account;
 * uploads in its own shape).
 */
export const INDEPENDENT_DECLARATION: TargetConfig = {
  ...TARGET_DEFAULTS,
  apiKey: KEYS.main,
  concurrency: INDEPENDENT_CAP,
  poll: { intervalMs: 150, timeoutSeconds: 20, stablePolls: 1 },
  parallelRequests: 8,
  timeoutSeconds: 240,
  standardPrices: true,
  outcomeMarkers: { ...MARKERS },
  freePlanKey: KEYS.free,
  retiredModel: { model: RETIRED_LABEL, apiKey: KEYS.legacy },
  cooldownApiKey: KEYS.cooldown,
  spendLimit: { apiKey: KEYS.spendLimit, credits: SPEND_LIMIT_CREDITS },
  uploadRequest: { content: "data:text/plain;base64,aGVsbG8=", filename: "hello.txt" },
  rateLimitBurst: true,
  sourceIpBurst: { apiKeys: CROWD_KEYS },
  planDiscounts: {
    apiKey: KEYS.discount,
    models: { "I-A": DISCOUNT_PERCENT, "V-A": DISCOUNT_PERCENT, "DM-A": DISCOUNT_PERCENT },
  },
  freePool: { apiKey: KEYS.ultra, generations: DAILY_FREE_IMAGES, models: ["I-A", "I-C"] },
  costRequest: { model: "{model}", request: "{request}" },
  otherAccount: { apiKey: KEYS.other, secondKey: KEYS.otherSecond, concurrency: OTHER_CAP },
  mediaInputs: Object.entries(HOSTED_CLIPS).map(([url, seconds]) => ({ kind: "video", url, seconds })),
  rates: OWN_SUPPLIED_RATES,
  // Its upscale create answers the job's id in `id`, where the description shows no create response.
  jobIdFields: { "VU-A": "id" },
  // Its upscales yield a 1080p result whatever the input (its choice; the description shows no other size's rates).
  upscaleRequests: [
    {
      body: { video: "https://cdn.independent.test/clips/four-seconds.mp4", upscale_factor: 2, mode: "creative" },
      mode: "creative",
      seconds: 4,
    },
  ],
};
