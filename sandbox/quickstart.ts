import { createClient, MediaServiceError, TransportError } from "../generated/client.ts";
import { quote } from "../generated/costs.ts";
import { models } from "../generated/models.ts";

const baseUrl = process.env.SANDBOX_URL ?? "http://127.0.0.1:4020";
const client = createClient({ apiKey: "sandbox-demo-key", baseUrl, defaultPollIntervalMs: 1000, quote });
const balance = async () => (await client.getAccountCredits()).total_available;
try {
  const before = await balance();
  const body = { prompt: "A lighthouse at dawn", num_images: 2 } as const;
  // The model by its label in the specification: its slug is the deployment's (a slug map may change it).
  const { slug } = models["I-A"];
  const { jobId, job } = await client.image.createAndWait(slug, body, { onStatus: (status) => console.log(status) });
  console.log(
    jobId,
    job.images.map((image) => image.url),
  );
  console.log(
    `charged ${before - (await balance())} credits; the offline quote says ${client.image.quote(slug, body).credits}`,
  );
} catch (error) {
  // The client's errors are typed, each with a one-line message: no sandbox answering, a refused key, ...
  if (!(error instanceof MediaServiceError)) throw error;
  const hint = error instanceof TransportError ? ` (is the sandbox running at ${baseUrl}? npm run sandbox)` : "";
  console.error(`quickstart: ${error.message}${hint}`);
  process.exitCode = 1;
}
