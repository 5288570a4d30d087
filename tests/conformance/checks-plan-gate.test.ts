/**
 * The plan-gate check (conformance/checks/plan-gate.ts) against the sandbox, its steps run on a
 * session of the test's own (so that the main account's creates come first, as the other checks'
 * do in a whole run, and every request's options are seen): the Free-plan key is answered on the
 * stock searches and refused 403 everywhere else, a poll of the main account's job included
 * (specification: "On the Free plan, keys may call only the stock searches"; 403 for the plan gate
 * and for ownership). The honest sandbox passes; planted faults fail the result they break, the
 * detail naming what was seen. Also the check's estimate, and what it needs declared.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { STAGE } from "../../conformance/check.ts";
import { planGate } from "../../conformance/checks/plan-gate.ts";
import type { Observed } from "../../conformance/client.ts";
import type { TargetConfig } from "../../conformance/config.ts";
import { validRequests } from "../../conformance/requests.ts";
import type { CheckResult } from "../../conformance/results.ts";
import type { Session } from "../../conformance/session.ts";
import { Contract, type ContractOperation } from "../../contract/contract.ts";
import type { OpenApiDocument } from "../../model/document.ts";
import type { SandboxConfig } from "../../sandbox/config.ts";
import { startSandbox, type SandboxHooks } from "../../sandbox/server.ts";
import { pricedPathOf } from "../client/labels.ts";
import { fastSandboxConfig } from "../support/fast-sandbox.ts";
import { wrap } from "./faults/support.ts";
import { sandboxDeclaration, sandboxDefaults } from "./support/sandbox-declaration.ts";
import { checkSession } from "./support/check-session.ts";

const contract = new Contract();
const declared = sandboxDeclaration(contract);
const defaults = sandboxDefaults();
const MAIN_KEY = declared.apiKey as string;
const FREE_KEY = declared.freePlanKey as string;

const FORBIDDEN = "403 for a Free-plan key";
/** The three routes the specification opens to the Free plan ("keys may call only the stock searches"). */
const STOCK = ["GET /v1/stock/images", "GET /v1/stock/sound-effects", "GET /v1/stock/music"];
const STOCK_ACCEPTED = "valid request (no body) with a Free-plan key accepted";
const NO_MAIN_JOB =
  "no create of the main account named a job id for this route, and the Free-plan account cannot create one";

const createOf = (label: string): ContractOperation =>
  contract.operations.find((op) => op.create?.label === label) as ContractOperation;
const pollRouteOf = (label: string): string => (contract.pollOf(createOf(label)) as ContractOperation).route;

/** A session of the test's own on `target` (nothing is sent unless the test sends it). */
function sessionOf(
  config: Partial<TargetConfig>,
  target = "http://127.0.0.1:9",
  observe: (session: Session, seen: Observed) => void = () => {},
  signal = new AbortController().signal,
  of = contract,
): Session {
  const session: Session = checkSession({
    contract: of,
    config: { ...declared, poll: { intervalMs: 50, timeoutSeconds: 3, stablePolls: 1 }, ...config },
    target,
    apiKey: MAIN_KEY,
    signal,
    observe,
  });
  return session;
}

interface GateRun {
  readonly results: CheckResult[];
  /** Every response of the run, with the options its request was sent with. */
  readonly seen: Observed[];
  /** The job ids the main account's creates were answered with, by label. */
  readonly mainIds: Record<string, unknown>;
}

/**
 * The sandbox (with `hooks`) after the main account creates a job of each of `creates` (labels; their
 * first example), then the plan-gate check's run, observing every response as a whole run does.
 */
async function gateRun(
  creates: string[],
  hooks: SandboxHooks = {},
  config: Partial<TargetConfig> = {},
): Promise<GateRun> {
  const sandbox = await startSandbox({ config: fastSandboxConfig(defaults, 0.05), hooks });
  const stop = new AbortController();
  const seen: Observed[] = [];
  try {
    const session = sessionOf(
      config,
      sandbox.url,
      (run, observed) => {
        seen.push(observed);
        planGate.observe?.(run, observed);
      },
      stop.signal,
    );
    const mainIds: Record<string, unknown> = {};
    for (const label of creates) {
      const op = createOf(label);
      const [request] = validRequests(session, op, session.main);
      const exchange = await session.main.send(op, request!.spec, { positive: true });
      mainIds[label] = (exchange.json as Record<string, unknown>)[op.create?.idField ?? "id"];
    }
    const stages: number[] = [];
    await planGate.run?.({
      session,
      stage: async (stage) => {
        stages.push(stage);
      },
      status: () => {},
    });
    // The polls wait for the other checks' creates: the late stage.
    expect(stages).toEqual([STAGE.late]);
    return { results: session.results.all, seen, mainIds };
  } finally {
    stop.abort();
    await sandbox.close();
  }
}

/** The results by route: each route's list of [name, outcome, detail]. */
function byRoute(results: CheckResult[]): Record<string, Array<[string, string, string | undefined]>> {
  const routes: Record<string, Array<[string, string, string | undefined]>> = {};
  for (const result of results) (routes[result.route] ??= []).push([result.name, result.outcome, result.detail]);
  return routes;
}

describe("the plan gate against the honest sandbox", () => {
  // The main account starts an I-G job (its create answers an integer job_id) and a V-G job.
  let run: GateRun;
  beforeAll(async () => {
    run = await gateRun(["I-G", "V-G"]);
  });

  it("the main account's creates named their jobs (I-G's by an integer job_id)", () => {
    expect(typeof run.mainIds["I-G"]).toBe("number");
    expect(typeof run.mainIds["V-G"]).toBe("string");
  });

  it("gives every operation exactly one result: the stock searches accepted, every other operation 403", () => {
    const polls = contract.operations.filter((op) => op.facts.kind === "poll").map((op) => op.route);
    const answered = [pollRouteOf("I-G"), pollRouteOf("V-G")];
    const expected = Object.fromEntries(
      contract.operations.map((op) => [
        op.route,
        STOCK.includes(op.route)
          ? [[STOCK_ACCEPTED, "pass", undefined]]
          : polls.includes(op.route) && !answered.includes(op.route)
            ? [[FORBIDDEN, "skip", NO_MAIN_JOB]]
            : [[FORBIDDEN, "pass", undefined]],
      ]),
    );
    expect(byRoute(run.results)).toEqual(expected);
  });

  it("polls the main account's jobs with the Free-plan key, by the ids their creates named", () => {
    const polled = run.seen
      .filter((seen) => seen.client.apiKey === FREE_KEY && seen.op.facts.kind === "poll")
      .map((seen) => seen.exchange.request.path);
    expect(polled.sort()).toEqual(
      [`/v1/images/${String(run.mainIds["I-G"])}`, `/v1/videos/${String(run.mainIds["V-G"])}`].sort(),
    );
  });

  it("sends the stock searches as valid requests (through the validation proxy when one runs), the refused ones not", () => {
    const free = run.seen.filter((seen) => seen.client.apiKey === FREE_KEY);
    const positive = free.filter((seen) => seen.options.positive === true).map((seen) => seen.op.route);
    expect(positive.sort()).toEqual([...STOCK].sort());
  });
});

describe("the plan gate against a sandbox that lets the Free plan through", () => {
  let run: GateRun;
  const imagesPoll = pollRouteOf("I-G");
  beforeAll(async () => {
    const freeAccount = (config: SandboxConfig): SandboxConfig => ({
      ...config,
      accounts: {
        ...config.accounts,
        free: { ...config.accounts.free!, credits: { monthlyLimit: 0, extra: 100_000 } },
      },
    });
    run = await gateRun(["I-G", "V-G", "DM-A"], {
      config: freeAccount,
      // The plan gate forgets D-A: the Free plan's key creates 3D models.
      rules: wrap(
        "plan-gate",
        (original) => (call, state) => (call.op.path === pricedPathOf("D-A") ? undefined : original(call, state)),
      ),
      answer: (answer, call, state) => {
        if (!call) return answer;
        // Posts answer the Free-plan key 404, not 403.
        if (call.key === FREE_KEY && call.op.path === "/v1/posts") return { ...answer, status: 404 };
        // An images poll serves any account's existing job, the Free plan's key included.
        if (call.key === FREE_KEY && call.op.path === "/v1/images/{id}" && state.jobs.get(call.params.id ?? ""))
          return { ...answer, status: 200 };
        if (call.key !== MAIN_KEY || answer.status !== 200) return answer;
        const body = answer.body as Record<string, unknown>;
        // V-G's create names its job with an empty id; DM-A's names none.
        if (call.op.path === pricedPathOf("V-G")) return { ...answer, body: { ...body, id: "" } };
        if (call.op.path === pricedPathOf("DM-A")) {
          const { id: _id, ...rest } = body;
          return { ...answer, body: rest };
        }
        return answer;
      },
    });
  });

  it("fails an operation the Free-plan key may not call that accepts it: the key may call only the Free plan's operations", () => {
    expect(byRoute(run.results)[createOf("D-A").route]).toEqual([
      [FORBIDDEN, "fail", "answered 200, not 403: a Free-plan key may call only the Free plan's operations"],
    ]);
  });

  it("fails an operation answering the Free-plan key another refusal than 403, naming its status", () => {
    expect(byRoute(run.results)["POST /v1/posts"]).toEqual([[FORBIDDEN, "fail", "answered 404, not 403"]]);
  });

  it("fails a poll that serves the main account's job to the Free-plan key: the plan gate and ownership both answer 403", () => {
    const id = String(run.mainIds["I-G"]);
    const [result] = run.results.filter((result) => result.route === imagesPoll);
    expect(result).toMatchObject({
      name: FORBIDDEN,
      outcome: "fail",
      detail: `answered 200, not 403, to a Free-plan key polling a job of another account (the main account's ${id}): the plan gate and ownership both answer 403`,
    });
    expect(result?.curl).toContain(`/v1/images/${id}`);
  });

  it("polls no job the Free-plan key started itself, nor a job its create named by an empty id or none", () => {
    const routes = byRoute(run.results);
    // D-A's job is the Free-plan account's own; V-G's id is empty; DM-A's create names none.
    for (const label of ["D-A", "V-G", "DM-A"])
      expect(routes[pollRouteOf(label)], label).toEqual([[FORBIDDEN, "skip", NO_MAIN_JOB]]);
  });
});

describe("the polls of the main account's jobs are skipped where they prove nothing", () => {
  const narrow = { areas: ["images"], models: ["I-A"] };

  it("skips them when freePlanKey is the main key: the main account's jobs are its own", async () => {
    const { results } = await gateRun(["I-A"], {}, { ...narrow, freePlanKey: MAIN_KEY });
    expect(results.filter((result) => result.route === pollRouteOf("I-A"))).toEqual([
      expect.objectContaining({
        name: FORBIDDEN,
        outcome: "skip",
        detail: "freePlanKey is the main key, so the main account's jobs are its own",
      }),
    ]);
  });

  it("skips them on a stateless target: its job ids name no job of an account", async () => {
    const { results } = await gateRun(["I-A"], {}, { ...narrow, stateful: false });
    expect(results.filter((result) => result.route === pollRouteOf("I-A"))).toEqual([
      expect.objectContaining({
        name: FORBIDDEN,
        outcome: "skip",
        detail: "the target is stateless: its job ids name no job of an account",
      }),
    ]);
  });
});

describe("what the plan-gate check needs and spends", () => {
  it("needs freePlanKey declared", () => {
    expect(planGate.blockedBy?.(sessionOf({ freePlanKey: undefined }))).toBe("the declaration gives no freePlanKey");
    expect(planGate.blockedBy?.(sessionOf({}))).toBeNull();
  });

  it("estimates one search of each stock route with the Free-plan key: 10 credits each", () => {
    // Specification: 10 credits per search, on each of the three stock routes.
    const spends = planGate.spend?.(sessionOf({})) ?? [];
    expect(spends.map((spend) => [spend.key, spend.what, spend.price.credits])).toEqual(
      STOCK.map((route) => ["free plan", `${route} (plan gate)`, 10]),
    );
  });

  it("estimates an operation open to the Free plan once (its first request), and leaves out one that is not priced", () => {
    // A description that also opens I-A's create and the (unpriced) model list to the Free plan.
    const doc = structuredClone(contract.doc) as OpenApiDocument & {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    doc.paths[pricedPathOf("I-A")]!.post!["x-free-plan"] = true;
    doc.paths["/v1/models"]!.get!["x-free-plan"] = true;
    const spends = planGate.spend?.(sessionOf({}, undefined, undefined, undefined, new Contract(doc))) ?? [];
    // I-A's first example, text-to-image at the default size (1K): 12 credits per image, one image.
    expect(spends.map((spend) => [spend.what, spend.price.credits])).toEqual([
      [`${createOf("I-A").route} (plan gate)`, 12],
      ...STOCK.map((route) => [`${route} (plan gate)`, 10]),
    ]);
  });

  it("its summary is the check's row of conformance/README.md", () => {
    expect(readFileSync("conformance/README.md", "utf8")).toContain(`| \`plan-gate\` | ${planGate.summary} |`);
  });
});
