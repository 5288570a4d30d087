/**
 * The sandbox's memory as jobs accumulate: 100,000 image jobs created over HTTP against an
 * in-process sandbox whose clock runs a day per second, so finished jobs expire as the
 * specification's file retention suggests; then the heap after a full garbage collection, and the
 * jobs still held. For scale, the heap each job costs while it is retained.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { loadServiceModel } from "../../model/service-model.ts";
import { ManualClock } from "../../sandbox/clock.ts";
import { startSandbox } from "../../sandbox/server.ts";
import { drive, sender } from "../load.ts";
import type { Figure, Measurement } from "../measurement.ts";

const JOBS = 100_000;
const RETAINED_SAMPLE = 20_000;
const WORKERS = 32;
const MAX_MS = 120_000;
const KEY = "bench-key";
const DAY_PER_SECOND = 86_400;

setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

const heapAfterGc = (): number => {
  collect();
  return process.memoryUsage().heapUsed;
};

async function createJobs(count: number, speed: number, clock?: ManualClock) {
  const model = loadServiceModel();
  const route = model.createRoutes.find(
    (candidate) => candidate.areaId === "image" && candidate.idType === "string" && candidate.family === null,
  )!;
  const sandbox = await startSandbox({
    model,
    ...(clock ? { clock } : {}),
    config: {
      accounts: {
        bench: {
          keys: [KEY],
          plan: "paid",
          credits: { monthlyLimit: 2_000_000_000, extra: 0 },
          concurrency: 1_000_000,
        },
      },
      clock: { speed },
      limits: { requests: { perKey: 1_000_000_000, perSourceIp: 1_000_000_000 } },
    },
  });
  const before = heapAfterGc();
  const send = sender(sandbox.url, KEY);
  const load = await drive(
    WORKERS,
    MAX_MS,
    (requests) => requests + WORKERS <= count,
    async () => [await send("POST", route.path, { prompt: "A lighthouse at dawn" })],
  );
  const after = heapAfterGc();
  const live = sandbox.state.jobs.size;
  // With a hand-driven clock, move past every retention and let one request expire the jobs: the heap they held.
  let cleared: number | null = null;
  if (clock) {
    clock.advance(366 * DAY_PER_SECOND * 1000);
    await send("GET", "/v1/account/credits");
    cleared = heapAfterGc();
  }
  await sandbox.close();
  return { before, after, cleared, live, load };
}

const mb = (bytes: number): number => Math.round((bytes / 1_048_576) * 10) / 10;

export const sandboxMemory: Measurement = {
  name: "sandbox memory",
  async run(): Promise<Figure[]> {
    const expiring = await createJobs(JOBS, DAY_PER_SECOND);
    const retained = await createJobs(RETAINED_SAMPLE, 1, new ManualClock(0));
    const perJob = (retained.after - retained.cleared!) / retained.live;
    return [
      {
        label: `heap after ${expiring.load.requests.toLocaleString("en")} jobs`,
        value: mb(expiring.after),
        unit: "MB",
        note: `heap before: ${mb(expiring.before)} MB; jobs still held: ${expiring.live}; clock at a day per second, so jobs expire about 1 s after they end; ${Math.round(expiring.load.requests / expiring.load.seconds)} creates/s in-process; non-200: ${expiring.load.failures}`,
      },
      {
        label: "heap per retained job",
        value: Math.round(perJob),
        unit: "bytes",
        note: `${retained.live.toLocaleString("en")} jobs held on a stopped clock, less the heap once they expired`,
      },
    ];
  },
};
