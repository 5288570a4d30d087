/**
 * Starts the pinned Prism CLI (mock or validation proxy) as a child process bound to 127.0.0.1,
 * and resolves once it listens. A child process rather than an in-process instance: Prism's
 * libraries keep module-level state (Ajv caches, loggers), and a separate process is stopped cleanly.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { constants } from "node:os";
import { errorBody, HTTP_CODES } from "../http-server/error-codes.ts";
import { freePort, HOST } from "../http-server/listen.ts";
import { loadBundle } from "../model/document.ts";
import { IN_TOOLS_PACKAGE, runtimeFile } from "../tools/packaged.ts";
import { Contract } from "../contract/contract.ts";
import { startMockFront } from "./front.ts";

export const BUNDLE_YAML = runtimeFile("generated/openapi.yaml");
const PRISM_CLI = fileURLToPath(new URL("../node_modules/@stoplight/prism-cli/dist/index.js", import.meta.url));
const EXITS_WITH_PARENT = fileURLToPath(new URL("./prism-exits-with-parent.cjs", import.meta.url));
const HOST_GUARD = fileURLToPath(new URL("./prism-host-guard.cjs", import.meta.url));

export interface PrismOptions {
  /** Port to listen on; a free one when omitted. */
  port?: number;
  /** The description to serve; generated/openapi.yaml when omitted. */
  document?: string;
  /**
   * Serve this parsed description instead, from a private copy. Prism reloads a document file
   * whenever it changes, and other tools rebuild generated/ at any time, so a run that must not be
   * interrupted (and must serve the very document its checks read) uses a snapshot.
   */
  snapshot?: object;
  /** Echo Prism's own log to this process's stderr. */
  verbose?: boolean;
}

export interface MockOptions extends PrismOptions {
  /** Prism's own port behind the front; a free one when omitted. */
  prismPort?: number;
  /** Origins of pages allowed to call the mock besides the docs site at its default port; `null`: pages opened from disk. */
  allowedOrigins?: readonly string[];
}

export interface PrismProxyOptions extends PrismOptions {
  /** Base URL of the implementation Prism forwards to. */
  upstream: string;
}

export interface RunningPrism {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * The Prism mock of the description: every operation answers from its examples, requests are
 * validated. Prism listens on a private port behind the front of front.ts, which serves the
 * requested port.
 */
export async function startMock(options: MockOptions = {}): Promise<RunningPrism> {
  const contract = new Contract((options.snapshot as Contract["doc"] | undefined) ?? loadBundle());
  const prismPort = options.prismPort ?? (await freePort());
  // The front takes the port asked for first: a port in use is reported before Prism spends its start-up.
  const front = await startMockFront(
    contract,
    `http://${HOST}:${prismPort}`,
    options.port ?? 0,
    options.allowedOrigins,
  );
  try {
    const prism = await startPrism(["mock"], { ...options, port: prismPort });
    return { baseUrl: `http://${HOST}:${front.port}`, stop: () => front.close().then(prism.stop) };
  } catch (error) {
    await front.close();
    throw error;
  }
}

/**
 * Prism as a validation proxy in front of `upstream`: requests are forwarded, and every request or
 * response violation of the description is reported in the `sl-violations` response header.
 */
export function startProxy(options: PrismProxyOptions): Promise<RunningPrism> {
  return startPrism(["proxy"], options, options.upstream);
}

/** Asked for the mock or the proxy where Prism is not installed: reported by its message alone. */
export class PrismUnavailableError extends Error {}

/** Throws where Prism is not installed, before any work is spent on starting it. */
export function requirePrism(command: "mock" | "proxy"): void {
  if (IN_TOOLS_PACKAGE) {
    throw new PrismUnavailableError(
      `the Prism ${command} is not part of the tools package (Prism is a development tool of the description's repository): run against an implementation with --target URL${command === "proxy" ? ", without --proxy" : ""}`,
    );
  }
}

async function startPrism(
  command: ["mock" | "proxy"],
  options: PrismOptions,
  upstream?: string,
): Promise<RunningPrism> {
  requirePrism(command[0]);
  // A port asked for is tried first: a port in use is then said as such, not as Prism's exit.
  const port = await freePort(options.port);
  const snapshotDir = options.snapshot ? mkdtempSync(join(tmpdir(), "prism-snapshot-")) : undefined;
  const document = snapshotDir ? join(snapshotDir, "openapi.json") : (options.document ?? BUNDLE_YAML);
  if (snapshotDir) writeFileSync(document, JSON.stringify(options.snapshot));
  const removeSnapshot = (): void => {
    if (snapshotDir) rmSync(snapshotDir, { recursive: true, force: true });
  };
  const args = ["--require", EXITS_WITH_PARENT, "--require", HOST_GUARD, PRISM_CLI, ...command, document];
  if (upstream) args.push(upstream);
  args.push("--host", HOST, "--port", String(port), "--no-multiprocess", "--no-cors");
  // Prism's port refuses a Host that does not name it, in the front's words (prism-host-guard.cjs).
  const refusal = errorBody({
    ...HTTP_CODES.hostNotAllowed,
    message: `Host: must name this server, ${HOST}:${port} or localhost:${port}; a name resolving here is refused, as DNS rebinding would use one`,
  });
  const child = spawn(process.execPath, args, {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, PRISM_HOST_GUARD: JSON.stringify({ port, body: JSON.stringify(refusal) }) },
  });
  const baseUrl = `http://${HOST}:${port}`;
  const stopNow = (): void => {
    child.kill("SIGTERM");
    removeSnapshot();
  };
  leftRunning.add(stopNow);
  guardProcessExit();
  const stop = async (): Promise<void> => {
    await stopChild(child);
    removeSnapshot();
    leftRunning.delete(stopNow);
  };
  try {
    await listening(child, options.verbose ?? false);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, stop };
}

/** Prism children not stopped yet, each with a synchronous way to stop it. */
const leftRunning = new Set<() => void>();
let guarded = false;

/**
 * Stops every Prism child when this process ends first (an uncaught error, Ctrl-C, a CI job
 * cancelled with SIGTERM): otherwise the child outlives it and keeps its port. A signal with no
 * other listener ends the process as the default action would, after the cleanup.
 */
function guardProcessExit(): void {
  if (guarded) return;
  guarded = true;
  process.once("exit", () => {
    for (const stopNow of leftRunning) stopNow();
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      if (process.listenerCount(signal) === 0) process.exit(128 + constants.signals[signal]);
    });
  }
}

/** Resolves on Prism's "listening" line; rejects with its log if it exits first. */
function listening(child: ChildProcess, verbose: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = "";
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString();
      if (verbose) process.stderr.write(text);
      else if (log.length < 20_000) log += text;
      if (/Prism is listening on/.test(text)) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code, signal) =>
      reject(new Error(`Prism exited (${code ?? signal}) before listening:\n${log}`)),
    );
    child.once("error", reject);
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  // Prism normally exits on SIGTERM at once; SIGKILL only guards against a hung child.
  const guard = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(guard);
}
