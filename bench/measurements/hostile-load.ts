/**
 * The sandbox under a mixed hostile load, in its own process: its resident memory (RSS) and the p99
 * latency of well-formed requests before, during and after a phase that mixes valid requests,
 * invalid ones (no JSON Content-Type, malformed JSON, targets that once ended it), 32 concurrent
 * 60 MB bodies (half with a Content-Length, half chunked so only the body limit and the buffer
 * budget stop them) and 100 slow-loris sockets; then, in the same run, the sandbox's requests per
 * second beside bare Prism's (no front) on the same routes, as sandbox-vs-prism.ts loads them.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { freePort } from "../../http-server/listen.ts";
import { loadServiceModel } from "../../model/service-model.ts";
import { sender } from "../load.ts";
import type { Figure, Measurement } from "../measurement.ts";
import { requestsPerSecond, startSandboxProcess } from "./sandbox-vs-prism.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PRISM_CLI = fileURLToPath(new URL("../../node_modules/@stoplight/prism-cli/dist/index.js", import.meta.url));
const KEY = "bench-key";
const PHASE_MS = 4_000;
const WORKERS = 8;
const BIG_BODIES = 32;
const BIG_BODY_BYTES = 60 * 1024 * 1024;
const SLOW_SOCKETS = 100;

const rssMb = (pid: number): number => {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
};

const p99 = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? NaN) * 10) / 10;
};

/** Well-formed credit reads for `ms`, in WORKERS loops: each request's milliseconds. */
async function validLatencies(url: string, ms: number): Promise<number[]> {
  const send = sender(url, KEY);
  const end = performance.now() + ms;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        await send("GET", "/v1/account/credits");
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

/** One 60 MB body, written as fast as the sandbox takes it, until it answers or closes. */
function bigBody(url: string, path: string, chunked: boolean): Promise<number> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = {
      authorization: `Bearer ${KEY}`,
      "content-type": "application/json",
    };
    if (!chunked) headers["content-length"] = BIG_BODY_BYTES;
    const outgoing = request(`${url}${path}`, { method: "POST", headers, agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    outgoing.on("error", () => resolve(0));
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const write = () => {
      while (sent < BIG_BODY_BYTES) {
        sent += chunk.length;
        if (!outgoing.write(chunk)) return void outgoing.once("drain", write);
      }
      outgoing.end();
    };
    write();
  });
}

/** Invalid requests in a loop for `ms`: text/plain, malformed JSON, a target that once ended the sandbox. */
async function invalidLoad(url: string, path: string, ms: number): Promise<number> {
  const { port } = new URL(url);
  const end = performance.now() + ms;
  const bad = [
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}`,
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 3\r\n\r\n{"a`,
    "GET //x:99999 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
  ];
  let sent = 0;
  while (performance.now() < end) {
    const socket = connect(Number(port), "127.0.0.1");
    socket.on("error", () => {});
    socket.end(bad[sent % bad.length]!.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n"));
    socket.resume();
    await once(socket, "close");
    sent += 1;
  }
  return sent;
}

/** Sockets that send a header line now and then and never finish their request. */
function slowLoris(url: string): Socket[] {
  const { port } = new URL(url);
  return Array.from({ length: SLOW_SOCKETS }, () => {
    const socket = connect(Number(port), "127.0.0.1");
    socket.on("error", () => {});
    socket.write("GET /v1/account/credits HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    const timer = setInterval(() => socket.writable && socket.write("X-Slow: 1\r\n"), 500);
    socket.on("close", () => clearInterval(timer));
    return socket;
  });
}

async function startBarePrism(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      PRISM_CLI,
      "mock",
      `${ROOT}generated/openapi.yaml`,
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--no-multiprocess",
      "--no-cors",
    ],
    { stdio: "ignore" },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    const up = await new Promise<boolean>((resolve) =>
      request(`${url}/v1/account/credits`, { headers: { authorization: "Bearer k" } }, (response) =>
        resolve(response.resume() && true),
      )
        .on("error", () => resolve(false))
        .end(),
    );
    if (up) break;
    if (attempt > 600) throw new Error("bare Prism did not start within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    stop: async () => {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}

export const hostileLoad: Measurement = {
  name: "sandbox hostile load",
  async run(): Promise<Figure[]> {
    const model = loadServiceModel();
    const route = model.createRoutes.find(
      (candidate) => candidate.areaId === "image" && candidate.idType === "string" && candidate.family === null,
    )!;
    const sandbox = await startSandboxProcess();
    const figures: Figure[] = [];
    let ours: { perSecond: number; failures: number };
    try {
      await validLatencies(sandbox.url, 1_000);
      const before = { rss: rssMb(sandbox.pid), p99: p99(await validLatencies(sandbox.url, PHASE_MS)) };
      let peak = rssMb(sandbox.pid);
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(sandbox.pid))), 50);
      const slow = slowLoris(sandbox.url);
      const big = Array.from({ length: BIG_BODIES }, (_, index) => bigBody(sandbox.url, route.path, index % 2 === 1));
      const [during, invalid, statuses] = await Promise.all([
        validLatencies(sandbox.url, PHASE_MS),
        invalidLoad(sandbox.url, route.path, PHASE_MS),
        Promise.all(big),
      ]);
      for (const socket of slow) socket.destroy();
      clearInterval(sampler);
      const after = { rss: rssMb(sandbox.pid), p99: p99(await validLatencies(sandbox.url, PHASE_MS)) };
      const refused = statuses.filter((status) => status === 413 || status === 503).length;
      figures.push(
        {
          label: "RSS before",
          value: before.rss,
          unit: "MB",
          note: `p99 of credit reads: ${before.p99} ms (${WORKERS} keep-alive loops, ${PHASE_MS / 1000} s)`,
        },
        {
          label: "RSS peak under the hostile phase",
          value: peak,
          unit: "MB",
          note: `${BIG_BODIES} concurrent 60 MB bodies (half chunked; ${refused} answered 413/503, the rest closed), ${SLOW_SOCKETS} slow-loris sockets, ${invalid} invalid requests, valid loads beside; p99 of credit reads meanwhile: ${p99(during)} ms`,
        },
        { label: "RSS after", value: after.rss, unit: "MB", note: `p99 of credit reads: ${after.p99} ms` },
      );
      ours = await requestsPerSecond(sandbox.url);
    } finally {
      await sandbox.stop();
    }
    const prism = await startBarePrism();
    let theirs: { perSecond: number; failures: number };
    try {
      theirs = await requestsPerSecond(prism.url);
    } finally {
      await prism.stop();
    }
    figures.push(
      {
        label: "sandbox, requests per second",
        value: Math.round(ours.perSecond),
        unit: "req/s",
        note: `after the hostile phase; create + 3 polls per loop as in sandbox vs Prism mock; non-200: ${ours.failures}`,
      },
      {
        label: "bare Prism (no front), requests per second",
        value: Math.round(theirs.perSecond),
        unit: "req/s",
        note: `same load, same run; non-200: ${theirs.failures}`,
      },
      {
        label: "sandbox / bare Prism",
        value: Math.round((ours.perSecond / theirs.perSecond) * 10) / 10,
        unit: "x",
        note: "goal: at least 10",
      },
    );
    return figures;
  },
};
