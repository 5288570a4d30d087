import { createClient } from "../generated/client.ts";
import { quote } from "../generated/costs.ts";

const client = createClient({ apiKey: "sandbox-demo-key", baseUrl: process.env.SANDBOX_URL ?? "http://127.0.0.1:4020", defaultPollIntervalMs: 1000, quote });
const balance = async () => (await client.api.GET("/v1/account/credits")).data!.total_available;
const before = await balance();
const body = { prompt: "A lighthouse at dawn", num_images: 2 } as const;
const { jobId, job } = await client.image.createAndWait("i-a", body, { onStatus: (status) => console.log(status) });
console.log(jobId, job.images.map((image) => image.url));
console.log(`charged ${before - (await balance())} credits; the offline quote says ${client.image.quote("i-a", body).credits}`);
