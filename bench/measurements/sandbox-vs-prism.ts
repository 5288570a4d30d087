/**
 * Requests per second of the sandbox and of the Prism mock (as `npm run mock` runs it, behind its
 * relay) on the same machine in one run, with the same client load: each loop creates an image job
 * and polls it three times, over keep-alive connections. Each server runs in its own process, the
 * load generator in this one.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../http-server/listen.ts";
import { startMock } from "../../mock/prism.ts";
import { loadServiceModel } from "../../model/service-model.ts";
import type { Exchange } from "../../conformance/http.ts";
import { drive, sender, type Send } from "../load.ts";
import { median, type Figure, type Measurement } from "../measurement.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WORKERS = 16;
const WARM_UP_MS = 1_000;
const MEASURE_MS = 5_000;
const POLLS_PER_CREATE = 3;
const KEY = "bench-key";

/** Limits far above the load, so every request is served rather than limited. */
const CONFIG = {
  accounts: {
    bench: { keys: [KEY], plan: "paid", credits: { monthlyLimit: 2_000_000_000, extra: 0 }, concurrency: 1_000_000 },
  },
  clock: { speed: 1_000 },
  limits: { requests: { perKey: 1_000_000_000, perSourceIp: 1_000_000_000 } },
};

/** A server of the project in a process of its own, started with `args` (a CLI that prints "listening on"). */
async function startServerProcess(
  args: readonly string[],
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", ...args, "--port", String(port)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("listening on") && resolve());
    child.once("exit", (code) => reject(new Error(`${args[0]} exited (${code}) before listening`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** The sandbox in its own process on CONFIG (its pid, to read its memory). */
export function startSandboxProcess(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const file = join(mkdtempSync(join(tmpdir(), "bench-sandbox-")), "config.json");
  writeFileSync(file, JSON.stringify(CONFIG));
  return startServerProcess(["sandbox/cli.ts", "--config", file]);
}

/** Linux's clock ticks per second, in which /proc states CPU time (`getconf CLK_TCK`). */
const CLOCK_TICKS = 100;

/** CPU seconds (user and system) a process and every process under it have spent so far, read from /proc. */
export function treeCpuSeconds(root: number): number {
  const processes = readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      // After the command's ")": state, ppid, ..., utime (the 12th), stime (the 13th).
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
      return [{ pid: Number(entry), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) }];
    } catch {
      return []; // a process that ended meanwhile
    }
  });
  const tree = new Set([root]);
  for (let grown = true; grown; ) {
    grown = false;
    for (const { pid, ppid } of processes)
      if (tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid);
        grown = true;
      }
  }
  return processes.filter(({ pid }) => tree.has(pid)).reduce((sum, { ticks }) => sum + ticks, 0) / CLOCK_TICKS;
}

/** Loops that each create an image job and poll it, against `url`. */
function loopStep(url: string): () => Promise<Exchange[]> {
  const model = loadServiceModel();
  const route = model.createRoutes.find(
    (candidate) => candidate.areaId === "image" && candidate.idType === "string" && candidate.family === null,
  )!;
  const pollPath = model.areas.find((area) => area.id === route.areaId)!.poll.path;
  const body = { prompt: "A lighthouse at dawn" };
  const send: Send = sender(url, KEY);
  return async () => {
    const created = await send("POST", route.path, body);
    const id = (created.json as { id?: string } | undefined)?.id ?? "unknown";
    const polls = [];
    for (let poll = 0; poll < POLLS_PER_CREATE; poll += 1)
      polls.push(await send("GET", pollPath.replace("{id}", encodeURIComponent(id))));
    return [created, ...polls];
  };
}

/** Requests per second of create + polls loops against `url`, over `measureMs` after `warmUpMs`. */
export async function requestsPerSecond(
  url: string,
  measureMs = MEASURE_MS,
  warmUpMs = WARM_UP_MS,
): Promise<{ perSecond: number; failures: number }> {
  const step = loopStep(url);
  if (warmUpMs > 0) await drive(WORKERS, warmUpMs, () => true, step);
  const result = await drive(WORKERS, measureMs, () => true, step);
  return { perSecond: result.requests / result.seconds, failures: result.failures };
}

/** Requests `url` answered in `ms` of the loops, and the CPU seconds the server's processes spent meanwhile. */
async function cpuPerRequest(url: string, pid: number, ms: number): Promise<number> {
  const before = treeCpuSeconds(pid);
  const { perSecond, failures } = await requestsPerSecond(url, ms, 0);
  if (failures > 0) throw new Error(`${url}: ${failures} requests answered other than 200`);
  return (treeCpuSeconds(pid) - before) / (perSecond * (ms / 1000));
}

/**
 * The sandbox's speed over the Prism mock's (as `npm run mock` runs it, front and Prism) as CPU
 * seconds per request, Prism's over the sandbox's: both running at once, each in processes of its
 * own, `rounds` alternating rounds of `roundMs` each (sandbox first) after a round of each, and the
 * median of the per-round ratios. CPU per request holds on a shared machine where requests per
 * second do not: on two loaded cores the load generator, not the sandbox, set the sandbox's rate.
 */
export async function prismCpuOverSandbox(
  rounds: number,
  roundMs: number,
  note?: (detail: string) => void,
): Promise<number> {
  const sandbox = await startSandboxProcess();
  try {
    const mock = await startServerProcess(["mock/cli.ts"]);
    try {
      await cpuPerRequest(sandbox.url, sandbox.pid, roundMs);
      await cpuPerRequest(mock.url, mock.pid, roundMs);
      const ratios: number[] = [];
      const perRequest: string[] = [];
      for (let round = 0; round < rounds; round += 1) {
        const ours = await cpuPerRequest(sandbox.url, sandbox.pid, roundMs);
        const theirs = await cpuPerRequest(mock.url, mock.pid, roundMs);
        ratios.push(theirs / ours);
        perRequest.push(`${(ours * 1e6).toFixed(0)}/${(theirs * 1e6).toFixed(0)}`);
      }
      note?.(`CPU µs per request, sandbox/Prism, by round: ${perRequest.join(", ")}`);
      return median(ratios);
    } finally {
      await mock.stop();
    }
  } finally {
    await sandbox.stop();
  }
}

/** The server's rate, then the server stopped, measured or not. */
async function rateThenStop(url: string, stop: () => Promise<void>): Promise<{ perSecond: number; failures: number }> {
  try {
    return await requestsPerSecond(url);
  } finally {
    await stop();
  }
}

export const sandboxVsPrism: Measurement = {
  name: "sandbox vs Prism mock",
  async run(): Promise<Figure[]> {
    const note = `create + ${POLLS_PER_CREATE} polls per loop, ${WORKERS} keep-alive connections, ${MEASURE_MS / 1000} s after ${WARM_UP_MS / 1000} s warm-up`;
    const sandbox = await startSandboxProcess();
    const ours = await rateThenStop(sandbox.url, () => sandbox.stop());
    const mock = await startMock({ snapshot: loadServiceModel().doc });
    const prism = await rateThenStop(mock.baseUrl, () => mock.stop());
    return [
      {
        label: "sandbox, requests per second",
        value: Math.round(ours.perSecond),
        unit: "req/s",
        note: `${note}; non-200: ${ours.failures}`,
      },
      {
        label: "Prism mock, requests per second",
        value: Math.round(prism.perSecond),
        unit: "req/s",
        note: `same load; non-200: ${prism.failures}`,
      },
      {
        label: "sandbox / Prism",
        value: Math.round((ours.perSecond / prism.perSecond) * 10) / 10,
        unit: "x",
        note: "goal: at least 10",
      },
    ];
  },
};
