/**
 * Honest reference servers: the sandbox configured differently wherever the specification leaves the
 * choice open, so that the conformance suite is shown to judge the rules and not the sandbox's own
 * habits. Against it the suite must pass, with and without a declaration
 * (tests/conformance/reference.conformance-test.ts, npm run test:conformance). What differs:
 * - a concurrency cap of 25 (the specification's cap starts at the plan's limit and rises);
 * - job ids after the area's prefix are 32 hex digits, not the sandbox's sequence;
 * - other error message texts, and an extra `request_id` field in every JSON object answered;
 * - request windows that start at each key's (and IP's) first request, not at multiples of their length;
 * - optionally, every answer delayed 200 to 500 ms with jitter (a latency proxy in front).
 * Jobs are charged at success while others run, as in the sandbox.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { loadServiceModel, type ServiceModel } from "../../../model/service-model.ts";
import { DEFAULT_CONFIG_FILE } from "../../../sandbox/config.ts";
import type { Call, Rule } from "../../../behaviour/rules.ts";
import { startSandbox, type Answer, type SandboxHooks } from "../../../sandbox/server.ts";
import type { ServiceState } from "../../../behaviour/state.ts";
import { fastSandboxConfig } from "../../support/fast-sandbox.ts";
import { FirstRequestWindows } from "./key-windows.ts";
import { startLatencyProxy, type Latency } from "./latency-proxy.ts";

/** The reference's concurrency cap on the main account: above the Ultra plan's starting 10. */
export const REFERENCE_CAP = 25;

export interface RunningReference {
  readonly url: string;
  close(): Promise<void>;
}

type Body = Record<string, unknown> & { error?: Record<string, unknown> };

const isObject = (value: unknown): value is Body =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Job ids: the reference's own after the area's prefix, mapped to the sandbox's both ways. */
class IdScheme {
  private readonly outward = new Map<string, string>();
  private readonly inward = new Map<string, string>();

  constructor(private readonly prefixes: readonly string[]) {}

  /** The reference's id for a sandbox id (ids without a known prefix stay as they are). */
  shown(id: string): string {
    const prefix = this.prefixes.find((candidate) => id.startsWith(candidate));
    if (prefix === undefined) return id;
    let mine = this.outward.get(id);
    if (!mine) {
      mine = `${prefix}${randomBytes(16).toString("hex")}`;
      this.outward.set(id, mine);
      this.inward.set(mine, id);
    }
    return mine;
  }

  /** The sandbox's id for an id the reference gave out; unknown ids stay as they are (and are not found). */
  internal(id: string): string {
    return this.inward.get(id) ?? id;
  }
}

function hooks(model: ServiceModel): SandboxHooks {
  const ids = new IdScheme(model.areas.flatMap((area) => (area.jobIdPrefix ? [area.jobIdPrefix] : [])));
  let keyWindows: FirstRequestWindows | undefined;
  let ipWindows: FirstRequestWindows | undefined;
  const windows: Rule = {
    name: "request-windows",
    check(call: Call, state: ServiceState) {
      const { perKey, perSourceIp, windowSeconds } = state.config.limits.requests;
      keyWindows ??= new FirstRequestWindows(perKey, windowSeconds * 1000);
      ipWindows ??= new FirstRequestWindows(perSourceIp, windowSeconds * 1000);
      const ip = ipWindows.hit(call.ip, call.now);
      const key = call.key !== null && state.accounts.byKey.has(call.key) ? keyWindows.hit(call.key, call.now) : null;
      call.window = key && key.remaining <= ip.remaining ? key : ip;
      const over = [key, ip].find((window) => window?.exceeded);
      return over
        ? state.responses.tooMany(
            "rate-limited",
            `Too many requests for this window; wait ${over.resetSeconds} s.`,
            over.resetSeconds,
          )
        : undefined;
    },
  };
  const alias: Rule = {
    name: "id-scheme",
    check(call) {
      const params = call.params as Record<string, string>;
      if (call.op.kind === "poll" && params.id !== undefined) params.id = ids.internal(params.id);
      return undefined;
    },
  };
  return {
    rules: (rules) => [alias, ...rules.map((rule) => (rule.name === windows.name ? windows : rule))],
    answer(answer: Answer, call, state) {
      if (!isObject(answer.body)) return answer;
      const body: Body = { ...answer.body, request_id: randomUUID() };
      if ((call?.op.kind === "create" || call?.op.kind === "poll") && typeof body.id === "string")
        body.id = ids.shown(body.id);
      // Its own words, but what the specification makes a message state stays: a wait's seconds.
      const wait = answer.headers?.[state.model.retryAfterHeader];
      if (isObject(body.error))
        body.error = {
          ...body.error,
          message: `The request was refused (${String(body.error.code)})${wait === undefined ? "" : `; wait ${wait} s`}.`,
        };
      return { ...answer, body };
    },
  };
}

/** The reference on 127.0.0.1, its jobs taking `jobSeconds` and, given `latency`, slow answers. */
export async function startReference({
  jobSeconds,
  latency,
}: {
  jobSeconds: number;
  latency?: Latency;
}): Promise<RunningReference> {
  const defaults = JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, "utf8")) as {
    accounts: Record<string, object>;
    jobs?: object;
  };
  const accounts = { ...defaults.accounts, demo: { ...defaults.accounts.demo, concurrency: REFERENCE_CAP } };
  const model = loadServiceModel();
  const sandbox = await startSandbox({
    config: fastSandboxConfig({ ...defaults, accounts } as { jobs?: object }, jobSeconds),
    model,
    hooks: hooks(model),
  });
  if (!latency) return sandbox;
  const proxy = await startLatencyProxy(sandbox.url, latency);
  return {
    url: proxy.url,
    close: async () => {
      await proxy.close();
      await sandbox.close();
    },
  };
}
