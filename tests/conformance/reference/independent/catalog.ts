/**
 * The independent server's routes other than creates and polls, in shapes of its own where the
 * specification shows none: the model list, the cost quote (`{model, request, seconds?}`), uploads
 * (`{content, filename?}`), posts (which need a `media_url`), and stock searches paged by `page`
 * and `per_page` (at most 20 a page).
 */
import { randomBytes } from "node:crypto";
import { priceTables } from "../../../../generated/costs.ts";
import type { Account } from "./accounts.ts";
import { invalid, reply, type Reply } from "./replies.ts";

type Body = Record<string, unknown>;

export interface CatalogModel {
  readonly slug: string;
  readonly label: string;
  readonly path: string;
  /** The path segment after /v1 (`images`, `depth-maps`). */
  readonly segment: string;
}

const TYPES: Readonly<Record<string, string>> = {
  images: "image",
  videos: "video",
  audios: "audio",
  "3d": "3d",
  "motion-control": "motion-control",
  "lip-sync": "lip-sync",
  "depth-maps": "video-depth",
  "video-upscales": "video-upscale",
};

type Component = {
  label: string;
  rate?: number;
  rateBy?: { fields: readonly string[]; table: Record<string, unknown> };
};

function listed(model: CatalogModel): Record<string, unknown> {
  const pricing =
    (priceTables as Record<string, { pricing: { components: readonly Component[] } | null }>)[model.path]?.pricing ??
    null;
  const byField = (field: string) =>
    pricing?.components.find(
      (component) => component.rateBy?.fields.length === 1 && component.rateBy.fields[0] === field,
    )?.rateBy?.table;
  const entry: Record<string, unknown> = {
    slug: model.slug,
    name: model.label,
    type: TYPES[model.segment] ?? model.segment,
    endpoint: model.path,
  };
  const resolution = byField("resolution");
  if (resolution) entry.resolution_pricing = resolution;
  const size = byField("size");
  if (model.segment === "depth-maps" && size) entry.size_pricing = size;
  if (pricing) entry.components = pricing.components;
  return entry;
}

export function listModels(models: readonly CatalogModel[], type: string | null): Reply {
  const data = models.map(listed).filter((entry) => type === null || entry.type === type);
  return reply(200, { object: "list", count: data.length, data });
}

const UPLOAD_HOST = "https://uploads.independent.invalid";

export function upload(body: Body): Reply {
  if (typeof body.content !== "string" || body.content.length === 0)
    return invalid('an upload needs "content": a data URI or base64 text');
  const name = typeof body.filename === "string" && /^[\w.-]{1,80}$/.test(body.filename) ? body.filename : "file.bin";
  return reply(200, {
    upload_url: `${UPLOAD_HOST}/${randomBytes(9).toString("base64url")}/${name}`,
    expires_in_seconds: 86_400,
  });
}

export function publish(body: Body): Reply {
  if (typeof body.media_url !== "string") return invalid('a post needs "media_url", the media to publish');
  return reply(200, {
    post_id: `post-${randomBytes(6).toString("hex")}`,
    license: body.license ?? "arr",
    media_url: body.media_url,
  });
}

const PAGE_MAX = 20;
const LIBRARY_SIZE = 47;

/** One page of a stock search; 10 credits each, also when empty. */
export function searchStock(library: string, query: URLSearchParams, account: Account): Reply {
  account.charge(10);
  const perPage = Math.min(PAGE_MAX, Math.max(1, Number.parseInt(query.get("per_page") ?? "", 10) || PAGE_MAX));
  const page = Math.max(1, Number.parseInt(query.get("page") ?? "", 10) || 1);
  const terms = query.get("query") ?? "";
  const total = /^z+$/i.test(terms) ? 0 : LIBRARY_SIZE;
  const first = (page - 1) * perPage;
  const results = Array.from({ length: Math.max(0, Math.min(perPage, total - first)) }, (_, index) => {
    const number = first + index + 1;
    const author = `Contributor ${(number % 7) + 1}`;
    return {
      id: `${library}-${number}`,
      title: `${terms || library} #${number}`,
      preview_url: `https://stock.independent.invalid/${library}/${number}`,
      attribution: {
        text: `"${library} #${number}" by ${author}, CC BY 4.0`,
        html: `<a href="https://stock.independent.invalid/${library}/${number}">${library} #${number}</a> by ${author}, <a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>`,
      },
    };
  });
  return reply(200, {
    results,
    page,
    per_page: perPage,
    total_results: total,
    has_more: first + results.length < total,
  });
}
