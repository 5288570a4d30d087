/**
 * Property-based HTTP fuzzing of the sandbox and the mock front: fast-check generates hostile
 * requests (hostile-requests.ts), each goes out over a raw socket, its answer is checked
 * (answer-requirements.ts), and a well-formed request must then still get its 200. Seeded: a failure
 * reports the seed, the shrunk request as a curl line and as exact bytes, and the problems.
 */
import { request as httpRequest } from "node:http";
import fc from "fast-check";
import { Contract } from "../contract/contract.ts";
import { startMock } from "../mock/prism.ts";
import { startSandbox } from "../sandbox/server.ts";
import { AnswerRequirements, type FuzzedServer } from "./answer-requirements.ts";
import {
  FUZZ_KEY,
  hostileRequests,
  incomplete,
  replayLines,
  requestBytes,
  type HostileRequest,
} from "./hostile-requests.ts";
import { rawExchange } from "./raw-http.ts";

/** The sandbox the fuzz runs against: one account with the fuzz key, and windows no run can fill. */
export const FUZZ_SANDBOX_CONFIG = {
  accounts: {
    fuzz: {
      keys: [FUZZ_KEY],
      plan: "paid",
      credits: { monthlyLimit: 1_000_000_000, extra: 0 },
      concurrency: 1_000_000,
    },
  },
  limits: { requests: { perKey: 1_000_000_000, perSourceIp: 1_000_000_000 }, uploads: { perAccount: 1_000_000_000 } },
};

export interface FuzzRun {
  readonly server: FuzzedServer;
  readonly runs: number;
  readonly seed: number;
  readonly milliseconds: number;
  /** The shrunk failing request's replay lines and problems, when a property failed. */
  readonly failure?: {
    readonly curl: string;
    readonly exact: string;
    readonly problems: string;
    readonly path: string;
  };
}

interface Target {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

async function startTarget(server: FuzzedServer, contract: Contract): Promise<Target> {
  if (server === "sandbox") {
    const sandbox = await startSandbox({ config: FUZZ_SANDBOX_CONFIG, model: contract.model });
    return { url: sandbox.url, port: sandbox.port, stop: () => sandbox.close() };
  }
  const mock = await startMock({ snapshot: contract.doc });
  return { url: mock.baseUrl, port: Number(new URL(mock.baseUrl).port), stop: () => mock.stop() };
}

/** A well-formed request the server must answer 200 after whatever came before. */
function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const outgoing = httpRequest(
      `${url}/v1/account/credits`,
      { headers: { authorization: `Bearer ${FUZZ_KEY}` }, agent: false, timeout: 10_000 },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode === 200));
      },
    );
    outgoing.on("timeout", () => outgoing.destroy());
    outgoing.on("error", () => resolve(false));
    outgoing.end();
  });
}

/** Runs `runs` hostile requests against a fresh `server`; seed defaults to a random one, always reported. */
export async function fuzz(
  server: FuzzedServer,
  {
    runs,
    seed = Date.now() ^ (Math.random() * 2 ** 31),
    contract = new Contract(),
    at,
    progress,
  }: {
    runs: number;
    seed?: number;
    contract?: Contract;
    /** A running server to fuzz (its base URL) instead of a fresh one; it must know FUZZ_KEY and not rate-limit the run. */
    at?: string;
    progress?: (line: string) => void;
  },
): Promise<FuzzRun> {
  // Said first, so that a run that never ends can still be replayed.
  progress?.(`fuzz ${server}: ${runs} requests, seed ${seed}`);
  const target = at
    ? { url: at, port: Number(new URL(at).port), stop: async () => {} }
    : await startTarget(server, contract);
  const required = new AnswerRequirements(contract, server, [FUZZ_KEY]);
  const started = performance.now();
  try {
    const property = fc.asyncProperty(hostileRequests(contract), async (request: HostileRequest) => {
      const answer = await rawExchange(target.port, requestBytes(request), {
        halfClose: incomplete(request),
        timeoutMs: 10_000,
      });
      const problems = required.problems(request, answer);
      if (!(await healthy(target.url)))
        problems.push("the next well-formed request (GET /v1/account/credits) got no 200");
      if (problems.length) throw new Error(problems.join("; "));
    });
    const details = await fc.check(property, { numRuns: runs, seed, endOnFailure: false });
    const milliseconds = performance.now() - started;
    if (!details.failed || !details.counterexample) return { server, runs: details.numRuns, seed, milliseconds };
    const [request] = details.counterexample;
    const problems =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    return {
      server,
      runs: details.numRuns,
      seed,
      milliseconds,
      failure: { ...replayLines(request, target.url), problems, path: details.counterexamplePath ?? "" },
    };
  } finally {
    await target.stop();
  }
}

/** The run as lines to print: a summary, and on failure the seed, the replay lines and the problems. */
export function report(run: FuzzRun): string[] {
  const rate = run.runs / (run.milliseconds / 1000);
  const head = `fuzz ${run.server}: ${run.runs} requests in ${(run.milliseconds / 1000).toFixed(1)} s (${rate.toFixed(0)}/s), seed ${run.seed}`;
  if (!run.failure) return [`${head}: no problem found`];
  return [
    `${head}: FAILED`,
    `  problems: ${run.failure.problems}`,
    `  replay (the server's port is that of this run; start one with npm run sandbox or npm run mock):`,
    `  ${run.failure.curl}`,
    `  exact bytes: ${run.failure.exact}`,
    `  reproduce: npm run fuzz -- --server ${run.server} --seed ${run.seed} --runs ${run.runs}`,
  ];
}
