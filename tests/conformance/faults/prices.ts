/**
 * Faults of prices: a rate, a per-unit charge, a surcharge or a free input charged otherwise than
 * the price table says; and, generated per model price rule, a model charged at an old rate.
 */
import { quoteRoute, type Quote } from "../../../runtime/costs/quote.ts";
import { durationIn } from "../../../sandbox/markers.ts";
import type { Call } from "../../../behaviour/rules.ts";
import type { ServiceState } from "../../../behaviour/state.ts";
import { CHECKS } from "../../../conformance/checks/index.ts";
import { rulesOf } from "../../../conformance/rules.ts";
import {
  areaOf,
  CATALOGUE,
  CREDITS_AREA,
  family,
  MODEL,
  named,
  operationAt,
  rulesMatching,
  wrap,
  type CheckName,
  type Fault,
} from "./support.ts";

/** The sandbox's price rule, with the quote of the creates on `path` that `applies` picks changed by `change`. */
const repriced = (
  path: string,
  applies: (body: Record<string, unknown>) => boolean,
  change: (quote: Quote, call: Call, state: ServiceState) => number,
): Fault["rules"] =>
  wrap("price", (original) => (call, state) => {
    const reply = original(call, state);
    const body = (call.body ?? {}) as Record<string, unknown>;
    if (!reply && call.op.path === path && call.quote?.credits != null && applies(body))
      call.quote = { ...call.quote, credits: change(call.quote, call, state) };
    return reply;
  });

/** The quote's credits with its line `label` billed `quantity` units instead. */
const rebilled = (quote: Quote, label: string, quantity: number): number =>
  quote.breakdown.reduce((sum, line) => sum + (line.label === label ? line.rate * quantity : line.credits), 0);

/** The seconds the sandbox measures of a body's `field` (its URL's `#duration=`). */
const measured = (body: Record<string, unknown>, field: string): number => durationIn(String(body[field])) ?? 0;

/** The quote's credits without its line `label`. */
const without = (quote: Quote, label: string): number =>
  quote.breakdown.filter((line) => line.label !== label).reduce((sum, line) => sum + line.credits, 0);

export const PRICE_FAULTS = {
  "i-a-tier-at-another-price": {
    breaks: ["images.i-a.price", "service.standard-prices"],
    bug: "I-A's 2K images are charged at the 1.5K rate (a row of the price table copied wrong)",
    rules: repriced(
      "/v1/images/i-a",
      (body) => body.size === "2K",
      (_quote, call, state) =>
        quoteRoute(state.priceTables, call.op.path, { ...(call.body as object), size: "1.5K" }).credits ?? 0,
    ),
  },
  "billed-for-one-image": {
    breaks: ["images.billed-per-image"],
    bug: "an image create is charged for one image whatever num_images asks",
    rules: repriced(
      "/v1/images/i-e",
      (body) => Number(body.num_images ?? 1) > 1,
      (quote) => quote.breakdown.reduce((sum, line) => sum + line.rate, 0),
    ),
  },
  "i-b-input-image-charged": {
    breaks: ["images.i-b.input-image-free"],
    bug: "I-B charges the input image of an edit as one more output image",
    rules: repriced(
      "/v1/images/i-b",
      (body) => body.image !== undefined,
      (quote) => (quote.credits ?? 0) + (quote.breakdown[0]?.rate ?? 0),
    ),
  },
  "i-a-reference-images-charged": {
    breaks: ["images.i-a.input-image-free"],
    bug: "I-A charges each reference image of an edit as one more output image",
    rules: repriced(
      "/v1/images/i-a",
      (body) => Array.isArray(body.reference_images) && body.reference_images.length > 0,
      (quote, call) =>
        (quote.credits ?? 0) +
        (quote.breakdown[0]?.rate ?? 0) * (call.body as { reference_images: unknown[] }).reference_images.length,
    ),
  },
  "v-a-reference-image-surcharge-missing": {
    breaks: ["videos.v-a.reference-image-surcharge"],
    bug: "V-A does not add the surcharge for reference images beyond the first two",
    rules: repriced(
      "/v1/videos/v-a",
      (body) => Array.isArray(body.reference_images) && body.reference_images.length > 2,
      (quote) => without(quote, "reference images beyond the first two"),
    ),
  },
  "d-b-rigging-not-added": {
    breaks: ["3d.d-b.rigging-animation"],
    bug: "D-B's held price leaves out the rigging surcharge",
    rules: repriced(
      "/v1/3d/d-b",
      (body) => body.rigging !== undefined,
      (quote) => without(quote, "rigging"),
    ),
  },
  "v-a-input-video-free": {
    breaks: ["videos.v-a.input-video-price"],
    bug: "V-A charges only the continuation of an extended video, not the seconds of the input video",
    rules: repriced(
      "/v1/videos/v-a",
      (body) => body.video !== undefined,
      (quote) => without(quote, "input video to extend (first 15 seconds of the source)"),
    ),
  },
  "v-a-reference-videos-free": {
    breaks: ["videos.v-a.reference-video-price"],
    bug: "V-A charges nothing for the seconds of its reference video clips",
    rules: repriced(
      "/v1/videos/v-a",
      (body) => Array.isArray(body.reference_videos),
      (quote) => without(quote, "reference video clips"),
    ),
  },
  "depth-map-minimum-missing": {
    breaks: ["depth-maps.price"],
    bug: "DM-A charges a clip shorter than 5 seconds its own seconds, without the 5-second minimum",
    rules: repriced(
      "/v1/depth-maps/dm-a",
      (body) => measured(body, "video") < 5,
      (quote, call) =>
        rebilled(quote, "input video", Math.ceil(measured(call.body as Record<string, unknown>, "video"))),
    ),
  },
  "depth-map-seconds-rounded-down": {
    breaks: ["depth-maps.price"],
    bug: "DM-A rounds a clip's seconds down, not up",
    rules: repriced(
      "/v1/depth-maps/dm-a",
      (body) => measured(body, "video") > 5,
      (quote, call) =>
        rebilled(quote, "input video", Math.floor(measured(call.body as Record<string, unknown>, "video"))),
    ),
  },
  "v-c-video-edit-input-at-full-rate": {
    breaks: ["videos.v-c.video-edit-input-price"],
    bug: "V-C bills a video edit's input seconds at the full output rate, not at half of it",
    rules: repriced(
      "/v1/videos/v-c",
      (body) => body.video !== undefined,
      (quote) =>
        quote.breakdown.reduce(
          (sum, line) => sum + (line.label.startsWith("video-edit input") ? line.credits * 2 : line.credits),
          0,
        ),
    ),
  },
  "vu-a-creative-at-precise-rate": {
    breaks: ["video-upscales.price"],
    bug: "VU-A charges a creative upscale of a 1080p result at the precise rate (188 credits per second, not 267)",
    rules: repriced(
      "/v1/video-upscales/vu-a",
      (body) => body.mode === "creative",
      (quote) => quote.breakdown.reduce((sum, line) => sum + 188 * line.quantity, 0),
    ),
  },
  "a-a-minimum-missing": {
    breaks: ["audios.price"],
    bug: "A-A charges an input video shorter than 10 seconds its own seconds, without the 10-second minimum",
    rules: repriced(
      "/v1/audios/a-a",
      (body) => measured(body, "video") < 10,
      (quote, call) => rebilled(quote, "input video", measured(call.body as Record<string, unknown>, "video")),
    ),
  },
} satisfies Record<string, Fault>;

const RATES = "{model}: each rate of the price table is charged its quote";
/**
 * The checks that observe a model's price on every create of it: its rates charged, else its create
 * response's price (the held prices' surcharge check sends only the models with surcharges).
 */
const PRICE_CHECKS = [
  ["prices", RATES],
  ["create-response", "{price} with the price"],
] as const;

/** The first of PRICE_CHECKS that names `id` for results on `route`. */
function priceCheck(id: string, route: string): CheckName | undefined {
  const found = PRICE_CHECKS.find(([group, check]) =>
    rulesOf(CATALOGUE, CHECKS.find((candidate) => candidate.group === group)?.rules?.[check] ?? [], route).some(
      (rule) => rule.id === id,
    ),
  );
  return found && named(found[0], found[1], undefined, route);
}

/**
 * Per model price rule of the catalogue (`….price`, its pointer the create's x-pricing) that a check
 * observes on the model's route: the model charged at an old rate, a quarter more than its table.
 */
export const STALE_PRICES = family(
  rulesMatching(/\.price$/).flatMap((rule) => {
    const pointer = rule.openapi?.find((candidate) => candidate.endsWith("/x-pricing"));
    const operation = pointer === undefined ? undefined : operationAt(pointer);
    const caught = operation && priceCheck(rule.id, operation.route);
    if (!operation || !caught) return [];
    const label = MODEL.createRoutes.find((route) => route.path === operation.path)?.label ?? operation.path;
    return [
      [
        `stale-price:${label}`,
        {
          breaks: [rule.id],
          bug: `${label} is charged at an old rate: a quarter more than its price table`,
          // The prices check measures charges on the credits route, beside a create of exact price (an image's).
          areas:
            caught.group === "prices"
              ? [...new Set([areaOf(operation.path), "images", CREDITS_AREA])]
              : [areaOf(operation.path)],
          rules: repriced(
            operation.path,
            () => true,
            (quote) => Math.round((quote.credits ?? 0) * 1.25),
          ),
        } satisfies Fault,
        caught,
      ] as const,
    ];
  }),
);
