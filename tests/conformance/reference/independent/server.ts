/**
 * An independent honest implementation of the service, for the tests only: written from the
 * specification and the bundled description (routes from the service model, request schemas,
 * the published quote), sharing no code with the sandbox. It differs from the sandbox wherever the
 * specification leaves the choice open (README.md of this folder lists how), so that the
 * conformance suite is shown to judge the rules, not the sandbox's habits.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { loadServiceModel } from "../../../../model/service-model.ts";
import { Accounts, type Account } from "./accounts.ts";
import { listModels, publish, searchStock, upload, type CatalogModel } from "./catalog.ts";
import { Cooldowns } from "./cooldown.ts";
import { create, quoteCost, type Generation, type Route } from "./generation.ts";
import { JobIds } from "./ids.ts";
import { JobStore, type Durations } from "./jobs.ts";
import {
  forbidden,
  invalid,
  notAllowed,
  notFound,
  rateLimited,
  reply,
  send,
  unauthorized,
  type Reply,
} from "./replies.ts";
import { accountSettings } from "./setup.ts";
import { BodyValidator } from "./validation.ts";
import { FixedWindows, RollingWindow } from "./windows.ts";

export interface IndependentOptions {
  /** How long a job runs (random within the range); 200 to 800 ms by default. */
  readonly jobs?: Durations;
  /** The main account: standard prices, or an Ultra plan's discount and free image allowance. */
  readonly mainAccount?: "standard" | "discounted";
  /** The request limits; the specification's defaults (600 per key, 1200 per IP a minute) unless tuned. */
  readonly limits?: { readonly perKey: number; readonly perIp: number };
  /** The cooldown's pause; the specification's ten minutes unless shortened. */
  readonly cooldownPauseMs?: number;
}

export interface RunningIndependent {
  readonly url: string;
  close(): Promise<void>;
}

const MINUTE_MS = 60_000;
const UPLOADS_PER_MINUTE = 60;
/** Stock searches: the only routes the Free plan may call. */
const STOCK = new Map([
  ["/v1/stock/images", "images"],
  ["/v1/stock/sound-effects", "sound-effects"],
  ["/v1/stock/music", "music"],
]);

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SyntaxError("not JSON");
  }
}

const bearer = (header: string | undefined): string | null => /^Bearer ([\x21-\x7e]+)$/.exec(header ?? "")?.[1] ?? null;

export async function startIndependent(options: IndependentOptions = {}): Promise<RunningIndependent> {
  const model = loadServiceModel();
  const startedAt = Date.now();
  const accounts = new Accounts(accountSettings(options.mainAccount ?? "standard"));
  const keyWindows = new FixedWindows(options.limits?.perKey ?? 600, MINUTE_MS, startedAt);
  const ipWindows = new FixedWindows(options.limits?.perIp ?? 1200, MINUTE_MS, startedAt);
  const uploads = new RollingWindow(UPLOADS_PER_MINUTE, MINUTE_MS);
  const documented = Object.fromEntries(
    model.areas.flatMap((area) => (area.jobIdPrefix ? [[area.segment, area.jobIdPrefix]] : [])),
  );
  const generation: Generation = {
    validator: new BodyValidator(model.doc),
    jobs: new JobStore(options.jobs ?? { minMs: 200, maxMs: 800 }),
    ids: new JobIds(documented),
    cooldowns: new Cooldowns(options.cooldownPauseMs ?? 10 * MINUTE_MS),
    moderationReasons: model.errors.moderation.reasons,
  };
  const routes: Route[] = model.areas.flatMap((area) =>
    area.createRoutes.map((route) => ({
      ...route,
      segment: area.segment,
      schema: (model.doc.paths[route.path]!.post!.requestBody as { content: Record<string, { schema: object }> })
        .content["application/json"]!.schema,
    })),
  );
  const catalog: CatalogModel[] = routes.map((route) => ({
    slug: route.slug,
    label: route.label,
    path: route.path,
    segment: route.segment,
  }));
  const createByPath = new Map(routes.map((route) => [route.path, route]));
  const pollSegments = new Set(model.areas.map((area) => area.segment));
  const others = new Map(
    model.operations.filter((op) => op.kind === "other").map((op) => [op.path, op.method.toUpperCase()]),
  );

  async function answer(request: IncomingMessage, url: URL, account: Account | undefined, now: number): Promise<Reply> {
    if (!account) return unauthorized();
    const method = request.method ?? "GET";
    const path = url.pathname;
    const route = createByPath.get(path);
    const [, version, segment, id, extra] = path.split("/");
    const poll =
      version === "v1" &&
      segment !== undefined &&
      pollSegments.has(segment) &&
      id !== undefined &&
      extra === undefined &&
      !route;
    const allowed = route ? "POST" : (others.get(path) ?? (poll ? "GET" : undefined));
    if (!allowed) return notFound(`${method} ${path}`);
    if (method !== allowed) return notAllowed(allowed);
    const stock = STOCK.get(path);
    if (account.settings.plan === "free" && !stock)
      return forbidden(
        "Free-plan keys may call the stock searches only; upgrade to a paid plan for the rest of the API.",
      );
    if (stock) return searchStock(stock, url.searchParams, account);
    if (poll) {
      const job = generation.jobs.find(segment!, id!);
      if (!job) return notFound(`Job ${id}`);
      if (job.account !== account) return forbidden("This job belongs to another account.");
      return reply(200, generation.jobs.view(job, now));
    }
    if (path === "/v1/account/credits") return reply(200, account.credits());
    if (path === "/v1/models") return listModels(catalog, url.searchParams.get("type"));
    let body: unknown;
    try {
      body = await readBody(request);
    } catch {
      return invalid("the body is not JSON");
    }
    if (route) return create(generation, route, account, body, now);
    if (typeof body !== "object" || body === null || Array.isArray(body))
      return invalid("the body must be a JSON object");
    const fields = body as Record<string, unknown>;
    const problem = generation.validator.problem("post", path, body);
    if (problem) return invalid(problem);
    if (path === "/v1/cost") return quoteCost(generation, routes, account, fields);
    if (path === "/v1/posts") return publish(fields);
    const wait = uploads.take(account.settings.name, now);
    return wait > 0 ? rateLimited(wait) : upload(fields);
  }

  const server = createServer(async (request, response) => {
    const now = Date.now();
    const key = bearer(request.headers.authorization);
    const account = accounts.find(key);
    const ip = ipWindows.count(request.socket.remoteAddress ?? "?", now);
    const own = account ? keyWindows.count(key!, now) : undefined;
    const window = own && own.remaining < ip.remaining ? own : ip;
    const over = [own, ip].find((view) => view?.exceeded);
    let url: URL;
    try {
      url = new URL(request.url ?? "/", "http://independent.invalid");
    } catch {
      send(response, notFound("That path"), window);
      return;
    }
    let result: Reply;
    try {
      result = over ? rateLimited(over.reset) : await answer(request, url, account, now);
    } catch (error) {
      result = reply(500, { error: { type: "server_error", code: "internal", message: String(error) } });
    }
    if (!response.destroyed) send(response, result, window);
  });
  server.keepAliveTimeout = 0;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        generation.jobs.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
