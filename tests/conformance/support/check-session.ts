/**
 * A session of a test's own, for calling one check's parts directly (its `observe`, `run`,
 * `blockedBy`, `spend`) rather than through a whole run: what tests/conformance/checks-*.test.ts share.
 */
import type { TargetConfig } from "../../../conformance/config.ts";
import type { Observed } from "../../../conformance/client.ts";
import type { Exchange } from "../../../conformance/http.ts";
import { Session } from "../../../conformance/session.ts";
import type { Contract } from "../../../contract/contract.ts";

/** Where nothing answers: the address of a target a test never reaches. */
export const NOWHERE = "http://127.0.0.1:9";

export interface CheckSessionOptions {
  readonly contract: Contract;
  readonly config: TargetConfig;
  /** Where requests go; NOWHERE by default. */
  readonly target?: string;
  /** Where the requests the description holds invalid go (the target behind a validation proxy at `target`); else `target`. */
  readonly targetUrl?: string;
  /** Whether a validation proxy is meant to sit at `target`; by default, where `targetUrl` differs. */
  readonly proxied?: boolean;
  /** The main key; the declaration's by default. */
  readonly apiKey?: string;
  readonly signal?: AbortSignal;
  /** Milliseconds the session may run, from now: a bound on a hang, not a timed assertion. */
  readonly deadlineMs?: number;
  /** What sees every response, as a check's `observe` does. */
  readonly observe?: (session: Session, seen: Observed) => void;
}

export function checkSession(options: CheckSessionOptions): Session {
  const target = options.target ?? NOWHERE;
  const targetUrl = options.targetUrl ?? target;
  const session: Session = new Session({
    contract: options.contract,
    config: options.config,
    transport: { sendUrl: target, targetUrl, secrets: {} },
    apiKey: options.apiKey ?? (options.config.apiKey as string),
    proxied: options.proxied ?? targetUrl !== target,
    signal: options.signal ?? new AbortController().signal,
    deadline: Date.now() + (options.deadlineMs ?? 20_000),
    observe: (seen) => options.observe?.(session, seen),
    progress: () => {},
  });
  return session;
}

/** An answer with a JSON body, made up for a check's `observe`: `request` answered `status` with `json` now. */
export function jsonExchange(request: Exchange["request"], status: number, json: unknown): Exchange {
  return {
    request,
    sentAt: Date.now(),
    receivedAt: Date.now(),
    status,
    headers: new Headers({ "content-type": "application/json" }),
    text: JSON.stringify(json),
    json,
    violations: [],
  };
}
