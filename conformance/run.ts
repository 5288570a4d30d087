/**
 * One conformance run end to end: the target (the mock, started here, or CONFORMANCE_TARGET), the
 * Prism validation proxy in front of a real target, the suite, and the summary.
 */
import { MOCK_CONFIG, TARGET_DEFAULTS, readTargetConfig, type TargetConfig } from "./config.ts";
import { Contract } from "./contract.ts";
import { startMock, startProxy, type RunningPrism } from "./prism.ts";
import { summarize, type Summary } from "./report.ts";
import type { CheckResult } from "./results.ts";
import { runSuite } from "./suite.ts";

export interface RunOptions {
  /** Base URL of the implementation; the mock is started when omitted. */
  target?: string;
  apiKey?: string;
  /** The target's declaration; read from the environment when omitted. */
  config?: TargetConfig;
  /** Run Prism as a validation proxy in front of the target (never in front of the mock). */
  proxy?: boolean;
  contract?: Contract;
}

export interface RunOutcome {
  summary: Summary;
  results: CheckResult[];
}

export async function runConformance(options: RunOptions, env: NodeJS.ProcessEnv = {}): Promise<RunOutcome> {
  const contract = options.contract ?? new Contract();
  const config = options.config ?? readTargetConfig(env, options.target ? TARGET_DEFAULTS : MOCK_CONFIG, contract);
  const started: RunningPrism[] = [];
  try {
    const mock = options.target ? undefined : await startMock({ snapshot: contract.doc });
    if (mock) started.push(mock);
    const targetUrl = options.target ?? (mock as RunningPrism).baseUrl;
    const proxy = !mock && options.proxy !== false ? await startProxy({ upstream: targetUrl, snapshot: contract.doc }) : undefined;
    if (proxy) started.push(proxy);
    const transport = { sendUrl: proxy?.baseUrl ?? targetUrl, targetUrl, apiKey: options.apiKey ?? "conformance-key" };
    const results = await runSuite(contract, config, transport, proxy !== undefined);
    return { summary: summarize(mock ? `the Prism mock (${targetUrl})` : targetUrl, results.all), results: results.all };
  } finally {
    await Promise.all(started.map((prism) => prism.stop()));
  }
}
