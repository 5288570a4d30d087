/**
 * The client fuzz's small budget (npm run fuzz runs the large one: `-- --server client`): a few
 * dozen hostile-upstream scenarios, seeded, checked against every property of the client
 * (CLIENT_PROPERTIES: it settles, within bounded requests, with typed errors, never showing the key
 * or a piece of it, never resending a create, following no redirect, overflowing no timer).
 * A failure here replays with `npm run fuzz -- --server client --seed 20`.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkScenario, CLIENT_PROPERTIES, clientReport, fuzzClient } from "../../fuzz/client-fuzz.ts";
import { FakeClock, LONGEST_DELAY_MS } from "../../fuzz/fake-clock.ts";
import type { Answer } from "../../fuzz/hostile-upstream.ts";

describe("fuzzing the typed client against a hostile upstream", () => {
  it("finds nothing in 40 scenarios against every property", async () => {
    const run = await fuzzClient({ runs: 40, seed: 20, properties: CLIENT_PROPERTIES });
    expect(clientReport(run)).toEqual([
      expect.stringMatching(/^fuzz client: 40 scenarios in .* seed 20: no problem found$/),
    ]);
  });
});

describe("the client fuzz's harness", () => {
  let clock: FakeClock;
  beforeEach(() => {
    clock = new FakeClock();
    clock.install();
  });
  afterEach(() => clock.uninstall());

  const answer = (fields: Partial<Answer>): Answer => ({
    status: 200,
    body: { kind: "empty" },
    headers: [],
    delayMs: 0,
    drip: null,
    lengthLie: "none",
    reset: "none",
    redirect: "none",
    ...fields,
  });

  it("runs timers in the order of their fake time, moves Date.now with them, and records a delay Node would overflow", () => {
    const order: string[] = [];
    const startedAt = Date.now();
    setTimeout(() => order.push("later"), 2_000);
    setTimeout(() => order.push("sooner"), 1_000);
    const dropped = setTimeout(() => order.push("cleared"), 500);
    clearTimeout(dropped);
    setTimeout(() => order.push("overflowed"), LONGEST_DELAY_MS + 1);
    while (clock.next());
    expect(order).toEqual(["overflowed", "sooner", "later"]);
    expect(Date.now() - startedAt).toBe(2_000);
    expect(clock.overflows).toEqual([LONGEST_DELAY_MS + 1]);
  });

  it("finds nothing wrong with a create and a wait answered as the specification shows", async () => {
    const created = answer({ body: { kind: "created", id: "img_1", status: "pending" } });
    const succeeded = answer({
      body: {
        kind: "job",
        status: "succeeded",
        extra: { images: [{ url: "https://files.example.com/img_1/0.png", position: 0 }] },
      },
    });
    expect(
      await checkScenario(
        {
          call: "createAndWait",
          answers: [created, answer({ body: { kind: "job", status: "processing", extra: {} } }), succeeded],
        },
        clock,
      ),
    ).toEqual([]);
  });

  it("finds no key in the typed error of a 401 whose body echoes the Authorization header", async () => {
    const echoing = answer({
      status: 401,
      body: {
        kind: "error",
        error: { type: "authentication_error", code: "invalid_key", message: "bad key {key}" },
        top: {},
      },
      headers: [["X-Echo", "{key}"]],
    });
    expect(
      await checkScenario({ call: "getAccountCredits", answers: [echoing] }, clock, [
        "key-never-shown",
        "typed-rejection",
      ]),
    ).toEqual([]);
  });

  it("judges the resend fetch itself makes after a 421 as no redirect followed, and the client follows no 307", async () => {
    // The Fetch standard sends a request answered 421 once more on a new connection to the same origin
    // (RFC 9110: the request was not processed); a 307's Location is a redirect the client must not follow.
    const misdirected = answer({ status: 421, redirect: "cross" });
    expect(await checkScenario({ call: "create", answers: [misdirected] }, clock, ["no-redirect-followed"])).toEqual(
      [],
    );
    const moved = answer({ status: 307, redirect: "same" });
    const followed = await checkScenario({ call: "create", answers: [moved, moved] }, clock, ["no-redirect-followed"]);
    expect(followed).toEqual([]);
  });
});
