/**
 * The changelog for readers (changes/domain-changelog.ts) from small fact objects: each entry's
 * topic, subject and wording, prices with their quantities and conditions, limits and polling with
 * their units, the Free plan, and not-shown markers moving either way.
 */
import { describe, expect, it } from "vitest";
import { type Carried, type ChangelogEntry, domainChangelog } from "../../changes/domain-changelog.ts";
import type { DomainFacts } from "../../changes/domain-facts.ts";
import type { PricingComponent, PricingExtension, RoutePricing } from "../../runtime/costs/pricing.ts";
import { routePricing } from "../support/route-pricing.ts";

/** Facts with nothing stated but the version; limits and polling are plain objects here, as the changelog flattens any. */
const facts = (over: Record<string, unknown> = {}): DomainFacts => ({
  version: "1",
  models: [],
  prices: {},
  limits: {} as DomainFacts["limits"],
  polling: {},
  freePlan: [],
  notShown: [],
  ...over,
});

/** A route's price table: only `method`, `model`, `pricing` and `notShown` matter to the changelog. */
const route = routePricing;

const onSuccess = (...components: PricingComponent[]): PricingExtension => ({ charged: "on-success", components });

const everything: Carried = () => true;

function entries(before: DomainFacts, after: DomainFacts, carried: Carried = everything): ChangelogEntry[] {
  return domainChangelog(before, after, carried);
}

const lines = (before: DomainFacts, after: DomainFacts): string[] => entries(before, after).map((entry) => entry.line);

describe("version and models", () => {
  it("a new interface version is one entry about the version", () => {
    expect(entries(facts({ version: "2026-01-01" }), facts({ version: "2026-02-01" }))).toEqual([
      { topic: "version", subject: "version", line: "Interface version 2026-01-01 → 2026-02-01." },
    ]);
    expect(entries(facts({ version: "2026-01-01" }), facts({ version: "2026-01-01" }))).toEqual([]);
  });

  it("a model whose label now creates on another route has moved", () => {
    const at = (path: string) => facts({ models: [{ label: "I-A", route: `POST ${path}` }] });
    expect(entries(at("/v1/images/i-a"), at("/v1/images/i-a2"))).toEqual([
      { topic: "models", subject: "I-A", line: "Model I-A moved from POST /v1/images/i-a to POST /v1/images/i-a2." },
    ]);
  });

  // A new model's line carries its price summary: each rate with its quantity, then the forms without a figure.
  it.each<[string, RoutePricing | undefined, string]>([
    ["no price table at all", undefined, "price not shown"],
    ["no x-pricing", route(null), "price not shown"],
    [
      "free, whatever its components say",
      route({ charged: "free", components: [{ label: "output image", rate: 5 }] }),
      "free",
    ],
    [
      "a rate with no quantity is per request",
      route(onSuccess({ label: "output image", rate: 5 })),
      "output image 5 credits per request",
    ],
    [
      "rates joined by semicolons, a field quantity as ×",
      route(onSuccess({ label: "base", rate: 5 }, { label: "output image", rate: 2, per: { field: "num_images" } })),
      "base 5 credits per request; output image 2 credits × num_images",
    ],
    [
      "seconds of media with no rounding or bounds",
      route(onSuccess({ label: "output audio", rate: 3, per: { mediaSeconds: "audio", rounding: "none" } })),
      "output audio 3 credits per second of audio",
    ],
    [
      "seconds of media rounded up and bounded",
      route(
        onSuccess({
          label: "output audio",
          rate: 3,
          per: { mediaSeconds: "audio", rounding: "up", minimum: 5, maximum: 60 },
        }),
      ),
      "output audio 3 credits per second of audio (rounded up, at least 5, at most 60)",
    ],
    [
      "a rate's conditions named after its item",
      route(
        onSuccess({
          label: "output video",
          rate: 10,
          per: { field: "num_videos" },
          when: [
            { fact: "plan", equals: "pro" },
            { field: "audio", present: true },
            { field: "mask", present: false },
            { field: "loop", equals: true },
          ],
        }),
      ),
      "output video, plan pro, audio given, mask not given, loop true 10 credits × num_videos",
    ],
    [
      "a rate not shown, with nothing it depends on",
      route(onSuccess({ label: "output video", rateNotShown: { by: [] } })),
      "output video at a rate not shown per request",
    ],
    [
      "a rate not shown, by the fields it depends on",
      route(
        onSuccess({
          label: "output video",
          rateNotShown: { by: ["size", "duration"] },
          per: { mediaSeconds: "video" },
        }),
      ),
      "output video at a rate not shown by size and duration per second of video",
    ],
    [
      "a rate that is a multiple of another",
      route(
        onSuccess(
          { label: "output video", rate: 10, per: { field: "n" } },
          { label: "audio track", rateTimes: { component: "output video", factor: 2 }, per: { field: "n" } },
        ),
      ),
      "output video 10 credits × n; audio track at 2 times the rate of output video × n",
    ],
  ])("a new model's line states its price: %s", (_, pricing, summary) => {
    const after = facts({
      models: [{ label: "X-1", route: "POST /v1/x/x-1" }],
      prices: pricing ? { "/v1/x/x-1": pricing } : {},
    });
    expect(entries(facts(), after)).toEqual([
      { topic: "models", subject: "X-1", line: `New model X-1: POST /v1/x/x-1; ${summary}.` },
    ]);
  });
});

describe("prices of a route on both sides", () => {
  const image = (credits: number) => ({ label: "output image", rate: credits, per: { field: "num_images" } });
  const ofModel = (pricing: PricingExtension | null): DomainFacts =>
    facts({ prices: { "/v1/images/i-a": route(pricing, { model: "I-A" }) } });

  it("a route that is not a model is named by its method and path", () => {
    const music = (credits: number): DomainFacts =>
      facts({
        prices: {
          "/v1/stock/music": route(
            { charged: "per-request", components: [{ label: "download", rate: credits }] },
            { method: "get" },
          ),
        },
      });
    expect(entries(music(1), music(2))).toEqual([
      {
        topic: "prices",
        subject: "GET /v1/stock/music",
        line: "GET /v1/stock/music: download: 1 → 2 credits per request (+100%).",
      },
    ]);
  });

  it.each<[string, PricingExtension | null, PricingExtension | null, string[]]>([
    [
      "a price no longer stated says what it was",
      onSuccess(image(5)),
      null,
      ["I-A: price no longer stated (was output image 5 credits × num_images)."],
    ],
    [
      "when the price is charged",
      onSuccess(image(5)),
      { charged: "per-request", components: [image(5)] },
      ["I-A: now charged on every request (was only when the job succeeds)."],
    ],
    [
      "a price now held",
      onSuccess(image(5)),
      { ...onSuccess(image(5)), held: true },
      ["I-A: the price is now reserved when the job is created and held until it ends."],
    ],
    [
      "a rate billed by another quantity",
      onSuccess({ label: "output image", rate: 5 }),
      onSuccess(image(5)),
      ["I-A: output image: now billed × num_images (was per request)."],
    ],
    [
      "a rate removed says what it was",
      onSuccess(image(5), {
        label: "reference image",
        rate: 2,
        per: { itemsBeyond: { field: "reference_images", free: 4 } },
      }),
      onSuccess(image(5)),
      ["I-A: rate reference image removed (was 2 credits per reference_images item beyond 4)."],
    ],
    [
      "a rate lowered, with its percentage",
      onSuccess(image(25)),
      onSuccess(image(20)),
      ["I-A: output image: 25 → 20 credits × num_images (-20%)."],
    ],
    [
      "a rate that was zero has no percentage",
      onSuccess(image(0)),
      onSuccess(image(5)),
      ["I-A: output image: 0 → 5 credits × num_images."],
    ],
  ])("%s", (_, from, to, expected) => {
    const found = entries(ofModel(from), ofModel(to));
    expect(found.map((entry) => [entry.topic, entry.subject])).toEqual(expected.map(() => ["prices", "I-A"]));
    expect(found.map((entry) => entry.line)).toEqual(expected);
  });
});

describe("limits and polling, each number with its unit", () => {
  const limits = (value: unknown): DomainFacts => facts({ limits: value });
  const polling = (value: unknown): DomainFacts => facts({ polling: value });

  it.each<[string, DomainFacts, DomainFacts, string[]]>([
    [
      "a counted limit is per its group's window",
      limits({ requests: { perKey: 600, windowSeconds: 60 } }),
      limits({ requests: { perKey: 300, windowSeconds: 60 } }),
      ["Limit requests.perKey: 600 → 300 requests per API key per 60 seconds."],
    ],
    [
      "a nested group's window is its own, not its parent's",
      limits({ requests: { windowSeconds: 60, burst: { perKey: 10, windowSeconds: 5 } } }),
      limits({ requests: { windowSeconds: 60, burst: { perKey: 20, windowSeconds: 5 } } }),
      ["Limit requests.burst.perKey: 10 → 20 requests per API key per 5 seconds."],
    ],
    [
      "a counted limit without a window",
      limits({}),
      limits({ uploads: { perAccount: 20 } }),
      ["Limit uploads.perAccount: now 20 requests per account."],
    ],
    [
      "a limit no longer stated says what it was",
      limits({ uploads: { perAccount: 20 } }),
      limits({}),
      ["Limit uploads.perAccount: no longer stated (was 20 requests per account)."],
    ],
    [
      "one second is singular",
      limits({ cooldown: { growthSeconds: 2 } }),
      limits({ cooldown: { growthSeconds: 1 } }),
      ["Limit cooldown.growthSeconds: 2 → 1 second."],
    ],
    [
      "a number the limit does not count has no unit",
      limits({ stockResultsPerPage: 50 }),
      limits({ stockResultsPerPage: 100 }),
      ["Limit stockResultsPerPage: 50 → 100."],
    ],
    [
      "words and flags have no unit",
      limits({ requests: { window: "fixed" }, concurrency: { pollingCounts: false } }),
      limits({ requests: { window: "rolling" }, concurrency: { pollingCounts: true } }),
      ["Limit requests.window: fixed → rolling.", "Limit concurrency.pollingCounts: false → true."],
    ],
    [
      "a number keeps its unit when the other side is not a number",
      limits({ cooldown: { pauseSeconds: 600 } }),
      limits({ cooldown: { pauseSeconds: null } }),
      ["Limit cooldown.pauseSeconds: 600 seconds → null."],
    ],
    [
      "hours, one of them singular",
      polling({ image: { retention: { hours: 24, approximate: false } } }),
      polling({ image: { retention: { hours: 1, approximate: false } } }),
      ["Polling image.retention.hours: 24 → 1 hour."],
    ],
    [
      "hours, plural",
      polling({ image: { retention: { hours: 1 } } }),
      polling({ image: { retention: { hours: 48 } } }),
      ["Polling image.retention.hours: 1 → 48 hours."],
    ],
    [
      "an interval's bounds read in seconds",
      polling({ image: { intervalSeconds: { min: 5, max: 30 } } }),
      polling({ image: { intervalSeconds: { min: 10, max: 30 } } }),
      ["Polling image.intervalSeconds.min: 5 → 10 seconds."],
    ],
    [
      "an interval no longer given as a number",
      polling({ image: { intervalSeconds: { min: 5, max: 30 } } }),
      polling({ image: { intervalSeconds: null } }),
      [
        "Polling image.intervalSeconds: now null.",
        "Polling image.intervalSeconds.min: no longer stated (was 5 seconds).",
        "Polling image.intervalSeconds.max: no longer stated (was 30 seconds).",
      ],
    ],
  ])("%s", (_, before, after, expected) => {
    expect(lines(before, after)).toEqual(expected);
  });

  it("files each entry under its topic, about the stated value", () => {
    expect(entries(limits({ cooldown: { growthSeconds: 2 } }), limits({ cooldown: { growthSeconds: 3 } }))).toEqual([
      { topic: "limits", subject: "cooldown.growthSeconds", line: "Limit cooldown.growthSeconds: 2 → 3 seconds." },
    ]);
  });
});

describe("the Free plan", () => {
  it("says each route it may now call, and each it may no longer call", () => {
    const plan = (...routes: string[]) => facts({ freePlan: routes });
    expect(
      entries(plan("GET /v1/models", "GET /v1/stock/images"), plan("GET /v1/models", "GET /v1/stock/music")),
    ).toEqual([
      { topic: "plans", subject: "GET /v1/stock/music", line: "The Free plan may now call GET /v1/stock/music." },
      {
        topic: "plans",
        subject: "GET /v1/stock/images",
        line: "The Free plan may no longer call GET /v1/stock/images.",
      },
    ]);
  });
});

describe("not-shown markers", () => {
  const size = {
    pointer: "#/paths/~1v1~1images~1i-a/post/requestBody/content/application~1json/schema/properties/size",
    owner: "POST /v1/images/i-a",
    where: "request body › `size`",
    key: "requiredness",
    sentence: "Whether size is required is not shown.",
  };
  const transitions = {
    pointer: "#/components/schemas/JobStatus",
    owner: "Schema JobStatus",
    where: "",
    key: "transitions",
    sentence: "Transitions between states are not shown.",
  };
  const marked = (...notShown: unknown[]) => facts({ notShown });

  it("a marker added to an object on both sides is now marked not shown, named by owner, place and key", () => {
    const seen: Array<[string, string]> = [];
    const carried: Carried = (pointer, side) => {
      seen.push([pointer, side]);
      return true;
    };
    expect(entries(marked(), marked(size), carried)).toEqual([
      {
        topic: "not-shown",
        subject: "POST /v1/images/i-a › request body › `size` (requiredness)",
        line: 'Now marked not shown: POST /v1/images/i-a › request body › `size` (requiredness): "Whether size is required is not shown."',
      },
    ]);
    expect(seen).toEqual([[size.pointer, "after"]]);
  });

  it("a marker removed from an object still there is now stated", () => {
    expect(entries(marked(transitions), marked(), everything)).toEqual([
      {
        topic: "not-shown",
        subject: "Schema JobStatus (transitions)",
        line: 'Now stated: Schema JobStatus (transitions); was not shown ("Transitions between states are not shown.").',
      },
    ]);
  });

  it("a marker that came or went with its object is no entry: the object's own change says it", () => {
    const nothing: Carried = () => false;
    expect(entries(marked(), marked(size), nothing)).toEqual([]);
    expect(entries(marked(transitions), marked(), nothing)).toEqual([]);
  });
});
