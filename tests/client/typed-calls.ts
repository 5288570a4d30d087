/**
 * Type tests, checked by `npm run typecheck` (never run): valid calls compile, and each call marked
 * `@ts-expect-error` must fail to compile, or tsc reports the unused directive. Routes are named by
 * the seed's labels, so the file checks a build with real slugs (MEDIA_SLUG_MAP) as well.
 */
import {
  createClient,
  ModerationBlockError,
  type MediaServiceClient,
  type QuotingMediaServiceClient,
  type RestrictionReason,
} from "../../generated/client.ts";
import { quote } from "../../generated/costs.ts";
import { inFlightLimiter } from "../../runtime/client/limiter.ts";
import { checkMediaInputs } from "../../generated/media-inputs.ts";
import { pathOf, slug } from "./labels.ts";

const IA = slug("image", "I-A");
const IG = slug("image", "I-G");
const IH = slug("image", "I-H");
const VA = slug("video", "V-A");
const VB = slug("video", "V-B");
const DA = slug("model3d", "D-A");
const LSA = slug("lipSync", "LS-A");
const VUA = slug("videoUpscale", "VU-A");

export async function validCalls(client: MediaServiceClient, quoting: QuotingMediaServiceClient): Promise<void> {
  const { jobId, created } = await client.image.create(IA, {
    prompt: "a lighthouse",
    size: "4K",
    num_images: 2,
    aspect_ratio: "21:9",
  });
  const idOrNull: string | null = jobId;
  const model: string = created.model;
  const legacy = await client.image.create(IG, {
    prompt: "a sequence",
    sequential_image_generation: "auto",
    max_images: 3,
  });
  const legacyId: number = legacy.created.job_id;
  const done = await client.image.createAndWait(
    IA,
    { prompt: "x" },
    { onJob: (id: string) => id, onStatus: (status: string) => status },
  );
  const firstUrl: string | undefined = done.job.images[0]?.url;
  const video = await client.video.wait("video-job-id", {
    intervalMs: 10_000,
    deadlineMs: 60_000,
    headers: { "X-Request-Id": "r" },
  });
  const videoUrl: string = video.job.video_url;
  const model3d = await client.model3d.createAndWait(DA, {
    image: "https://files.example.com/chair.png",
    texture_quality: "detailed",
  });
  const glb: string = model3d.job.model_url;
  const credits: number = model3d.created.credits;
  // Open schemas (fields not fully shown in the seed) accept extra fields.
  await client.video.create(VB, { prompt: "a wave", length_seconds: 12, some_unshown_field: true });
  const resumed = await client.wait("lipSync", "mtn_123");
  const status: "succeeded" = resumed.job.status;
  const upscale = await client.videoUpscale.create(VUA, { upscale_factor: 2 });
  const info = client.rateLimit?.remaining;
  // Status callbacks receive the description's JobStatus, so a switch over it can be exhaustive.
  await client.video.wait("video-job-id", {
    onStatus: (polled: "pending" | "starting" | "processing" | "completing" | "succeeded" | "failed" | "timeout") =>
      polled,
  });
  const error: unknown = null;
  const reason: RestrictionReason | null = error instanceof ModerationBlockError ? error.restrictionReason : null;
  // Every other operation, typed by the description.
  const balance: number = (await client.getAccountCredits()).total_available;
  await client.listModels({ type: "3d" }, { headers: { "X-Request-Id": "r" } });
  await client.listModels();
  await client.searchStockImages({ query: "sunset", transparent: true, orientation: "landscape" });
  await client.searchStockSoundEffects({ category: "rain", min_duration: 1, max_duration: 10 });
  await client.searchStockMusic({ sort: "newest" }, { signal: AbortSignal.timeout(1000) });
  await client.createPost({ license: "cc0" });
  await client.createUpload({ anything: "the shape is not shown" });
  await client.quoteCost({ seconds: 12 });
  // Operation methods take their options after the body or query, or alone; open bodies take fields not shown.
  await client.quoteCost({ seconds: 12, model: IA }, { headers: { "X-Request-Id": "r" } });
  await client.createPost({ license: "cc-by", caption: "a field the description does not show" });
  await client.createUpload("any value: the upload body's shape is not shown");
  await client.getAccountCredits({ signal: AbortSignal.timeout(1000) });
  await client.searchStockMusic();
  // The offline quote, typed per route like create; standalone and on the client.
  const quoted: number | null = quoting.image.quote(IA, { size: "2K", num_images: 2 }).credits;
  const lipSync = quoting.lipSync.quote(LSA, { audio: "https://files.example.com/a.mp3" }, { audio: 7.5 });
  const standalone = quote(pathOf("I-A"), {});
  await quoting.image.create(IH, { prompt: "x", num_images: 2 });
  void [
    idOrNull,
    model,
    legacyId,
    firstUrl,
    videoUrl,
    glb,
    credits,
    status,
    upscale,
    info,
    reason,
    balance,
    quoted,
    lipSync,
    standalone,
  ];
  createClient({
    apiKey: "key",
    baseUrl: "http://127.0.0.1:4010",
    limiter: inFlightLimiter(4),
    checkMediaInputs,
    pollIntervalMs: { image: 2000 },
    headers: { "User-Agent": "batch" },
  });
  const withQuote: QuotingMediaServiceClient = createClient({ apiKey: "key", baseUrl: "http://127.0.0.1:4010", quote });
  void withQuote;
}

export async function invalidCalls(client: MediaServiceClient, quoting: QuotingMediaServiceClient): Promise<void> {
  // @ts-expect-error wrong enum value: I-A has no size 3K
  await client.image.create(IA, { prompt: "x", size: "3K" });
  // @ts-expect-error unknown field on a closed schema
  await client.image.create(IA, { prompt: "x", quality: "low" });
  // @ts-expect-error missing required field: prompt
  await client.image.create(IA, { size: "1K" });
  // @ts-expect-error wrong slug: there is no I-I
  await client.image.create("i-i", { prompt: "x" });
  // @ts-expect-error a video slug is not an image slug
  await client.image.create(VA, { prompt: "x" });
  // @ts-expect-error the I-A body is not the I-B body: I-B's quality on I-A
  await client.image.createAndWait(IA, { prompt: "x", quality: "medium" });
  // @ts-expect-error wrong type: num_images is an integer
  await client.image.create(IH, { prompt: "x", num_images: "2" });
  // @ts-expect-error lip sync requires audio and image
  await client.lipSync.create(LSA, { image: "https://files.example.com/face.png" });
  // @ts-expect-error VU-A's create response shows no job id, so it cannot be waited on
  await client.videoUpscale.createAndWait(VUA, {});
  // @ts-expect-error unknown area
  await client.wait("podcasts", "id");
  // @ts-expect-error pollIntervalMs names areas only
  createClient({ apiKey: "key", baseUrl: "http://127.0.0.1:4010", pollIntervalMs: { images: 2000 } });
  // @ts-expect-error a status the description does not list
  await client.image.wait("img_1", { onStatus: (polled) => polled === "done" });
  const error: unknown = null;
  // @ts-expect-error restrictionReason is the description's enum, not any string
  if (error instanceof ModerationBlockError && error.restrictionReason === "nsfw") return;
  // @ts-expect-error apiKey is required
  createClient({ baseUrl: "http://127.0.0.1:4010" });
  // @ts-expect-error a stock filter the description does not document
  await client.searchStockMusic({ category: "jazz" });
  // @ts-expect-error an unknown query parameter of an operation's method
  await client.listModels({ typ: "3d" });
  // @ts-expect-error a query parameter's type: transparent is a boolean
  await client.searchStockImages({ transparent: "yes" });
  // @ts-expect-error a body is not an operation's option: getAccountCredits takes no body
  await client.getAccountCredits({ seconds: 12 });
  // @ts-expect-error the post's license is the description's enum
  await client.createPost({ license: "mit" });
  // @ts-expect-error the account credits take no query
  await client.getAccountCredits({ type: "3d" });
  // @ts-expect-error the quote's body is the route's: I-A has no size 3K
  quoting.image.quote(IA, { size: "3K" });
  // @ts-expect-error quote is typed per route like create: I-B's quality on I-A
  quoting.image.quote(IA, { quality: "low" });
  // @ts-expect-error the standalone quote too
  quote(pathOf("I-A"), { size: "3K" });
  // @ts-expect-error media names the route's priced media inputs
  quoting.lipSync.quote(LSA, {}, { video: 3 });
  // @ts-expect-error a client given no quote has none
  client.image.quote(IA, {});
  // @ts-expect-error a video slug is not an image slug for quote either
  quoting.image.quote(VA, {});
}
