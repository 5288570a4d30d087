/**
 * Starts the pinned Prism CLI (mock or validation proxy) as a child process bound to 127.0.0.1,
 * and resolves once it listens. A child process rather than an in-process instance: Prism's
 * libraries keep module-level state (Ajv caches, loggers), and a separate process is stopped cleanly.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { errorBody, HTTP_CODES } from "../http-server/error-codes.ts";
import { freePort, HOST } from "../http-server/listen.ts";
import { loadBundle } from "../model/document.ts";
import { IN_TOOLS_PACKAGE, runtimeFile } from "../tools/packaged.ts";
import { Contract } from "../contract/contract.ts";
import { startMockFront } from "./front.ts";
import { startChild } from "./prism-process.ts";

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
    const prism = await startPrism("mock", { ...options, port: prismPort });
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
  return startPrism("proxy", options, options.upstream);
}

/** Asked for the mock or the proxy where Prism is not installed: reported by its message alone. */
export class PrismUnavailableError extends Error {}

/** Throws where Prism is not installed (the tools package), before any work is spent on starting it. */
export function requirePrism(command: "mock" | "proxy", inToolsPackage = IN_TOOLS_PACKAGE): void {
  if (inToolsPackage) {
    throw new PrismUnavailableError(
      `the Prism ${command} is not part of the tools package (Prism is a development tool of the description's repository): run against an implementation with --target URL${command === "proxy" ? ", without --proxy" : ""}`,
    );
  }
}

/** The Node arguments that run Prism's `command` on `document` at `port` of 127.0.0.1, preloads first. */
export function prismArguments(command: "mock" | "proxy", document: string, port: number, upstream?: string): string[] {
  return [
    "--require",
    EXITS_WITH_PARENT,
    "--require",
    HOST_GUARD,
    PRISM_CLI,
    command,
    document,
    ...(upstream === undefined ? [] : [upstream]),
    "--host",
    HOST,
    "--port",
    String(port),
    // One process: the parent's stdin and signals reach the Prism that serves.
    "--no-multiprocess",
    // The mock's front answers CORS itself (front.ts); the proxy's callers are programs.
    "--no-cors",
  ];
}

/** What prism-host-guard.cjs reads from PRISM_HOST_GUARD: Prism's port, and the refusal of a Host that does not name it. */
export function hostGuard(port: number): string {
  const refusal = errorBody({
    ...HTTP_CODES.hostNotAllowed,
    message: `Host: must name this server, ${HOST}:${port} or localhost:${port}; a name resolving here is refused, as DNS rebinding would use one`,
  });
  return JSON.stringify({ port, body: JSON.stringify(refusal) });
}

async function startPrism(command: "mock" | "proxy", options: PrismOptions, upstream?: string): Promise<RunningPrism> {
  requirePrism(command);
  // A port asked for is tried first: a port in use is then said as such, not as Prism's exit.
  const port = await freePort(options.port);
  const snapshotDir = options.snapshot ? mkdtempSync(join(tmpdir(), "prism-snapshot-")) : undefined;
  const document = snapshotDir ? join(snapshotDir, "openapi.json") : (options.document ?? BUNDLE_YAML);
  if (snapshotDir) writeFileSync(document, JSON.stringify(options.snapshot));
  const child = await startChild({
    args: prismArguments(command, document, port, upstream),
    env: { ...process.env, PRISM_HOST_GUARD: hostGuard(port) },
    verbose: options.verbose ?? false,
    cleanup: () => {
      if (snapshotDir) rmSync(snapshotDir, { recursive: true, force: true });
    },
  });
  return { baseUrl: `http://${HOST}:${port}`, stop: child.stop };
}
