/**
 * Faults of the other routes (credits, models, cost, uploads, posts, stock) and what they answer:
 * per row of the specification's "Other routes" table that names a route (the catalogue's
 * `routes.*` rules whose words start with the method), that route not mounted; a stock search that
 * generates; credits as strings; a post's license refused; a route served without a key, or with
 * a key of another scheme than bearer.
 */
import {
  areaOf,
  bodyOf,
  CREDITS_AREA,
  family,
  MODEL,
  named,
  notFound,
  operationAt,
  replaced,
  rulesMatching,
  when,
  wrap,
  type CheckName,
  type Fault,
} from "./support.ts";

const ACCEPTED = "valid request {name} accepted";

/** Per "Other routes" row naming its route: the route answers 404 (its handler is not mounted). */
export const UNMOUNTED_ROUTES = family(
  rulesMatching(/^routes\./)
    .filter((rule) => /^(GET|POST) \/v1\//.test(rule.words))
    .map((rule) => {
      const operation = operationAt(rule.openapi?.[0] ?? "");
      if (!operation || !rule.words.startsWith(operation.route))
        throw new Error(`${rule.id}: its pointer does not name the route its words start with`);
      return [
        `route-not-mounted:${rule.id.replace(/^routes\./, "")}`,
        {
          breaks: [rule.id],
          bug: `${operation.route} is not mounted: it answers 404`,
          areas: [areaOf(operation.path)],
          answer: when(
            (_answer, call) => call?.op.path === operation.path && call.op.method === operation.method,
            (answer, _call, state) => replaced(answer, notFound(state, operation.route)),
          ),
        } satisfies Fault,
        named("operations", ACCEPTED, undefined, operation.route),
      ] as const;
    }),
);

const stock = MODEL.operations.filter((op) => op.freePlan);
const stockImages = stock[0];
const credits = MODEL.operations.find((op) => op.operationId === MODEL.account.creditsOperationId);
/** The route the license rule's pointer names (POST /v1/posts). */
const posts = operationAt(rulesMatching(/^resources\.post\.license$/)[0]?.openapi?.[0] ?? "");
if (!stockImages || !credits || !posts) throw new Error("the description lacks the stock, credits or posts route");
const routeOf = (op: { method: string; path: string }): string => `${op.method.toUpperCase()} ${op.path}`;
const isStock = (path: string | undefined): boolean => stock.some((op) => op.path === path);

export const ROUTE_FAULTS = {
  "stock-search-generates": {
    breaks: ["routes.stock-only-search"],
    bug: "a stock search fills its page by generating images, and charges that generation as a second search",
    areas: [areaOf(stockImages.path), CREDITS_AREA, "images"],
    rules: wrap("price", (original) => (call, state) => {
      const reply = original(call, state);
      if (!reply && isStock(call.op.path) && call.quote?.credits != null)
        call.quote = { ...call.quote, credits: call.quote.credits * 2 };
      return reply;
    }),
  },
  "credits-as-strings": {
    breaks: ["resources.credits.integer-fields"],
    bug: 'the credits fields are sent as decimal strings ("1000"), as a decimal type serializes',
    areas: [areaOf(credits.path)],
    answer: when(
      (answer, call) => call?.op.operationId === credits.operationId && answer.status === 200,
      (answer) => ({
        ...answer,
        body: Object.fromEntries(Object.entries(bodyOf(answer)).map(([field, value]) => [field, String(value)])),
      }),
    ),
  },
  "post-license-cc-by-refused": {
    breaks: ["resources.post.license"],
    bug: "a post with license cc-by is refused with 422: the handler knows only arr and cc0",
    areas: [areaOf(posts.path)],
    answer: when(
      (_answer, call) =>
        call?.op.path === posts.path &&
        call.op.method === posts.method &&
        (call.body as { license?: unknown })?.license === "cc-by",
      (answer, _call, state) =>
        replaced(
          answer,
          state.responses.error(
            422,
            state.model.errors.invalidRequest.type,
            "invalid_license",
            "body.license: must be arr or cc0",
          ),
        ),
    ),
  },
  "credits-route-without-key": {
    breaks: ["auth.bearer-on-every-request"],
    bug: `${routeOf(credits)} is mounted before the authentication middleware: without a key it answers as the first paid account`,
    areas: [areaOf(credits.path)],
    rules: wrap("authentication", (original) => (call, state) => {
      if (call.key !== null || call.op.operationId !== credits.operationId) return original(call, state);
      call.account = [...state.accounts.byName.values()].find((account) => account.config.plan !== "free") ?? null;
      return undefined;
    }),
  },
  "basic-scheme-accepted": {
    breaks: ["auth.http-bearer"],
    bug: "an Authorization header of the Basic scheme passes authentication (a leftover basic-auth middleware), as the first paid account",
    areas: [areaOf(credits.path)],
    rules: wrap("authentication", (original) => (call, state) => {
      if (call.key !== null || !/^Basic\s/i.test(call.authorization ?? "")) return original(call, state);
      call.account = [...state.accounts.byName.values()].find((account) => account.config.plan !== "free") ?? null;
      return undefined;
    }),
  },
} satisfies Record<string, Fault>;

export const ROUTE_CATCHES: Record<keyof typeof ROUTE_FAULTS, CheckName> = {
  "stock-search-generates": named(
    "billing",
    "a search priced per request is charged its price",
    undefined,
    routeOf(stockImages),
  ),
  "credits-as-strings": named("operations", ACCEPTED, undefined, routeOf(credits)),
  "post-license-cc-by-refused": named("operations", ACCEPTED, undefined, posts.route),
  "credits-route-without-key": named("auth", "401 for {case}", "401 for no Authorization header", routeOf(credits)),
  "basic-scheme-accepted": named(
    "auth",
    "401 for {case}",
    "401 for malformed Authorization header (Basic scheme)",
    routeOf(credits),
  ),
};
