/** Shared set-up of the client's behaviour tests: a scripted server, a client on it, fake timers. */
import { afterEach, beforeEach, expect, vi } from "vitest";
import {
  createClient,
  type AreaName,
  type MediaServiceClient,
  type QuotingMediaServiceClient,
} from "../../generated/client.ts";
import { quote } from "../../generated/costs.ts";
import type { ClientOptions } from "../../runtime/client/options.ts";
import { loadBundle } from "../../model/document.ts";
import { startServer, type Handler, type ScriptedServer } from "./scripted-server.ts";

export const API_KEY = "live_key_SECRET-PART-4711";

/** The body of one of the description's named examples (#/components/examples). */
export function example(name: string): unknown {
  const found = loadBundle().components.examples?.[name];
  if (!found) throw new Error(`no example ${name} in the description`);
  return found.value;
}

const servers: ScriptedServer[] = [];
/** Whether the running test's file called useFakeClock (its hooks close the servers started here). */
let guarded = false;

/**
 * Called at the top level of a test file: fakes the clock and Math.random for each of its tests,
 * and restores them and closes the test's scripted servers afterwards. (Test files share their
 * worker's modules, so these hooks are registered by each file, not when this module loads.)
 */
export function useFakeClock(): void {
  beforeEach(() => {
    guarded = true;
    // Only the clock and timeouts are fake; real I/O (and setImmediate) keeps running.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: 1_000_000 });
    // The middle of the backoff's jitter, so that resend times are the nominal 1 s, 2 s, 4 s.
    vi.spyOn(Math, "random").mockReturnValue(0.5);
  });
  afterEach(async () => {
    guarded = false;
    vi.useRealTimers();
    vi.restoreAllMocks();
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
}

/** A scripted server closed after the test; only in a file that called useFakeClock. */
async function scriptedServer(handle: Handler): Promise<ScriptedServer> {
  if (!guarded) throw new Error("a scripted server needs useFakeClock() at the top level of the test file");
  const server = await startServer(handle);
  servers.push(server);
  return server;
}

export async function clientOn(
  handle: Handler,
  options: Partial<ClientOptions<AreaName>> = {},
): Promise<{ server: ScriptedServer; client: MediaServiceClient }> {
  const server = await scriptedServer(handle);
  const client = createClient({ apiKey: API_KEY, baseUrl: server.baseUrl, fetch: server.fetch, ...options });
  return { server, client };
}

/** A client given the offline quote, on a scripted server. */
export async function quotingClientOn(
  handle: Handler,
): Promise<{ server: ScriptedServer; client: QuotingMediaServiceClient }> {
  const server = await scriptedServer(handle);
  return { server, client: createClient({ apiKey: API_KEY, baseUrl: server.baseUrl, fetch: server.fetch, quote }) };
}

export const created = (id: string) => ({
  status: 200,
  body: { id, message: "Job accepted.", model: "model-identifier", status: "pending" },
});
export const job = (status: string, extra: Record<string, unknown> = {}) => ({
  status: 200,
  body: { status, ...extra },
});
export const IMAGES = { images: [{ url: "https://files.example.com/img_1/0.png", position: 0 }] };

/** Lets an hour pass on the fake clock and checks that the client sent nothing more (no poll or timer left running). */
export async function expectNothingMoreSent(server: ScriptedServer): Promise<void> {
  const sent = server.requests.length;
  await vi.advanceTimersByTimeAsync(3_600_000);
  await new Promise<void>((resolve) => setImmediate(resolve));
  expect(server.requests).toHaveLength(sent);
}
