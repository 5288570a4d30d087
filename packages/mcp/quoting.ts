/**
 * Every create is quoted before it is sent. The offline quote (generated/costs.ts, the description's
 * price tables) gives the standard price, which a plan's discounts only lower, so it is a safe
 * figure for the budget. Where it cannot price the request (a price the specification does not
 * show, or a media duration it needs and was not given), `POST /v1/cost` is asked. The
 * specification does not show that route's request shape: this server sends the shape the
 * sandbox reads, `{ model, body, media }`, and takes `credits` from the answer only when it is a
 * number; anything else leaves the price unknown, and a budget then refuses the create.
 */
import type { QuotingMediaServiceClient } from "../../generated/client.ts";
import { QuoteError, type Quote } from "../../generated/costs.ts";
import type { CatalogModel } from "./catalog.ts";

export interface CreateQuote {
  /** The credits the budget counts: the offline standard price, else the service's quote; null when neither is known. */
  readonly credits: number | null;
  /** Where `credits` comes from. */
  readonly source: "offline" | "service" | "unknown";
  /** Why `credits` is null. */
  readonly reason?: string;
  readonly offline: Quote;
  /** The service's answer to POST /v1/cost, when it was asked. */
  readonly service?: unknown;
}

/** The input is wrong for the price tables: its message names the field and the rule. */
export class QuoteInputError extends Error {}

type AnyArea = { quote(slug: string, body: unknown, media?: unknown): Quote };

export function offlineQuote(
  client: QuotingMediaServiceClient,
  model: CatalogModel,
  input: unknown,
  media: unknown,
): Quote {
  const area = (client as unknown as Record<string, AnyArea>)[model.area];
  if (!area) throw new Error(`the client has no area ${model.area}`);
  try {
    return area.quote(model.slug, input, media ?? undefined);
  } catch (error) {
    if (error instanceof QuoteError) throw new QuoteInputError(error.message);
    throw error;
  }
}

const numberOf = (answer: unknown): number | null => {
  const credits = (answer as { credits?: unknown } | null)?.credits;
  return typeof credits === "number" && Number.isFinite(credits) && credits >= 0 ? credits : null;
};

/**
 * The quote of a create: offline first; the service's when the offline one has no number, or when
 * `askService` (the quote tool's `online`). Errors of the service's quote are thrown as they are.
 */
export async function quoteCreate(
  client: QuotingMediaServiceClient,
  model: CatalogModel,
  input: unknown,
  media: unknown,
  askService = false,
): Promise<CreateQuote> {
  const offline = offlineQuote(client, model, input, media);
  if (offline.credits !== null && !askService) return { credits: offline.credits, source: "offline", offline };
  const quoteCost = client.quoteCost as unknown as (body: unknown) => Promise<unknown>;
  const service = await quoteCost({ model: model.slug, body: input, ...(media ? { media } : {}) });
  if (offline.credits !== null) return { credits: offline.credits, source: "offline", offline, service };
  const credits = numberOf(service);
  if (credits !== null) return { credits, source: "service", offline, service };
  const said = (service as { reason?: unknown } | null)?.reason;
  return {
    credits: null,
    source: "unknown",
    reason: `${offline.reason ?? "the offline quote has no price"}; POST /v1/cost answered no number of credits${typeof said === "string" ? ` (${said})` : ""}`,
    offline,
    service,
  };
}
