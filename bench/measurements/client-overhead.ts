/**
 * What the typed client adds per call to bare openapi-fetch: the same GET through both, answered by
 * an in-memory fetch, each side in a process of its own (client-call-side.ts), in alternating
 * rounds; the figure is the median of the per-round ratios, so that a slow moment of a shared
 * machine falls on both sides.
 */
import { fork, type ChildProcess } from "node:child_process";
import { median, type Figure, type Measurement } from "../measurement.ts";
import { CLIENT_CALLS, type ClientCall, type Side } from "./client-call-side.ts";

export { CLIENT_CALLS, type ClientCall };

/** A process making `call` through `side` (client-call-side.ts); `round` runs one round of calls in it. */
interface SideProcess {
  /** One round of `calls` calls: milliseconds per call. */
  round(calls: number): Promise<number>;
  child: ChildProcess;
}

async function sideProcess(side: Side, call: ClientCall): Promise<SideProcess> {
  const child = fork(new URL("./client-call-side.ts", import.meta.url), [side, call], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  // One answer awaited at a time: the side answers each message with one.
  let pending: { resolve: (message: unknown) => void; reject: (error: Error) => void } | null = null;
  const next = () => new Promise<unknown>((resolve, reject) => (pending = { resolve, reject }));
  child.on("message", (message) => pending?.resolve(message));
  child.on("exit", (code) => pending?.reject(new Error(`the ${side} side of ${call} exited (${code}) mid-comparison`)));
  if ((await next()) !== "ready") throw new Error(`the ${side} side of ${call} did not start`);
  return {
    child,
    async round(calls) {
      const answer = next();
      child.send({ calls });
      return (await answer) as number;
    },
  };
}

/**
 * `call`'s time through the client against bare openapi-fetch, each side in a process of its own:
 * the median of `rounds` alternating rounds of `calls` calls each (bare first), after `warmUps`
 * rounds that do not count, and the client's median time per call in milliseconds.
 */
export async function clientOverhead(
  call: ClientCall,
  rounds: number,
  calls: number,
  warmUps: number,
): Promise<{ ratio: number; clientMs: number }> {
  const sides = await Promise.all([sideProcess("bare", call), sideProcess("client", call)]);
  const [bare, client] = sides;
  try {
    // V8 keeps recompiling both paths for several thousand calls: rounds measured meanwhile swing
    // from half to twice the settled ratio, so they do not count.
    for (let warmUp = 0; warmUp < warmUps; warmUp += 1) {
      await bare.round(calls);
      await client.round(calls);
    }
    const ratios: number[] = [];
    const clientTimes: number[] = [];
    for (let counted = 0; counted < rounds; counted += 1) {
      const bareTime = await bare.round(calls);
      const clientTime = await client.round(calls);
      ratios.push(clientTime / bareTime);
      clientTimes.push(clientTime);
    }
    return { ratio: median(ratios), clientMs: median(clientTimes) };
  } finally {
    for (const side of sides) side.child.kill();
  }
}

const ROUNDS = 41;
const CALLS_PER_ROUND = 4_000;
/** 16,000 calls a side before the first round counts (V8 settles within about 15,000). */
const WARM_UPS = 4;

export const clientOverheadMeasurement: Measurement = {
  name: "client per-call overhead",
  async run(): Promise<Figure[]> {
    const figures: Figure[] = [];
    for (const call of CLIENT_CALLS) {
      const { ratio, clientMs } = await clientOverhead(call, ROUNDS, CALLS_PER_ROUND, WARM_UPS);
      figures.push({
        label: `${call}: time against bare openapi-fetch`,
        value: Math.round(ratio * 1000) / 1000,
        unit: "x",
        note: `median of ${ROUNDS} alternating rounds of ${CALLS_PER_ROUND.toLocaleString("en")} calls, after ${WARM_UPS} uncounted; goal at most 1.1x`,
      });
      figures.push({
        label: `${call}: time per call, in-memory fetch`,
        value: Math.round(clientMs * 10_000) / 10,
        unit: "µs",
      });
    }
    return figures;
  },
};
