import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  InvalidResponseError,
  JobFailedError,
  JobTimedOutError,
  routeTable,
  WaitDeadlineError,
} from "../../generated/client.ts";
import { DEFAULT_POLL_INTERVAL_MS } from "../../runtime/client/options.ts";
import { pathOf, slug } from "./labels.ts";
import { drive, inOrder } from "./scripted-server.ts";
import { API_KEY, clientOn, created, expectNothingMoreSent, IMAGES, job, useFakeClock } from "./support.ts";

useFakeClock();

const IA = slug("image", "I-A");

describe("waiting for a job", () => {
  it("walks a job through every status, hands out the id first and polls at the image cadence, the first poll one interval after the create", async () => {
    const { server, client } = await clientOn(
      inOrder(created("img_1"), job("starting"), job("processing"), job("completing"), job("succeeded", IMAGES)),
    );
    const seen: string[] = [];
    let requestsWhenIdKnown = -1;
    const result = await drive(
      server,
      client.image.createAndWait(
        IA,
        { prompt: "a lighthouse" },
        {
          onJob: (id) => {
            expect(id).toBe("img_1");
            requestsWhenIdKnown = server.requests.length;
          },
          onStatus: (status) => seen.push(status),
        },
      ),
    );
    expect(requestsWhenIdKnown).toBe(1);
    expect(seen).toEqual(["pending", "starting", "processing", "completing", "succeeded"]);
    expect(result.jobId).toBe("img_1");
    expect(result.job.images[0]?.url).toBe(IMAGES.images[0]?.url);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST ${pathOf("I-A")}`,
      ...Array(4).fill("GET /v1/images/img_1"),
    ]);
    expect(server.requests[0]?.body).toEqual({ prompt: "a lighthouse" });
    expect(server.requests.every((r) => r.authorization === `Bearer ${API_KEY}`)).toBe(true);
    // The description gives images no number ("every few seconds"): the documented client default applies.
    expect("intervalMs" in routeTable.areas.image).toBe(false);
    const times = server.requests.map((r) => r.at);
    expect(times.slice(1).map((at, i) => at - (times[i] ?? 0))).toEqual(Array(4).fill(DEFAULT_POLL_INTERVAL_MS));
    await expectNothingMoreSent(server);
  });

  it("polls video jobs at the description's minimum cadence (10 s) and 3D jobs at 15 s; a resumed wait polls at once", async () => {
    for (const [area, seconds] of [
      ["video", 10],
      ["model3d", 15],
    ] as const) {
      expect(routeTable.areas[area].intervalMs).toBe(seconds * 1000);
      const { server, client } = await clientOn(inOrder(job("processing"), job("processing"), job("failed")));
      const start = Date.now();
      await expect(drive(server, client.wait(area, "job-1"))).rejects.toBeInstanceOf(JobFailedError);
      expect(server.requests.map((r) => r.at - start)).toEqual([0, seconds * 1000, 2 * seconds * 1000]);
    }
  });

  it("polls I-G's legacy job by its integer job_id", async () => {
    const { server, client } = await clientOn(
      inOrder(
        { status: 200, body: { estimated_time: "20s", job_id: 4711, message: "ok", status: "pending" } },
        job("succeeded", IMAGES),
      ),
    );
    const ids: string[] = [];
    const result = await drive(
      server,
      client.image.createAndWait(slug("image", "I-G"), { prompt: "x" }, { onJob: (id) => ids.push(id) }),
    );
    expect(ids).toEqual(["4711"]);
    expect(result.created.job_id).toBe(4711);
    expect(server.requests[1]?.path).toBe("/v1/images/4711");
  });

  it("ends in JobFailedError on failed and JobTimedOutError on timeout, with the job id and body, the API key redacted from it", async () => {
    for (const [status, type] of [
      ["failed", JobFailedError],
      ["timeout", JobTimedOutError],
    ] as const) {
      // A service that echoes the request's authorization into the job.
      const { server, client } = await clientOn(
        inOrder(job("processing"), job(status, { reason: "x", request: { authorization: `Bearer ${API_KEY}` } })),
      );
      const error = await drive(server, client.image.wait("img_9")).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(type);
      expect(error).toMatchObject({
        jobId: "img_9",
        job: { status, reason: "x", request: { authorization: "Bearer [redacted]" } },
      });
      expect(`${JSON.stringify(error)} ${inspect(error, { depth: null })}`).not.toContain(API_KEY);
    }
  });

  it("an area's interval given as undefined keeps the description's cadence", async () => {
    const { server, client } = await clientOn(
      inOrder(job("processing"), job("succeeded", { video_url: "https://v/1.mp4" })),
      {
        pollIntervalMs: { video: undefined },
      },
    );
    await drive(server, client.video.wait("vid_1"));
    expect(server.requests.map((r) => r.at - 1_000_000)).toEqual([0, 10_000]);
  });

  it("resumes waiting by id through the area-keyed wait", async () => {
    const { server, client } = await clientOn(
      inOrder(job("completing"), job("succeeded", { video_url: "https://v/1.mp4" })),
    );
    const result = await drive(server, client.wait("video", "vid_1"));
    expect(result.job.video_url).toBe("https://v/1.mp4");
  });

  it("stops at the overall deadline with the last status, and sends nothing afterwards", async () => {
    const { server, client } = await clientOn(inOrder(job("processing")));
    const start = Date.now();
    const error = await drive(server, client.image.wait("img_2", { deadlineMs: 12_000 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitDeadlineError);
    expect(error).toMatchObject({ jobId: "img_2", lastStatus: "processing", deadlineMs: 12_000 });
    expect(Date.now() - start).toBe(12_000);
    expect(server.requests.map((r) => r.at - start)).toEqual([0, 5_000, 10_000]);
    await expectNothingMoreSent(server);
  });

  it("aborts during a sleep at once, and sends nothing more", async () => {
    const { server, client } = await clientOn(inOrder(created("img_3"), job("processing")));
    const controller = new AbortController();
    const reason = new Error("caller gave up");
    const pending = client.image.createAndWait(
      IA,
      { prompt: "x" },
      {
        signal: controller.signal,
        // Abort once the client sleeps before the next poll.
        onStatus: (status) => status === "processing" && setImmediate(() => controller.abort(reason)),
      },
    );
    await expect(drive(server, pending)).rejects.toBe(reason);
    const lastPoll = server.requests.at(-1)?.at ?? 0;
    expect(Date.now() - lastPoll).toBeLessThan(DEFAULT_POLL_INTERVAL_MS);
    expect(server.requests).toHaveLength(2);
    await expectNothingMoreSent(server);
  });

  it("a create answer whose job id is empty, missing, or neither a string nor a number is an InvalidResponseError saying the job may exist; nothing is polled", async () => {
    for (const id of ["", null, {}, true]) {
      const { server, client } = await clientOn(
        inOrder({ status: 200, body: { id, message: "ok", model: "m", status: "pending" } }),
      );
      const error = await drive(server, client.image.createAndWait(IA, { prompt: "x" })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(String(error)).toBe(
        `InvalidResponseError: POST ${pathOf("I-A")}: no job id in id, though the job may exist`,
      );
      expect(server.requests).toHaveLength(1);
    }
  });

  it("rejects a succeeded poll response that lacks the result fields", async () => {
    const { server, client } = await clientOn(inOrder(job("succeeded")));
    await expect(drive(server, client.image.wait("img_4"))).rejects.toThrow("lacks images");
  });
});
