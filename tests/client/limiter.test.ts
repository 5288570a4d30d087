import { describe, expect, it } from "vitest";
import { TooManyRequestsError } from "../../runtime/client/errors.ts";
import { inFlightLimiter } from "../../runtime/client/limiter.ts";
import { pathOf, slug } from "./labels.ts";
import { drive, type Handler } from "./scripted-server.ts";
import { clientOn, example, IMAGES, job, useFakeClock } from "./support.ts";

useFakeClock();

/** A service whose jobs `img_<n>` succeed on their second poll; `refuse(n)` answers create n with a 429 instead. */
function service(refuse: (create: number) => string | null): Handler {
  let creates = 0;
  const polls = new Map<string, number>();
  return (request) => {
    if (request.method === "POST") {
      creates += 1;
      const refusal = refuse(creates);
      if (refusal) return { status: 429, body: example(refusal) };
      return { status: 200, body: { id: `img_${creates}`, message: "ok", model: "m", status: "pending" } };
    }
    const id = request.path.split("/").at(-1) ?? "";
    polls.set(id, (polls.get(id) ?? 0) + 1);
    return polls.get(id) === 2 ? job("succeeded", IMAGES) : job("processing");
  };
}

const IA = slug("image", "I-A");
const CREATE = `POST ${pathOf("I-A")}`;

const order = (requests: Array<{ method: string; path: string }>) => requests.map((r) => `${r.method} ${r.path}`);

describe("in-flight limiter", () => {
  it("sends the next create only after one of its own jobs finished", async () => {
    const limiter = inFlightLimiter(1);
    const { server, client } = await clientOn(
      service(() => null),
      { limiter },
    );
    const first = client.image.createAndWait(IA, { prompt: "a" });
    const second = client.image.createAndWait(IA, { prompt: "b" });
    const results = await drive(server, Promise.all([first, second]));
    expect(results.map((r) => r.jobId)).toEqual(["img_1", "img_2"]);
    expect(order(server.requests)).toEqual([
      CREATE,
      "GET /v1/images/img_1",
      "GET /v1/images/img_1",
      CREATE,
      "GET /v1/images/img_2",
      "GET /v1/images/img_2",
    ]);
    expect(limiter.jobs.size).toBe(0);
  });

  it("on a queue-full 429 waits for one of its own running jobs to finish, then submits again", async () => {
    // The account's cap is shared with other keys: our second create is refused once.
    const limiter = inFlightLimiter(5);
    const { server, client } = await clientOn(
      service((n) => (n === 2 ? "QueueFull" : null)),
      { limiter },
    );
    const first = client.image.createAndWait(IA, { prompt: "a" });
    // Start the second create once the first job exists.
    const both = (async () => {
      while (limiter.jobs.size === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      return Promise.all([first, client.image.createAndWait(IA, { prompt: "b" })]);
    })();
    const [, second] = await drive(server, both);
    expect(second.jobId).toBe("img_3");
    const sequence = order(server.requests);
    const posts = sequence.flatMap((entry, index) => (entry.startsWith("POST") ? [index] : []));
    const img1Terminal = sequence.lastIndexOf("GET /v1/images/img_1");
    expect(posts).toHaveLength(3);
    const [, refused = -1, resent = -1] = posts;
    // Refused while img_1 ran, resent right after img_1's terminal poll: no fixed wait.
    expect(refused).toBeLessThan(img1Terminal);
    expect(resent).toBe(img1Terminal + 1);
    expect(server.requests[resent]?.at).toBe(server.requests[img1Terminal]?.at);
  });
});

describe("the limiter alone", () => {
  const queueFull = () =>
    new TooManyRequestsError("HTTP 429", { status: 429, headers: new Headers(), body: example("QueueFull") });
  /** Whether `promise` has settled once real I/O and timers that are due have had their turn. */
  async function settledSoon(promise: Promise<unknown>): Promise<boolean> {
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (let i = 0; i < 10; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
    return settled;
  }

  /** A create through `limiter` that the service refuses as queue full every time it is sent. */
  function refusedCreate(limiter: ReturnType<typeof inFlightLimiter>, maxResends: number) {
    let sends = 0;
    const creating = limiter.create(async () => {
      sends += 1;
      throw queueFull();
    }, maxResends);
    creating.catch(() => undefined);
    return { creating, sends: () => sends };
  }

  it("a queue-full 429 with none of its own jobs running is thrown at once, sent once: nothing of its own will free a place", async () => {
    const { creating, sends } = refusedCreate(inFlightLimiter(2), 3);
    expect(await settledSoon(creating)).toBe(true);
    await expect(creating).rejects.toBeInstanceOf(TooManyRequestsError);
    expect(sends()).toBe(1);
  });

  it("with its own job running, a queue-full 429 is resent after each release, at most maxResends times, then thrown", async () => {
    const limiter = inFlightLimiter(3);
    await limiter.create(async () => [{}, "job-a"], 0);
    const { creating, sends } = refusedCreate(limiter, 2);
    for (const expected of [1, 2, 3]) {
      expect(await settledSoon(creating)).toBe(expected === 3);
      expect(sends()).toBe(expected);
      // Another job of its own finishes: a place may be free.
      limiter.release("job-a");
      await limiter.create(async () => [{}, "job-a"], 0);
    }
    await expect(creating).rejects.toBeInstanceOf(TooManyRequestsError);
    expect(sends()).toBe(3);
  });

  it("a create beyond the cap waits for a release; a create that made no job, or was refused, frees its slot at once", async () => {
    const limiter = inFlightLimiter(1);
    expect(await limiter.create(async () => ["created", null], 0)).toEqual(["created", null]);
    await expect(limiter.create(async () => Promise.reject(new Error("refused")), 0)).rejects.toThrow("refused");
    await limiter.create(async () => [{}, "job-a"], 0);
    const next = limiter.create(async () => [{}, "job-b"], 0);
    expect(await settledSoon(next)).toBe(false);
    limiter.release("another-clients-job");
    expect(await settledSoon(next)).toBe(false);
    limiter.release("job-a");
    expect(await next).toEqual([{}, "job-b"]);
    expect([...limiter.jobs]).toEqual(["job-b"]);
  });

  it("a create its caller aborts keeps its slot as unknown (the service may have made the job) until settled", async () => {
    const limiter = inFlightLimiter(1);
    const caller = new AbortController();
    const creating = limiter.create(
      () =>
        new Promise<[unknown, string | null]>((_, reject) =>
          caller.signal.addEventListener("abort", () => reject(caller.signal.reason)),
        ),
      0,
      caller.signal,
    );
    caller.abort(new Error("caller gave up"));
    await expect(creating).rejects.toThrow("caller gave up");
    expect(limiter.unknown).toBe(1);
    const next = limiter.create(async () => [{}, "job-b"], 0);
    expect(await settledSoon(next)).toBe(false);
    // The caller learns no job was made: the slot is free.
    limiter.settleUnknown(null);
    expect(await next).toEqual([{}, "job-b"]);
  });

  it("a create refused before its caller aborted frees its slot: the refusal, not the abort, is what it did", async () => {
    const limiter = inFlightLimiter(1);
    const caller = new AbortController();
    const refusal = new Error("refused");
    const creating = limiter.create(
      async () => {
        caller.abort(new Error("caller gave up"));
        throw refusal;
      },
      0,
      caller.signal,
    );
    await expect(creating).rejects.toBe(refusal);
    expect(limiter.unknown).toBe(0);
  });

  it("settling an unknown outcome when none is unknown is ignored: it frees no slot and records no job", async () => {
    const limiter = inFlightLimiter(1);
    await limiter.create(async () => [{}, "job-a"], 0);
    limiter.settleUnknown(null);
    limiter.settleUnknown("job-x");
    expect(limiter.unknown).toBe(0);
    expect([...limiter.jobs]).toEqual(["job-a"]);
    const next = limiter.create(async () => [{}, "job-b"], 0);
    expect(await settledSoon(next)).toBe(false);
    limiter.release("job-a");
    expect(await next).toEqual([{}, "job-b"]);
  });

  it("a create waiting for a slot stops waiting when its caller aborts: rejected with the caller's reason, nothing sent, no slot taken", async () => {
    const limiter = inFlightLimiter(1);
    await limiter.create(async () => [{}, "job-a"], 0);
    const caller = new AbortController();
    let sent = false;
    const waiting = limiter.create(
      async () => {
        sent = true;
        return [{}, "job-b"];
      },
      0,
      caller.signal,
    );
    waiting.catch(() => undefined);
    expect(await settledSoon(waiting)).toBe(false);
    caller.abort(new Error("the caller gave up"));
    expect(await settledSoon(waiting)).toBe(true);
    await expect(waiting).rejects.toThrow("the caller gave up");
    expect(sent).toBe(false);
    // The slot stays job-a's alone: once it is released, the next create goes at once.
    limiter.release("job-a");
    expect(await settledSoon(limiter.create(async () => [{}, "job-c"], 0))).toBe(true);
  });
});
