/**
 * Creates and cost quotes on the independent server. A create is checked in this order: a model
 * retired for the account (410), the family's cooldown (429), the body against its schema and its
 * media rules (400), moderation (400), the owner's spend limit (429), the account's cap on jobs in
 * flight (429); then its job starts.
 */
import type { CreateRouteModel } from "../../../../model/types.ts";
import type { Account } from "./accounts.ts";
import type { Cooldowns } from "./cooldown.ts";
import type { JobIds } from "./ids.ts";
import type { JobStore, Outcome } from "./jobs.ts";
import { checkMedia, mediaFields, type Measured } from "./media-rules.ts";
import { standardPrice } from "./pricing.ts";
import { blocked, invalid, pausedFamily, queueFull, reply, retired, spendLimited, type Reply } from "./replies.ts";
import { MARKERS } from "./setup.ts";
import type { BodyValidator } from "./validation.ts";

type Body = Record<string, unknown>;

export interface Route extends CreateRouteModel {
  /** The poll route's path segment. */
  readonly segment: string;
  readonly schema: object;
}

export interface Generation {
  readonly validator: BodyValidator;
  readonly jobs: JobStore;
  readonly ids: JobIds;
  readonly cooldowns: Cooldowns;
  readonly moderationReasons: readonly string[];
}

const RESULT_HOST = "https://cdn.independent.invalid";

function result(route: Route, body: Body): (id: string) => Record<string, unknown> {
  const file = (id: string, extension: string) => `${RESULT_HOST}/${route.segment}/${id}.${extension}`;
  switch (route.segment) {
    case "images":
      return (id) => ({
        images: Array.from({ length: typeof body.num_images === "number" ? body.num_images : 1 }, (_, index) => ({
          url: file(`${id}-${index}`, "png"),
          position: index,
        })),
      });
    case "audios":
      return (id) => ({ audio_url: file(id, "mp3") });
    case "3d":
      return (id) => ({ model_url: file(id, "glb"), files: [{ format: "glb", url: file(id, "glb") }] });
    case "lip-sync":
      return (id) => ({ output_url: file(id, "mp4") });
    case "video-upscales":
      return (id) => ({ result: { video_url: file(id, "mp4") } });
    default:
      return (id) => ({ video_url: file(id, "mp4"), expires_in_seconds: 3600 });
  }
}

function outcomeOf(text: string): Outcome {
  if (text.includes(MARKERS.failed)) return "failed";
  if (text.includes(MARKERS.timeout)) return "timeout";
  return "succeeded";
}

const MODERATION = /\{\{indep:block:([a-z_]+)\}\}/;

/** The body checked against the route's schema and media rules, with the media measured. */
function checked(generation: Generation, route: Route, body: unknown): { measured: Measured } | { refusal: Reply } {
  const problem = generation.validator.problem("post", route.path, body);
  if (problem) return { refusal: invalid(problem) };
  const media = checkMedia(mediaFields(route.schema), body as Body);
  return "problem" in media ? { refusal: invalid(media.problem) } : media;
}

export function create(generation: Generation, route: Route, account: Account, body: unknown, now: number): Reply {
  if (account.settings.retired?.includes(route.label)) return retired(route.label);
  const pause = route.family ? generation.cooldowns.secondsLeft(account.settings.name, now) : 0;
  if (pause > 0) return pausedFamily(pause);
  const check = checked(generation, route, body);
  if ("refusal" in check) return check.refusal;
  const fields = body as Body;
  const text = JSON.stringify(fields);
  const reason = MODERATION.exec(text)?.[1];
  if (reason !== undefined)
    return blocked(generation.moderationReasons.includes(reason) ? reason : generation.moderationReasons[0]!);
  const price = standardPrice(route.path, route.segment, fields, check.measured);
  // A price per second of an input the body does not give cannot be stated in `seconds`: this server
  // takes the input as required (the specification shows no requiredness), as a real service would.
  if (route.responseFields.includes("seconds") && price.billedSeconds === undefined)
    return invalid("the price is per second of an input media this request does not give");
  const credits = account.discounted(price.credits);
  if (account.passesSpendLimit(credits)) return spendLimited();
  if (account.inFlight >= account.settings.cap) return queueFull(account.settings.cap);
  const outcome = outcomeOf(text);
  const free = route.segment === "images" && outcome === "succeeded" && account.takeFreeImage();
  const legacy = route.idField === "job_id";
  const id = legacy ? String(generation.ids.legacy()) : generation.ids.next(route.segment);
  generation.jobs.start(
    {
      id,
      segment: route.segment,
      label: route.label,
      account,
      outcome,
      price: free ? 0 : credits,
      held: route.priceHeld ? credits : 0,
      result: result(route, fields),
      onEnd: (job) =>
        route.family
          ? generation.cooldowns.record(account.settings.name, job.ended === "succeeded", Date.now())
          : undefined,
    },
    now,
  );
  const message = "Queued for generation; poll for the result.";
  if (legacy) return reply(200, { job_id: Number(id), status: "pending", message, estimated_time: "6s" });
  const priced = route.responseFields.includes("credits")
    ? { credits, ...(route.responseFields.includes("seconds") ? { seconds: price.billedSeconds } : {}) }
    : {};
  return reply(200, {
    status: "pending",
    id,
    model: `indep/${route.slug}@2026-06`,
    message,
    ...priced,
    created_at: new Date(now).toISOString(),
    poll_path: `/v1/${route.segment}/${id}`,
  });
}

/** `POST /v1/cost`: `{model: slug or label, request: the create body, seconds?: number}`. */
export function quoteCost(generation: Generation, routes: readonly Route[], account: Account, body: Body): Reply {
  const route = routes.find((candidate) => candidate.slug === body.model || candidate.label === body.model);
  if (!route) return invalid('a quote needs "model", the slug or label of a current model');
  const request = body.request ?? {};
  const check = checked(generation, route, request);
  if ("refusal" in check) return check.refusal;
  if (route.segment === "depth-maps") {
    const sizes = { small: 20, base: 30, large: 40 } as Record<string, number>;
    const size = typeof (request as Body).size === "string" ? ((request as Body).size as string) : "small";
    const perSecond = account.discounted(sizes[size] ?? sizes.small!);
    const seconds =
      typeof body.seconds === "number" ? { credits: perSecond * Math.max(5, Math.ceil(body.seconds)) } : {};
    return reply(200, {
      model: route.slug,
      credits_per_second: perSecond,
      size_pricing: sizes,
      min_seconds: 5,
      ...seconds,
    });
  }
  const price = standardPrice(route.path, route.segment, request as Body, check.measured);
  return reply(200, {
    model: route.slug,
    credits: account.discounted(price.credits),
    standard_credits: price.credits,
    ...(price.billedSeconds ? { seconds: price.billedSeconds } : {}),
  });
}
