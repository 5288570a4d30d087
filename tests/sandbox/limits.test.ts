/**
 * The limits through HTTP: fixed windows per key and per source IP (rejected requests count,
 * X-RateLimit-* on every response, 429 rate_limited with Retry-After and the seconds in its
 * message), the rolling uploads window, the concurrency cap, the monthly spend limit, the
 * cooldown of the content-filtered family, and retired models.
 */
import { describe, expect, it } from "vitest";
import { SANDBOX_CODES } from "../../behaviour/responses.ts";
import { checkedSandboxes, configWith, example, KEY, model, routeWhere, type Sent } from "./support.ts";

const sandbox = checkedSandboxes();

const { rateLimitHeaders, retryAfterHeader } = model;
const variant = (condition: string) =>
  model.errors.tooManyRequests.variants.find((candidate) => candidate.condition === condition)!;
const rateLimitedCode = variant("rate-limited").code;
/** I-A: 12 credits per image at its default size, 1K (the specification's image prices). */
const cheap = routeWhere((route) => route.label === "I-A");
const family = routeWhere((route) => route.family === model.limits.cooldown.family);
const familyBody = example(family.path);
const uploads = model.operations.find((op) => op.operationId === model.limits.uploads.operationId)!;
const credits = "/v1/account/credits";

const remaining = (sent: Sent) => Number(sent.headers.get(rateLimitHeaders.remaining));

function expectRateLimited(sent: Sent): number {
  expect(sent.status).toBe(429);
  expect(sent.json.error.code).toBe(rateLimitedCode);
  const seconds = Number(sent.headers.get(retryAfterHeader));
  expect(seconds).toBeGreaterThan(0);
  expect(sent.json.error.message).toContain(`${seconds} seconds`);
  return seconds;
}

describe("request windows", () => {
  it("per key: a fixed window, rejected requests count, X-RateLimit-* on every response, 429 with Retry-After until the window resets", async () => {
    const sb = await sandbox(
      configWith(
        { keys: [KEY, "second-key"] },
        { limits: { requests: { perKey: 3, perSourceIp: 100, windowSeconds: 60 } } },
      ),
    );
    sb.advance(15_000);
    const bad = await sb.send("POST", cheap.path, { body: { not_a_field: 1 } });
    expect(bad.status).toBe(400);
    expect(remaining(bad)).toBe(2);
    const beforeTheLimit = [await sb.send("GET", credits), await sb.send("GET", credits)];
    expect(beforeTheLimit.map((sent) => [sent.status, remaining(sent)])).toEqual([
      [200, 1],
      [200, 0],
    ]);
    const limited = await sb.send("GET", credits);
    expect(expectRateLimited(limited)).toBe(45);
    expect(limited.headers.get(rateLimitHeaders.reset)).toBe("45");
    expect(limited.headers.get(rateLimitHeaders.limit)).toBe("3");
    // The key's other requests stay limited, and another key of the same account has its own window.
    expect((await sb.send("GET", credits)).status).toBe(429);
    expect((await sb.send("GET", credits, { key: "second-key" })).status).toBe(200);
    sb.advance(45_000);
    const next = await sb.send("GET", credits);
    expect(next.status).toBe(200);
    expect(remaining(next)).toBe(2);
  });

  it("per source IP: whichever limit is hit first applies; unauthenticated requests count; another address has its own window", async () => {
    const sb = await sandbox({
      accounts: {
        a: { keys: ["key-a"], plan: "paid", credits: { monthlyLimit: 10, extra: 0 } },
        b: { keys: ["key-b"], plan: "paid", credits: { monthlyLimit: 10, extra: 0 } },
      },
      limits: { requests: { perKey: 100, perSourceIp: 3, windowSeconds: 60 } },
    });
    const beforeTheLimit = [
      await sb.send("GET", credits, { key: null }),
      await sb.send("GET", credits, { key: "key-a" }),
      await sb.send("GET", credits, { key: "key-b" }),
    ];
    // Each key's own window has 99 left; the address's, the one hit first, counts down to 0.
    expect(
      beforeTheLimit.map((sent) => [sent.status, sent.headers.get(rateLimitHeaders.limit), remaining(sent)]),
    ).toEqual([
      [401, "3", 2],
      [200, "3", 1],
      [200, "3", 0],
    ]);
    // The address's window is the configured minute, begun at the clock's start (a whole number of minutes).
    expect(expectRateLimited(await sb.send("GET", credits, { key: "key-b" }))).toBe(60);
    expect((await sb.send("GET", credits, { key: "key-b", from: "127.0.0.2" })).status).toBe(200);
  });
  it("counts requests refused before any rule too, in the key's window and the address's: an unknown model's create, a path or a method the description lacks, a body past the sandbox's size; past the limit, each is the 429", async () => {
    const sb = await sandbox(
      configWith(
        {},
        { limits: { requests: { perKey: 4, perSourceIp: 7, windowSeconds: 60 } }, http: { maxBodyBytes: 64 } },
      ),
    );
    const area = cheap.path.slice(0, cheap.path.lastIndexOf("/") + 1);
    const refused = [
      await sb.send("POST", `${area}no-such-model`, { body: {} }),
      await sb.send("GET", "/v1/no-such-route"),
      await sb.send("DELETE", credits),
      await sb.send("POST", cheap.path, { body: { prompt: "x".repeat(100) } }),
    ];
    expect(refused.map((sent) => [sent.status, remaining(sent)])).toEqual([
      [400, 3],
      [404, 2],
      [405, 1],
      [413, 0],
    ]);
    // The key's window is spent: the next refusal of each kind is the rate limiter's 429.
    expectRateLimited(await sb.send("GET", "/v1/no-such-route"));
    expectRateLimited(await sb.send("POST", cheap.path, { body: { prompt: "x".repeat(100) } }));
    // Without a key, the address's window (7, six spent) counts it: the seventh answers as before, the eighth is limited.
    const seventh = await sb.send("GET", "/v1/no-such-route", { key: null });
    expect([seventh.status, seventh.headers.get(rateLimitHeaders.limit), remaining(seventh)]).toEqual([404, "7", 0]);
    expectRateLimited(await sb.send("DELETE", credits, { key: null }));
  });
});

describe("uploads", () => {
  it("allow a number per rolling window per account, shared by its keys, with Retry-After until the oldest leaves the window", async () => {
    const sb = await sandbox(
      configWith({ keys: [KEY, "second-key"] }, { limits: { uploads: { perAccount: 2, windowSeconds: 10 } } }),
    );
    const upload = (key = KEY) => sb.send("POST", uploads.path, { key, body: {} });
    expect((await upload()).status).toBe(200);
    sb.advance(5_000);
    expect((await upload("second-key")).status).toBe(200);
    sb.advance(1_000);
    expect(expectRateLimited(await upload())).toBe(4);
    sb.advance(4_000);
    expect((await upload()).status).toBe(200);
    sb.advance(1_000);
    expect(expectRateLimited(await upload("second-key"))).toBe(4);
  });
});

describe("concurrency", () => {
  it("caps jobs in flight per account across its keys; queue full is a 429 without Retry-After; polling never counts", async () => {
    const sb = await sandbox(
      configWith({ keys: [KEY, "second-key"], concurrency: 2 }, { jobs: { defaultDurationSeconds: 10 } }),
    );
    const body = example(cheap.path);
    const first = await sb.send("POST", cheap.path, { body });
    expect((await sb.send("POST", cheap.path, { body, key: "second-key" })).status).toBe(200);
    const area = model.areas.find((candidate) => candidate.id === cheap.areaId)!;
    for (let poll = 0; poll < 5; poll += 1)
      expect((await sb.send("GET", area.poll.path.replace("{id}", first.json.id))).status).toBe(200);
    const full = await sb.send("POST", cheap.path, { body });
    expect(full.status).toBe(429);
    expect(full.json.error.code).toBe(SANDBOX_CODES["queue-full"].code);
    expect(full.json.error.message).toBe(
      "As many generations are in flight as the account's concurrency cap (2) allows.",
    );
    expect(full.headers.has(retryAfterHeader)).toBe(false);
    sb.advance(10_000);
    expect((await sb.send("POST", cheap.path, { body })).status).toBe(200);
  });
});

describe("monthly spend limit", () => {
  it("answers 429 without Retry-After once the month's charges and reservations would pass it; retrying does not clear it", async () => {
    const body = example(cheap.path);
    // One image at the default 1K: 12 credits; the limit lets two through.
    const price = 12;
    const sb = await sandbox(configWith({ monthlySpendLimit: 24 }, { jobs: { defaultDurationSeconds: 1 } }));
    expect((await sb.send("POST", cheap.path, { body })).status).toBe(200);
    expect((await sb.send("POST", cheap.path, { body })).status).toBe(200);
    sb.advance(60_000);
    for (let retry = 0; retry < 2; retry += 1) {
      const refused = await sb.send("POST", cheap.path, { body });
      expect(refused.status).toBe(429);
      expect(refused.json.error.code).toBe(SANDBOX_CODES["spend-limit"].code);
      expect(refused.json.error.message).toBe(
        "The monthly spend limit set by the account owner is reached; raise or remove it in the billing area.",
      );
      expect(refused.headers.has(retryAfterHeader)).toBe(false);
    }
    expect((await sb.send("GET", credits)).json.monthly_used).toBe(2 * price);
  });
});

describe("cooldown of the content-filtered family", () => {
  const { consecutiveFailures, pauseSeconds, growthSeconds, withinSeconds } = model.limits.cooldown;
  const failing = { ...familyBody, prompt: `${String(familyBody.prompt ?? "")} [sandbox:failed]` };
  const run = 5_000;

  async function failTimes(sb: Awaited<ReturnType<typeof sandbox>>, times: number): Promise<void> {
    for (let failure = 0; failure < times; failure += 1) {
      expect((await sb.send("POST", family.path, { body: failing })).status).toBe(200);
      sb.advance(run);
    }
  }

  it("pauses the family after consecutive failures within the window, grows with each further failure, spares other models, and a success clears it", async () => {
    const sb = await sandbox(configWith({ concurrency: 10 }, { jobs: { defaultDurationSeconds: run / 1000 } }));
    await failTimes(sb, consecutiveFailures);
    const paused = await sb.send("POST", family.path, { body: familyBody });
    expect(paused.status).toBe(429);
    const secondsField = variant("cooldown").secondsField!;
    expect(paused.json[secondsField]).toBe(pauseSeconds);
    expect(paused.headers.get(retryAfterHeader)).toBe(String(pauseSeconds));
    expect(JSON.stringify(paused.json)).toContain(
      `Requests to this model family are paused after repeated failures. Retry in ${pauseSeconds} seconds.`,
    );
    expect((await sb.send("POST", cheap.path, { body: example(cheap.path) })).status).toBe(200);

    sb.advance(pauseSeconds * 1000);
    await failTimes(sb, 1);
    expect((await sb.send("POST", family.path, { body: familyBody })).json[secondsField]).toBe(
      pauseSeconds + growthSeconds,
    );

    sb.advance((pauseSeconds + growthSeconds) * 1000);
    expect((await sb.send("POST", family.path, { body: familyBody })).status).toBe(200);
    sb.advance(run);
    await failTimes(sb, consecutiveFailures - 1);
    expect((await sb.send("POST", family.path, { body: familyBody })).status).toBe(200);
  });

  it("is per account, and counts a failure whose job expired before its account's next request: another account's request drops it, settling it", async () => {
    const account = { plan: "paid", credits: { monthlyLimit: 100_000, extra: 0 }, concurrency: 10 };
    const sb = await sandbox({
      accounts: { main: { ...account, keys: [KEY] }, other: { ...account, keys: ["other-key"] } },
      // Kept 0.36 s after they end: far shorter than the pause.
      jobs: { defaultDurationSeconds: run / 1000, defaultRetentionHours: 0.0001 },
    });
    await failTimes(sb, consecutiveFailures);
    sb.advance(1_000);
    // An account's cooldown is its own: the other account may still create in the family.
    expect((await sb.send("POST", family.path, { key: "other-key", body: familyBody })).status).toBe(200);
    const paused = await sb.send("POST", family.path, { body: familyBody });
    expect(paused.status).toBe(429);
    expect(paused.json[variant("cooldown").secondsField!]).toBe(pauseSeconds - 1);
  });

  it("counts only failures within the window", async () => {
    const sb = await sandbox(configWith({}, { jobs: { defaultDurationSeconds: run / 1000 } }));
    await failTimes(sb, consecutiveFailures - 1);
    sb.advance(withinSeconds * 1000);
    await failTimes(sb, 1);
    expect((await sb.send("POST", family.path, { body: familyBody })).status).toBe(200);
  });
});

describe("retired models", () => {
  it("answer 410 with the retired code to the accounts that retire them, and only for those models", async () => {
    const sb = await sandbox(configWith({ retiredModels: [family.slug] }));
    const retired = await sb.send("POST", family.path, { body: familyBody });
    expect(retired.status).toBe(410);
    expect(retired.json.error.code).toBe(model.errors.retired.code);
    expect((await sb.send("POST", cheap.path, { body: example(cheap.path) })).status).toBe(200);
  });

  it("answer 410 whatever the body holds (none, a field the model lacks, a value out of range): the model is gone", async () => {
    const sb = await sandbox(configWith({ retiredModels: [family.slug] }));
    const bodies = [undefined, { ...familyBody, not_a_field: 1 }, { ...familyBody, prompt: 12 }];
    const answers = await Promise.all(bodies.map((body) => sb.send("POST", family.path, { body })));
    expect(answers.map((sent) => [sent.status, sent.json.error.code])).toEqual(
      bodies.map(() => [410, model.errors.retired.code]),
    );
    // The same bodies to a model still served are the 400 they always were.
    const live = await sb.send("POST", cheap.path, { body: { ...example(cheap.path), not_a_field: 1 } });
    expect(live.status).toBe(400);
  });
});
