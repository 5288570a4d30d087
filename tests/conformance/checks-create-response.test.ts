/**
 * The create-response check (conformance/checks/create-response.ts), which sends nothing of its own:
 * it reads every accepted create of the run. Specification, Create response: `status` is the
 * initial state (`pending`); motion-control and lip-sync responses add `credits` ("total job price,
 * seconds times the per-second rate") and `seconds` ("billed duration, rounded up"), and 3D responses
 * add `credits`. Its observer is shown the sandbox's honest answers, then answers written here,
 * priced by hand from the specification: LS-A 84 credits per second of audio, rounded up, 4-second
 * minimum; MC-A 130 credits per second of the reference video; D-B 1080 credits without texture.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createResponse } from "../../conformance/checks/create-response.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import type { CheckResult } from "../../conformance/results.ts";
import { templateOf } from "../../conformance/rules.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import { loadBundle } from "../../model/document.ts";
import { startSandbox } from "../../sandbox/server.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";
import { checkSession, jsonExchange } from "./support/check-session.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const defaults = sandboxDefaults();
const createOf = (label: string, of = contract) =>
  of.operations.find((op) => op.create?.label === label) as ContractOperation;
const LS_A = createOf("LS-A");
const MC_A = createOf("MC-A");
const D_B = createOf("D-B");
const V_B = createOf("V-B");
const I_A = createOf("I-A");
const POSTS = contract.byPath("post", "/v1/posts") as ContractOperation;

const STATUS = "the create response's status is the initial status";
const WITH_SECONDS = "credits and seconds agree with the price";
const CREDITS_ONLY = "credits agrees with the price";

const IMAGE = "https://media.example/face.png";
const AUDIO = "https://media.example/voice.mp3";
const VIDEO = "https://media.example/dance.mp4";

const sessionOf = (config: Partial<TargetConfig> = {}, of = contract, target = "http://127.0.0.1:9"): Session => {
  const session: Session = checkSession({
    contract: of,
    config: { ...declared, ...config },
    target,
    apiKey: declared.apiKey as string,
    observe: (session, seen) => createResponse.observe?.(session, seen),
  });
  return session;
};

/** Shows the check `op`'s request `body` answered `status` with `json`. */
function answered(session: Session, op: ContractOperation, body: unknown, json: unknown, status = 200): void {
  const exchange = jsonExchange(
    { method: "POST", path: op.path, headers: { "content-type": "application/json" }, body },
    status,
    json,
  );
  createResponse.observe?.(session, { client: session.main, op, exchange, options: {} });
}

const accepted = (fields: Record<string, unknown>) => ({
  id: "mtn_abc",
  message: "Job accepted.",
  model: "m",
  status: "pending",
  ...fields,
});

/** `route name -> [outcome, detail]` of the results. */
function judged(show: (session: Session) => void, config: Partial<TargetConfig> = {}, of = contract) {
  const session = sessionOf(config, of);
  show(session);
  return Object.fromEntries(
    session.results.all.map((result) => [
      `${result.route} ${result.name}`,
      result.detail === undefined ? [result.outcome] : [result.outcome, result.detail],
    ]),
  );
}

describe("the create-response check on the sandbox's creates", () => {
  it("passes the initial status and, at standard prices, credits and seconds agreeing with the quote", async () => {
    const sandbox = await startSandbox({ config: fastSandboxConfig(defaults) });
    try {
      const session = sessionOf({}, contract, sandbox.url);
      const creates: Array<[ContractOperation, Record<string, unknown>]> = [
        // 6.4 s of audio, billed 7 s: 588 credits.
        [LS_A, { image: IMAGE, audio: `${AUDIO}#duration=6.4` }],
        // 6 s of reference video: 780 credits.
        [MC_A, { image: IMAGE, video: `${VIDEO}#duration=6` }],
        [I_A, { prompt: "a lighthouse at dusk" }],
      ];
      for (const [op, body] of creates) {
        const spec = { method: "POST", path: op.path, headers: { ...session.main.authorized() }, body };
        const exchange = await session.main.send(op, {
          ...spec,
          headers: { ...spec.headers, "content-type": "application/json" },
        });
        expect(exchange.status, op.route).toBe(200);
      }
      const results = session.results.all.map((result: CheckResult) => [result.route, result.name, result.outcome]);
      expect(results).toEqual([
        [LS_A.route, STATUS, "pass"],
        [LS_A.route, WITH_SECONDS, "pass"],
        [MC_A.route, STATUS, "pass"],
        [MC_A.route, WITH_SECONDS, "pass"],
        [I_A.route, STATUS, "pass"],
      ]);
    } finally {
      await sandbox.close();
    }
  });

  it("names its results by templates of its rules", () => {
    expect(templateOf(createResponse, STATUS)).toBe(STATUS);
    expect(templateOf(createResponse, WITH_SECONDS)).toBe("{price} with the price");
    expect(templateOf(createResponse, CREDITS_ONLY)).toBe("{price} with the price");
    expect(createResponse.rules?.[STATUS]).toEqual(["resources.create-response.status-initial", "states.pending"]);
  });

  it("is summed up in conformance/README.md's table of check groups as in --help", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(
      `| \`create-response\` | ${createResponse.summary} |`,
    );
  });
});

describe("the create-response check fails figures other than the specification's", () => {
  it("fails a status other than pending", () => {
    const results = judged((session) =>
      answered(
        session,
        MC_A,
        { image: IMAGE, video: VIDEO },
        accepted({ status: "processing", credits: 780, seconds: 6 }),
      ),
    );
    expect(results[`${MC_A.route} ${STATUS}`]).toEqual(["fail", 'status is "processing", not "pending"']);
    expect(results[`${MC_A.route} ${WITH_SECONDS}`]).toEqual(["pass"]);
  });

  it("passes LS-A's 7 billed seconds at 588 credits (84 a second), and 4 seconds at 336 for 3 s of audio (the minimum)", () => {
    const results = judged((session) => {
      answered(session, LS_A, { image: IMAGE, audio: AUDIO }, accepted({ credits: 588, seconds: 7 }));
      answered(session, LS_A, { image: IMAGE, audio: AUDIO }, accepted({ credits: 336, seconds: 4 }));
    });
    expect(results[`${LS_A.route} ${WITH_SECONDS}`]).toEqual(["pass"]);
  });

  it("fails credits other than the quote, and billed seconds below the 4-second minimum", () => {
    const results = judged((session) =>
      answered(session, LS_A, { image: IMAGE, audio: AUDIO }, accepted({ credits: 252, seconds: 3 })),
    );
    expect(results[`${LS_A.route} ${WITH_SECONDS}`]).toEqual([
      "fail",
      "credits is 252, the quote 336 for 3 seconds; seconds is 3, but the price bills 4 seconds for it (rounded up, with the minimum)",
    ]);
  });

  it("fails billed seconds that are not rounded up to whole seconds", () => {
    // 6.4 s of reference video is billed 7 s: 910 credits.
    const results = judged((session) =>
      answered(session, MC_A, { image: IMAGE, video: VIDEO }, accepted({ credits: 910, seconds: 6.4 })),
    );
    expect(results[`${MC_A.route} ${WITH_SECONDS}`]).toEqual([
      "fail",
      "seconds is 6.4, but the price bills 7 seconds for it (rounded up, with the minimum)",
    ]);
  });

  it("fails a 3D response's credits other than the quote: D-B without texture is 1080", () => {
    const results = judged((session) => {
      answered(session, D_B, { image: IMAGE, texture: false }, accepted({ id: "3d-1", credits: 1600 }));
    });
    expect(results[`${D_B.route} ${CREDITS_ONLY}`]).toEqual(["fail", "credits is 1600, the quote 1080"]);
    expect(
      judged((session) =>
        answered(session, D_B, { image: IMAGE, texture: false }, accepted({ id: "3d-2", credits: 1080 })),
      )[`${D_B.route} ${CREDITS_ONLY}`],
    ).toEqual(["pass"]);
  });

  it("takes seconds as the billed duration only where the price is per second of one medium: not on D-B's", () => {
    const results = judged((session) =>
      answered(session, D_B, { image: IMAGE, texture: false }, accepted({ id: "3d-1", credits: 1600, seconds: 5 })),
    );
    expect(results[`${D_B.route} ${WITH_SECONDS}`]).toEqual(["fail", "credits is 1600, the quote 1080"]);
  });

  it("finds the billed seconds on the per-second line of a price that has other lines too", () => {
    // A description whose LS-A price adds a flat 10 credits before the audio's seconds: 10 + 7 x 84 = 598.
    const doc = structuredClone(loadBundle());
    const pricing = (doc.paths[LS_A.path]?.post as unknown as Record<string, { components: unknown[] }> | undefined)?.[
      "x-pricing"
    ];
    if (!pricing) throw new Error(`the description prices no ${LS_A.route}`);
    pricing.components.unshift({ label: "setup", rate: 10 });
    const variant = new Contract(doc);
    const results = judged(
      (session) =>
        answered(
          session,
          createOf("LS-A", variant),
          { image: IMAGE, audio: AUDIO },
          accepted({ credits: 598, seconds: 7 }),
        ),
      {},
      variant,
    );
    expect(results[`${LS_A.route} ${WITH_SECONDS}`]).toEqual(["pass"]);
  });
});

describe("what the create-response check judges", () => {
  it("judges only accepted creates whose body is an object: not another route, not a refusal, not a body that is no object", () => {
    const results = judged((session) => {
      answered(session, POSTS, { title: "x" }, accepted({ status: "posted", credits: 5 }));
      answered(session, LS_A, { image: IMAGE, audio: AUDIO }, { status: "failed", credits: 1, seconds: 1 }, 400);
      answered(session, MC_A, { image: IMAGE, video: VIDEO }, null);
      answered(session, D_B, { image: IMAGE }, "accepted");
    });
    expect(results).toEqual({});
  });

  it("states no status result where the response has no status, and no price result where it has no credits", () => {
    const results = judged((session) => {
      answered(session, I_A, { prompt: "p" }, { id: "img_1", message: "Job accepted.", model: "m" });
      answered(session, D_B, { image: IMAGE, texture: false }, { id: "3d-1", credits: 1080 });
    });
    expect(results).toEqual({ [`${D_B.route} ${CREDITS_ONLY}`]: ["pass"] });
  });

  it("skips the price where the account's prices are not standard, or the target is the mock", () => {
    const show = (session: Session) => answered(session, D_B, { image: IMAGE }, accepted({ id: "3d-1", credits: 7 }));
    expect(judged(show, { standardPrices: false })[`${D_B.route} ${CREDITS_ONLY}`]).toEqual([
      "skip",
      "the account's prices are not declared standard (standardPrices)",
    ]);
    expect(judged(show, { stateful: false, standardPrices: true })[`${D_B.route} ${CREDITS_ONLY}`]).toEqual([
      "skip",
      "the mock answers with a fixed example",
    ]);
    expect(judged(show, { stateful: false, standardPrices: false })[`${D_B.route} ${CREDITS_ONLY}`]).toEqual([
      "skip",
      "the mock answers with a fixed example",
    ]);
  });

  it("skips a price the description does not show, and one hanging on a duration the response does not state", () => {
    const results = judged((session) => {
      // V-B's rate per output second is not shown.
      answered(session, V_B, { prompt: "p", resolution: "720p", length_seconds: 5 }, accepted({ credits: 100 }));
      // LS-A's price hangs on the audio's seconds, which this response leaves out.
      answered(session, LS_A, { image: IMAGE, audio: AUDIO }, accepted({ credits: 336 }));
    });
    expect(results[`${V_B.route} ${CREDITS_ONLY}`]?.[0]).toBe("skip");
    expect(results[`${V_B.route} ${CREDITS_ONLY}`]?.[1]).toMatch(/^the request has no shown price \(.+\)$/);
    expect(results[`${LS_A.route} ${CREDITS_ONLY}`]).toEqual([
      "skip",
      "the price depends on a media duration the response does not state",
    ]);
  });
});
