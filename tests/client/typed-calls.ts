/**
 * Type tests, checked by `npm run typecheck` (never run): valid calls compile, and each call marked
 * `@ts-expect-error` must fail to compile, or tsc reports the unused directive.
 */
import { createClient, ModerationBlockError, type MediaServiceClient, type RestrictionReason } from "../../generated/client.ts";

export async function validCalls(client: MediaServiceClient): Promise<void> {
  const { jobId, created } = await client.image.create("i-a", { prompt: "a lighthouse", size: "4K", num_images: 2, aspect_ratio: "21:9" });
  const idOrNull: string | null = jobId;
  const model: string = created.model;
  const legacy = await client.image.create("i-g", { prompt: "a sequence", sequential_image_generation: "auto", max_images: 3 });
  const legacyId: number = legacy.created.job_id;
  const done = await client.image.createAndWait("i-a", { prompt: "x" }, { onJob: (id: string) => id, onStatus: (status: string) => status });
  const firstUrl: string | undefined = done.job.images[0]?.url;
  const video = await client.video.wait("video-job-id", { intervalMs: 10_000, deadlineMs: 60_000 });
  const videoUrl: string = video.job.video_url;
  const model3d = await client.model3d.createAndWait("d-a", { image: "https://files.example.com/chair.png", texture_quality: "detailed" });
  const glb: string = model3d.job.model_url;
  const credits: number = model3d.created.credits;
  // Open schemas (fields not fully shown in the seed) accept extra fields.
  await client.video.create("v-b", { prompt: "a wave", length_seconds: 12, some_unshown_field: true });
  const resumed = await client.wait("lipSync", "mtn_123");
  const status: "succeeded" = resumed.job.status;
  const upscale = await client.videoUpscale.create("vu-a", { upscale_factor: 2 });
  const info = client.rateLimit?.remaining;
  const quoted = client.quote("/v1/images/i-a", { size: "2K", num_images: 2 });
  // Status callbacks receive the description's JobStatus, so a switch over it can be exhaustive.
  await client.video.wait("video-job-id", { onStatus: (polled: "pending" | "starting" | "processing" | "completing" | "succeeded" | "failed" | "timeout") => polled });
  const error: unknown = null;
  const reason: RestrictionReason | null = error instanceof ModerationBlockError ? error.restrictionReason : null;
  void [idOrNull, model, legacyId, firstUrl, videoUrl, glb, credits, status, upscale, info, quoted, reason];
  createClient({ apiKey: "key", baseUrl: "http://127.0.0.1:4010", maxInFlight: 4, pollIntervalMs: { image: 2000 } });
}

export async function invalidCalls(client: MediaServiceClient): Promise<void> {
  // @ts-expect-error wrong enum value: I-A has no size 3K
  await client.image.create("i-a", { prompt: "x", size: "3K" });
  // @ts-expect-error unknown field on a closed schema
  await client.image.create("i-a", { prompt: "x", quality: "low" });
  // @ts-expect-error missing required field: prompt
  await client.image.create("i-a", { size: "1K" });
  // @ts-expect-error wrong slug: there is no I-I
  await client.image.create("i-i", { prompt: "x" });
  // @ts-expect-error a video slug is not an image slug
  await client.image.create("v-a", { prompt: "x" });
  // @ts-expect-error the I-A body is not the I-B body: I-B's quality on I-A
  await client.image.createAndWait("i-a", { prompt: "x", quality: "medium" });
  // @ts-expect-error wrong type: num_images is an integer
  await client.image.create("i-h", { prompt: "x", num_images: "2" });
  // @ts-expect-error lip sync requires audio and image
  await client.lipSync.create("ls-a", { image: "https://files.example.com/face.png" });
  // @ts-expect-error VU-A's create response shows no job id, so it cannot be waited on
  await client.videoUpscale.createAndWait("vu-a", {});
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
}
