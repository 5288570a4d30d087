/**
 * Requests per second of the sandbox and of the Prism mock (as `npm run mock` runs it, behind its
 * relay) on the same machine in one run, with the same client load: each loop creates an image job
 * and polls it three times, over keep-alive connections. Each server runs in its own process, the
 * load generator in this one.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../http-server/listen.ts";
import { startMock } from "../../mock/prism.ts";
import { loadServiceModel } from "../../model/service-model.ts";
import { drive, sender, type Send } from "../load.ts";
import type { Figure, Measurement } from "../measurement.ts";

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

/** The sandbox in its own process on CONFIG (its pid, to read its memory). */
export async function startSandboxProcess(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const file = join(mkdtempSync(join(tmpdir(), "bench-sandbox-")), "config.json");
  writeFileSync(file, JSON.stringify(CONFIG));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "sandbox/cli.ts", "--port", String(port), "--config", file],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("listening on") && resolve());
    child.once("exit", (code) => reject(new Error(`the sandbox exited (${code}) before listening`)));
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

/** Requests per second of create + polls loops against `url`. */
export async function requestsPerSecond(url: string): Promise<{ perSecond: number; failures: number }> {
  const model = loadServiceModel();
  const route = model.createRoutes.find(
    (candidate) => candidate.areaId === "image" && candidate.idType === "string" && candidate.family === null,
  )!;
  const pollPath = model.areas.find((area) => area.id === route.areaId)!.poll.path;
  const body = { prompt: "A lighthouse at dawn" };
  const send: Send = sender(url, KEY);
  const step = async () => {
    const created = await send("POST", route.path, body);
    const id = (created.json as { id?: string } | undefined)?.id ?? "unknown";
    const polls = [];
    for (let poll = 0; poll < POLLS_PER_CREATE; poll += 1)
      polls.push(await send("GET", pollPath.replace("{id}", encodeURIComponent(id))));
    return [created, ...polls];
  };
  await drive(WORKERS, WARM_UP_MS, () => true, step);
  const result = await drive(WORKERS, MEASURE_MS, () => true, step);
  return { perSecond: result.requests / result.seconds, failures: result.failures };
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
