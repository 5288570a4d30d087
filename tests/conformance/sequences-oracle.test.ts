/**
 * The sequence phase's oracle (conformance/sequences/oracle.ts) on answers made up here, step by
 * step: what the specification allows from the state the earlier answers led to, where a job's end
 * is left open (its charge seen in the balance, then a poll saying it still runs), another account's
 * job, a hold, a reused job id, and the answers it allows that the model never gives (a rate-limited
 * 429, a pause by failures before the phase).
 */
import { describe, expect, it } from "vitest";
import { Contract, requestPath } from "../../contract/contract.ts";
import type { Exchange, RequestSpec } from "../../conformance/http.ts";
import { Oracle, type Step } from "../../conformance/sequences/oracle.ts";
import { partiesOf, type Party } from "../../conformance/sequences/parties.ts";
import { sandboxDeclaration } from "./support/sandbox-declaration.ts";

const contract = new Contract();
const config = sandboxDeclaration(contract);
const parties = partiesOf(config, config.apiKey!);
const party = (name: string): Party => parties.all.find((candidate) => candidate.name === name)!;
const other = party("other");
const second = party("other (second key)");
const main = party("main");
const BALANCE = 100_000;

const op = (label: string) => contract.operations.find((candidate) => candidate.create?.label === label)!;
const pollOf = (label: string) => contract.pollOf(op(label))!;
const credits = contract.operations.find((candidate) => candidate.facts.operationId === "getAccountCredits")!;

/** An answer as a target would send it, with the rate-limit headers every answer carries. */
function exchange(
  spec: RequestSpec,
  status: number,
  json: unknown,
  at: number,
  headers: Record<string, string> = {},
): Exchange {
  const text = JSON.stringify(json);
  return {
    request: spec,
    sentAt: at,
    receivedAt: at + 5,
    status,
    headers: new Headers({
      "content-type": "application/json",
      "x-ratelimit-limit": "600",
      "x-ratelimit-remaining": "500",
      "x-ratelimit-reset": "30",
      ...headers,
    }),
    text,
    json,
    violations: [],
  };
}

const oracle = (): Oracle => new Oracle(contract, config, parties, { balances: new Map([["other", BALANCE]]), at: 0 });

const createStep = (label: string, by: Party, body: unknown): Step => ({
  op: op(label),
  party: by,
  spec: { method: "post", path: op(label).path, headers: {}, body },
});
const pollStep = (label: string, by: Party, id: string): Step => ({
  op: pollOf(label),
  party: by,
  spec: { method: "get", path: requestPath(contract, pollOf(label), { id }), headers: {} },
  jobId: id,
});
const creditsStep = (by: Party): Step => ({
  op: credits,
  party: by,
  spec: { method: "get", path: credits.path, headers: {} },
});
const balance = (total: number) => ({
  extra_credits: 0,
  monthly_limit: BALANCE,
  monthly_remaining: total,
  monthly_used: BALANCE - total,
  total_available: total,
});

const I_A = { prompt: "a lighthouse" };
const accepted = { id: "img_1", message: "Job accepted.", model: "i-a", status: "pending" };

describe("the sequences' oracle", () => {
  it("follows a job whose end it did not see: a charge in the balance means it ended, and a later poll saying it runs is a failure", () => {
    const judge = oracle();
    const create = createStep("I-A", other, I_A);
    expect(judge.judge(create, exchange(create.spec, 200, accepted, 1_000)).problems).toEqual([]);
    const read = creditsStep(second);
    // Charged its 12 credits: only a state where the job succeeded explains it.
    expect(judge.judge(read, exchange(read.spec, 200, balance(BALANCE - 12), 2_000)).problems).toEqual([]);
    const poll = pollStep("I-A", other, "img_1");
    const verdict = judge.judge(poll, exchange(poll.spec, 200, { status: "processing" }, 3_000));
    expect(verdict.problems.join()).toMatch(/status is "processing", where the job ended succeeded/);
  });

  it("allows the balance before and after a job's charge while its end is unseen, and no other figure", () => {
    const judge = oracle();
    const create = createStep("I-A", other, I_A);
    judge.judge(create, exchange(create.spec, 200, accepted, 1_000));
    const read = creditsStep(other);
    expect(judge.judge(read, exchange(read.spec, 200, balance(BALANCE), 2_000)).problems).toEqual([]);
    const wrong = judge.judge(read, exchange(read.spec, 200, balance(BALANCE - 24), 2_500));
    expect(wrong.problems.join()).toMatch(/total_available is 99976/);
    expect(wrong.allowed).toEqual(
      expect.arrayContaining(["200 (total_available 100000)", "200 (total_available 99988)"]),
    );
  });

  it("holds another account's job out of reach: 403 is due, and the job's status answered to it fails", () => {
    const judge = oracle();
    const create = createStep("I-A", other, I_A);
    judge.judge(create, exchange(create.spec, 200, accepted, 1_000));
    const poll = pollStep("I-A", main, "img_1");
    const leaked = judge.judge(poll, exchange(poll.spec, 200, { status: "pending" }, 2_000));
    expect(leaked.problems.join()).toMatch(/answered 200 where 403/);
    expect(leaked.due).toEqual(["ownership"]);
    const refused = judge.judge(
      poll,
      exchange(poll.spec, 403, { error: { type: "permission_error", code: "forbidden", message: "no" } }, 3_000),
    );
    expect(refused.problems).toEqual([]);
  });

  it("lets another key of the account poll its jobs", () => {
    const judge = oracle();
    const create = createStep("I-A", other, I_A);
    judge.judge(create, exchange(create.spec, 200, accepted, 1_000));
    const poll = pollStep("I-A", second, "img_1");
    expect(judge.judge(poll, exchange(poll.spec, 200, { status: "starting" }, 2_000)).problems).toEqual([]);
    const refused = judge.judge(
      poll,
      exchange(poll.spec, 403, { error: { type: "permission_error", code: "x", message: "no" } }, 2_500),
    );
    expect(refused.problems.join()).toMatch(/answered 403/);
  });

  it("fails a create that answers an earlier job's id", () => {
    const judge = oracle();
    const create = createStep("I-A", other, I_A);
    judge.judge(create, exchange(create.spec, 200, accepted, 1_000));
    const again = judge.judge(create, exchange(create.spec, 200, accepted, 1_500));
    expect(again.problems.join()).toMatch(/the id of a job an earlier create started/);
  });

  it("sees a held price in the balance from the create, released when its job fails", () => {
    const judge = oracle();
    const audio = config.mediaInputs!.find((input) => input.kind === "audio" && input.seconds === 7.2)!;
    const body = {
      audio: audio.url,
      image: "https://files.example.com/face.png",
      prompt: `speak ${config.outcomeMarkers.failed}`,
    };
    const create = createStep("LS-A", other, body);
    const held = { id: "mtn_1", message: "Job accepted.", model: "ls-a", status: "pending", credits: 672, seconds: 8 };
    expect(judge.judge(create, exchange(create.spec, 200, held, 1_000)).problems).toEqual([]);
    const read = creditsStep(other);
    expect(judge.judge(read, exchange(read.spec, 200, balance(BALANCE - 672), 2_000)).problems).toEqual([]);
    const poll = pollStep("LS-A", other, "mtn_1");
    expect(judge.judge(poll, exchange(poll.spec, 200, { status: "failed" }, 3_000)).problems).toEqual([]);
    const kept = judge.judge(read, exchange(read.spec, 200, balance(BALANCE - 672), 4_000));
    expect(kept.problems.join()).toMatch(/where 100000 is due/);
  });

  it("explains a balance that charged every plain job of many in flight, some of them asked to fail or time out (CI's false verdict)", () => {
    // The jobs of the tour's first sequence when CI's load left eleven open at its credits read: six
    // plain ones (287 credits in all with the one seen succeeded) and five asked to fail or time out.
    const judge = oracle();
    const { failed, timeout } = config.outcomeMarkers;
    const jobs: Array<[string, Record<string, unknown>]> = [
      ["I-A", I_A],
      ["I-A", I_A],
      ["I-A", { prompt: `a lighthouse ${failed}` }],
      [
        "I-A",
        { prompt: "cat on sofa", num_images: 2, size: "2K", reference_images: ["https://files.example.com/c.png"] },
      ],
      ["I-A", { prompt: `a lighthouse ${timeout}` }],
      ["I-B", { prompt: "a boat", num_images: 1, quality: "low", size: "1K" }],
      ["I-B", { prompt: `a boat ${failed}`, size: "1K" }],
      ["I-B", { prompt: "a sky", image: "https://files.example.com/s.jpg", quality: "medium", size: "2K" }],
      ["I-B", { prompt: `a boat ${timeout}`, size: "1K" }],
      ["I-C", { prompt: "a greenhouse", background: "opaque", num_images: 2, size: "2K" }],
      ["I-C", { prompt: `a greenhouse ${failed}`, size: "1K" }],
      [
        "I-C",
        {
          prompt: "a mug",
          background: "transparent",
          reference_images: ["https://files.example.com/m.png"],
          num_images: 1,
          size: "1K",
        },
      ],
    ];
    for (const [index, [label, body]] of jobs.entries()) {
      const create = createStep(label, index % 2 ? second : other, body);
      const answer = { id: `img_${index}`, message: "Job accepted.", model: label.toLowerCase(), status: "pending" };
      expect(judge.judge(create, exchange(create.spec, 200, answer, 1_000 + index)).problems).toEqual([]);
    }
    const ended = pollStep("I-C", other, "img_11");
    expect(judge.judge(ended, exchange(ended.spec, 200, { status: "succeeded", images: [] }, 3_000)).problems).toEqual(
      [],
    );
    const read = creditsStep(other);
    expect(judge.judge(read, exchange(read.spec, 200, balance(BALANCE - 287), 4_000)).problems).toEqual([]);
  });

  it("charges a job an earlier sequence left running its price when it succeeds after the read that began this one (CI's false verdict)", () => {
    // The earlier sequence's oracle priced the job as its create was answered.
    const earlier = oracle();
    const create = createStep("I-A", other, I_A);
    earlier.judge(create, exchange(create.spec, 200, accepted, 1_000));
    expect(earlier.chargeOf("img_1")).toBe(12);
    expect(earlier.chargeOf("img_unknown")).toBe(0);
    const carried = { targetId: "img_1", create: op("I-A"), party: other, asked: null, held: 0, price: 12 };
    const judge = new Oracle(contract, config, parties, {
      balances: new Map([["other", BALANCE]]),
      at: 2_000,
      carried: [carried],
    });
    const read = creditsStep(second);
    expect(judge.judge(read, exchange(read.spec, 200, balance(BALANCE - 12), 3_000)).problems).toEqual([]);
    const poll = pollStep("I-A", other, "img_1");
    const verdict = judge.judge(poll, exchange(poll.spec, 200, { status: "processing" }, 4_000));
    expect(verdict.problems.join()).toMatch(/where the job ended succeeded/);
  });

  it("allows a rate-limited 429 at any time, without following it", () => {
    const judge = oracle();
    const read = creditsStep(other);
    const limited = { error: { type: "rate_limit_error", code: "rate_limited", message: "Retry in 3 seconds." } };
    const verdict = judge.judge(read, exchange(read.spec, 429, limited, 1_000, { "retry-after": "3" }));
    expect(verdict.problems).toEqual([]);
    expect(verdict.takenAs).toBe("rate limited");
  });

  it("refuses a queue-full 429 where the declared cap has room, and a spend-limit one on the account declared without one", () => {
    const judge = oracle();
    const create = createStep("I-A", other, I_A);
    const full = { error: { type: "rate_limit_error", code: "queue_full", message: "full" } };
    expect(judge.judge(create, exchange(create.spec, 429, full, 1_000)).problems.join()).toMatch(
      /answered 429 where 200/,
    );
  });
});
