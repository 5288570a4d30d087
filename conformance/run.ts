/**
 * One conformance run end to end: the target (the mock, started here, or an implementation), the
 * optional Prism validation proxy in front of it, the cost estimate and the budget, the checks
 * within the run's time limit, and the summary with the credits spent. A run that is interrupted
 * or out of time still returns its results.
 */
import { setMaxListeners } from "node:events";
import { STAGE, type Check } from "./check.ts";
import { CHECK_GROUPS, CHECKS } from "./checks/index.ts";
import { NoAnswer, type Client } from "./client.ts";
import {
  DECLARED_KEYS,
  DeclarationError,
  declaredKeys,
  keySource,
  MOCK_CONFIG,
  TARGET_DEFAULTS,
  readTargetConfig,
  suppliedRatesOf,
  type TargetConfig,
} from "./config.ts";
import { Contract } from "../contract/contract.ts";
import { stillRunning, type StillRunning } from "./jobs.ts";
import { checkBalances } from "./balance-preflight.ts";
import { describeEstimate, total, type PlannedSpend } from "./cost.ts";
import { resolveSettings } from "./generation/generated.ts";
import { nearMissRisk } from "./generation/plan.ts";
import { probeTarget } from "./probe.ts";
import { requirePrism, startMock, startProxy, type RunningPrism } from "../mock/prism.ts";
import { summarize, type Spent, type Summary } from "./report.ts";
import { balanceOf } from "./requests.ts";
import type { CheckResult } from "./results.ts";
import { Session } from "./session.ts";
import { escapeForTerminal, redactor, urlCredentials, withoutCredentials } from "./shown-text.ts";
import { runSuite } from "./suite.ts";
import { phaseOutcome } from "./checks/sequences.ts";
import { sequencesSummary, type SequencesSummary } from "./sequences/report.ts";

export interface RunOptions {
  /** Base URL of the implementation; the mock is started when omitted. */
  target?: string;
  /** Where the target came from (`--target`, `CONFORMANCE_TARGET`), for the start-up probe's message. */
  targetName?: string;
  /** Without a target: a mock already running with the contract's document (startMock), used instead of starting one, and left running. */
  mock?: RunningPrism;
  /** The main key; else the declaration's apiKey. */
  apiKey?: string;
  /** The target's declaration; read from `configFile` or the environment when omitted. */
  config?: TargetConfig;
  /** The declaration's file (`--config`), over CONFORMANCE_CONFIG. */
  configFile?: string;
  /** The command line's flags (parseArgs' values), over the declaration's file and variables. */
  flags?: Readonly<Record<string, unknown>>;
  /** Settings over the declaration's (the generated requests' seed and count). */
  overrides?: Partial<TargetConfig>;
  /** Run Prism as a validation proxy in front of the target (never in front of the mock). */
  proxy?: boolean;
  contract?: Contract;
  /** Stops the run (Ctrl-C); its reason is reported. */
  signal?: AbortSignal;
  /** Progress lines while the run goes. */
  progress?: (line: string) => void;
  /** Jobs an earlier run on this target left running (its report's `stillRunning`). */
  earlierJobs?: StillRunning;
  /** When an earlier run on this target used the freePool key's pool (its report's `freePoolUsedAt`). */
  earlierFreePoolUse?: number;
}

export interface RunOutcome {
  summary: Summary;
  results: CheckResult[];
}

/** The key curl lines name as $CONFORMANCE_API_KEY; the declaration's other keys get their own variables. */
function secrets(config: TargetConfig, apiKey: string): Record<string, string> {
  const declared = DECLARED_KEYS.flatMap((key) =>
    declaredKeys(key, config).flatMap(({ variable, value }) => (value ? [[variable, value] as const] : [])),
  );
  return { CONFORMANCE_API_KEY: apiKey, ...Object.fromEntries(declared) };
}

export async function runConformance(options: RunOptions, env: NodeJS.ProcessEnv = {}): Promise<RunOutcome> {
  const begun = Date.now();
  const given = options.contract ?? new Contract();
  const declared =
    options.config ??
    readTargetConfig(
      env,
      options.target ? TARGET_DEFAULTS : MOCK_CONFIG,
      given,
      CHECK_GROUPS,
      options.configFile,
      options.flags,
    );
  const overridden: TargetConfig = { ...declared, ...options.overrides };
  // One seed for the whole run (the generated requests and the sequences), chosen here when not given.
  const config: TargetConfig = {
    ...overridden,
    generated: { ...overridden.generated, ...resolveSettings(overridden.generated) },
  };
  // The target's own rates price the routes whose rates the description does not show.
  const contract = given.withRates(suppliedRatesOf(config, given));
  const apiKey = options.apiKey ?? config.apiKey ?? "conformance-key";
  const keys = secrets(config, apiKey);
  // Every key and credential the run holds is kept out of what it prints and writes.
  const redact = redactor([...Object.values(keys), ...urlCredentials(options.target)]);
  const progress = (line: string): void => options.progress?.(escapeForTerminal(redact(line)));
  const stop = new AbortController();
  // Every request, wait and job listens to it: thousands at once are expected, not a leak.
  setMaxListeners(0, stop.signal);
  const timer = setTimeout(
    () => stop.abort(`the run's time limit of ${config.timeoutSeconds} s passed (timeoutSeconds)`),
    config.timeoutSeconds * 1000,
  );
  const interrupt = (): void => stop.abort(String(options.signal?.reason ?? "interrupted"));
  options.signal?.addEventListener("abort", interrupt);
  if (options.signal?.aborted) interrupt();
  /** The Prism this run starts (the mock, or the proxy), stopped when the run ends however it ends. */
  let starting: Promise<RunningPrism> | undefined;
  // Filled in once the mock or the proxy listens.
  const transport = { sendUrl: options.target ?? "", targetUrl: options.target ?? "", secrets: keys };
  const session = new Session({
    contract,
    config,
    transport,
    apiKey,
    proxied: options.target !== undefined && options.proxy === true,
    signal: stop.signal,
    deadline: begun + config.timeoutSeconds * 1000,
    observe: (seen) => {
      for (const check of observers) check.observe?.(session, seen);
    },
    progress,
    redact,
    ...(options.earlierJobs ? { earlierJobs: options.earlierJobs } : {}),
    ...(options.earlierFreePoolUse !== undefined ? { earlierFreePoolUse: options.earlierFreePoolUse } : {}),
  });
  const observers = CHECKS.filter((check) => check.observe && session.runs(check.group));
  try {
    if (options.target) {
      await probeTarget(
        contract,
        options.target,
        apiKey,
        options.apiKey !== undefined ? "CONFORMANCE_API_KEY" : keySource(env, config),
        {
          name: options.targetName ?? "the target",
          shownUrl: withoutCredentials(options.target),
          limits: { maxBytes: config.maxAnswerBytes, timeoutMs: config.requestTimeoutSeconds * 1000 },
          shown: (text) => escapeForTerminal(redact(text)),
        },
      );
      checkBudget(session, progress);
      await checkBalances(session, CHECKS, progress);
    }
    if (options.target ? options.proxy === true : options.mock === undefined) {
      // Checked here, since the start's own refusal would surface only after the preparations.
      requirePrism(options.target ? "proxy" : "mock");
      starting = options.target
        ? startProxy({ upstream: options.target, snapshot: contract.doc })
        : startMock({ snapshot: contract.doc });
    }
    // Prism boots in its own process meanwhile.
    for (const check of CHECKS) if (session.runs(check.group)) check.prepare?.(session);
    const prism = starting ? await starting : options.target ? undefined : options.mock;
    const mock = options.target === undefined;
    transport.targetUrl = options.target ?? (prism as RunningPrism).baseUrl;
    transport.sendUrl = prism?.baseUrl ?? transport.targetUrl;
    const targetUrl = transport.targetUrl;
    const balance = mock
      ? null
      : await readBalance(session).catch((error: unknown) => {
          if (!(error instanceof NoAnswer)) throw error;
          session.results.fail(
            "cost",
            error.route,
            "the balance can be read before the run",
            error.message,
            session.curl(error.request),
          );
          return null;
        });
    let after: number | null = null;
    const measure: Check = {
      group: "cost",
      summary: "the balance after the run's charges",
      // Read before the final requests, whose Retry-After may stop the main key; nothing they send is charged.
      async run({ stage }) {
        await stage(STAGE.late);
        if (balance !== null) after = await readBalance(session);
      },
    };
    progress(
      `conformance of ${mock ? "the Prism mock" : withoutCredentials(targetUrl)}: ${CHECKS.length} check groups`,
    );
    await runSuite(session, [...CHECKS, measure]);
    if (stop.signal.aborted && options.signal?.aborted !== true) {
      session.results.fail("run", "*", "the run finishes within its time limit", String(stop.signal.reason));
    }
    const left = mock ? undefined : leftRunning(session.main, options.earlierJobs);
    const poolUsed = session.freePoolUsedAt ?? options.earlierFreePoolUse;
    const spent: Spent | undefined = mock
      ? undefined
      : { byQuote: total(session.spend.spent), measured: balance !== null && after !== null ? balance - after : null };
    const summary = summarize(
      mock ? `the Prism mock (${targetUrl})` : withoutCredentials(targetUrl),
      session.results.all,
      {
        seconds: (Date.now() - begun) / 1000,
        requests: session.requestsSent(),
        ...(stop.signal.aborted ? { stopped: escapeForTerminal(redact(String(stop.signal.reason))) } : {}),
        ...(spent ? { spent } : {}),
        ...(left ? { stillRunning: left } : {}),
        ...(poolUsed !== undefined ? { freePoolUsedAt: poolUsed } : {}),
        ...sequencesOf(session),
      },
    );
    return { summary, results: session.results.all };
  } finally {
    clearTimeout(timer);
    // Stops what still runs in the background (jobs nobody waits for).
    stop.abort("the run is over");
    options.signal?.removeEventListener("abort", interrupt);
    // A Prism that failed to start has stopped itself; one that started while a preparation threw is stopped here.
    await (await starting?.catch(() => undefined))?.stop();
  }
}

/** The sequence phase's figures and coverage, where it ran. */
function sequencesOf(session: Session): { sequences?: SequencesSummary } {
  const outcome = phaseOutcome(session);
  const generated = session.config.generated ?? {};
  return outcome
    ? { sequences: sequencesSummary(outcome, generated.seed ?? 0, generated.shard ?? { index: 1, count: 1 }) }
    : {};
}

/** The jobs this run's main key left running, with those an earlier run left that may still run. */
function leftRunning(client: Client, earlier: StillRunning | undefined): StillRunning | undefined {
  const own = stillRunning(client);
  const pending = earlier && earlier.until > Date.now() ? earlier : undefined;
  if (!own || !pending) return own ?? pending;
  return {
    jobs: own.jobs + pending.jobs,
    routes: [...new Set([...own.routes, ...pending.routes])],
    until: Math.max(own.until, pending.until),
  };
}

/** States what the run will spend; refuses to start when it could pass the declared budget. */
function checkBudget(session: Session, progress: (line: string) => void): void {
  const spends: PlannedSpend[] = CHECKS.filter(
    (check) => session.runs(check.group) && !check.blockedBy?.(session),
  ).flatMap((check) => check.spend?.(session) ?? []);
  for (const line of describeEstimate(spends)) progress(line);
  const risk = nearMissRisk(session);
  if (risk) progress(risk);
  const budget = session.config.budgetCredits;
  const estimate = total(spends);
  if (budget !== null && estimate.credits > budget) {
    throw new DeclarationError(
      `the run could spend ${estimate.atMost ? "up to " : ""}${estimate.credits} credits, past budgetCredits ${budget}: raise the budget, or narrow the run (areas, models, createExamples, skipGroups)`,
    );
  }
}

/** The main account's total_available, or null where the target does not show it. */
async function readBalance(session: Session): Promise<number | null> {
  if (!session.config.stateful) return null;
  const balance = await balanceOf(session, session.main);
  return typeof balance === "number" ? balance : null;
}
