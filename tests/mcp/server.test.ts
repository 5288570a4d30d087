/**
 * The MCP server against the sandbox, through the SDK's own client in memory: creates as tasks and
 * as plain tools followed to their URLs, the charge equal to the quote, the budget and the
 * confirmation refusing before any request, one create per input, and the service's refusals as
 * errors an agent can act on. The bin's stdio and HTTP runs are tests/mcp/mcp.e2e.ts.
 */
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../sandbox/server.ts";
import { available, fileSandbox, harness, textOf, type Harness } from "./support.ts";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await fileSandbox();
});
afterAll(() => sandbox.close());

let open: Harness[] = [];
async function start(options?: Parameters<typeof harness>[1]): Promise<Harness> {
  const started = await harness(sandbox, options);
  open.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(open.map((running) => running.close()));
  open = [];
});

const creates = (sent: readonly string[]) => sent.filter((line) => line.startsWith("POST /v1/images/"));
const IMAGE = { model: "I-A", input: { prompt: "A lighthouse at dawn", num_images: 2 } };

describe("a create as a task", () => {
  it("follows the job to its result URLs as resource links, with the service's statuses as messages, and charges the quote", async () => {
    const started = await start();
    const { mcp, messages, key } = started;
    const before = await available(started);
    const seen: Array<{ type: string; status?: string; message?: string }> = [];
    let result:
      | { content: Array<{ type: string; uri?: string }>; structuredContent?: Record<string, unknown> }
      | undefined;
    for await (const message of mcp.experimental.tasks.callToolStream({ name: "create", arguments: IMAGE }, undefined, {
      task: { ttl: 60_000 },
    })) {
      if (message.type === "taskCreated" || message.type === "taskStatus")
        seen.push({ type: message.type, status: message.task.status, message: message.task.statusMessage });
      if (message.type === "result") result = message.result as typeof result;
      if (message.type === "error") throw message.error;
    }
    expect(seen[0]).toMatchObject({
      type: "taskCreated",
      status: "working",
      message: expect.stringMatching(/ pending/),
    });
    expect(seen.at(-1)?.status).toBe("completed");
    const links = result!.content.filter((block) => block.type === "resource_link").map((block) => block.uri);
    expect(links).toHaveLength(2);
    for (const link of links) expect(link).toMatch(/^https:\/\/files\.sandbox\.invalid\/img_/);
    expect(result!.structuredContent).toMatchObject({ status: "succeeded" });
    // I-A at the default size 1K: 12 credits an image, two images (the specification's price table).
    expect(before - (await available(started))).toBe(24);
    expect(JSON.stringify(messages)).not.toContain(key);
  });

  it("fails a task refused before sending, its message naming why, and sends nothing", async () => {
    const { mcp, sent } = await start({ settings: { budget: 10 } });
    const statuses: Array<string | undefined> = [];
    for await (const message of mcp.experimental.tasks.callToolStream({ name: "create", arguments: IMAGE }, undefined, {
      task: { ttl: 60_000 },
    }))
      if (message.type === "taskCreated" || message.type === "taskStatus") statuses.push(message.task.statusMessage);
    expect(statuses.at(-1)).toMatch(/quoted at 24 credits, and the session budget is 10 credits/);
    expect(sent).toEqual([]);
  });
});

describe("a create without tasks", () => {
  it("returns the job id, and wait_job follows it with progress notifications to its URLs", async () => {
    const started = await start({ client: { capabilities: {} } });
    const { mcp } = started;
    const before = await available(started);
    const created = await mcp.callTool({ name: "create", arguments: IMAGE });
    expect(created.isError).toBeFalsy();
    const { job_id: jobId, quoted_credits: quoted } = created.structuredContent as {
      job_id: string;
      quoted_credits: number;
    };
    expect(quoted).toBe(24);
    expect(textOf(created)).toContain(`wait_job with job_id ${jobId}`);
    const progress: string[] = [];
    const waited = await mcp.callTool(
      { name: "wait_job", arguments: { job_id: jobId, max_seconds: 30 } },
      CallToolResultSchema,
      {
        onprogress: ({ message }) => progress.push(message ?? ""),
      },
    );
    expect(waited.structuredContent).toMatchObject({ status: "succeeded" });
    expect((waited.structuredContent as { urls: unknown[] }).urls).toHaveLength(2);
    expect(progress.at(-1)).toBe(`job ${jobId} succeeded`);
    expect(before - (await available(started))).toBe(quoted);
  });

  it("never sends an identical create twice in a session, unless asked with again", async () => {
    const { mcp, sent } = await start();
    const [first, retry] = await Promise.all([
      mcp.callTool({ name: "create", arguments: IMAGE }),
      mcp.callTool({ name: "create", arguments: { ...IMAGE, input: { num_images: 2, prompt: IMAGE.input.prompt } } }),
    ]);
    expect((retry.structuredContent as { job_id: string }).job_id).toBe(
      (first.structuredContent as { job_id: string }).job_id,
    );
    expect(retry.structuredContent).toMatchObject({ repeated: true });
    expect(creates(sent)).toHaveLength(1);
    const again = await mcp.callTool({ name: "create", arguments: { ...IMAGE, again: true } });
    expect((again.structuredContent as { job_id: string }).job_id).not.toBe(
      (first.structuredContent as { job_id: string }).job_id,
    );
    expect(creates(sent)).toHaveLength(2);
  });

  it("sends an identical create again once its job ended without success (nothing was charged)", async () => {
    const { mcp, sent } = await start();
    const failing = { model: "I-A", input: { prompt: "x [sandbox:failed]" } };
    const first = await mcp.callTool({ name: "create", arguments: failing });
    const { job_id: jobId } = first.structuredContent as { job_id: string };
    const retryWhileRunning = await mcp.callTool({ name: "create", arguments: failing });
    expect(retryWhileRunning.structuredContent).toMatchObject({ job_id: jobId, repeated: true });
    await mcp.callTool({ name: "wait_job", arguments: { job_id: jobId } });
    const [again, alsoAgain] = await Promise.all([
      mcp.callTool({ name: "create", arguments: failing }),
      mcp.callTool({ name: "create", arguments: failing }),
    ]);
    expect((again.structuredContent as { job_id: string }).job_id).not.toBe(jobId);
    expect((alsoAgain.structuredContent as { job_id: string }).job_id).toBe(
      (again.structuredContent as { job_id: string }).job_id,
    );
    expect(creates(sent)).toHaveLength(2);
  });

  it("waits a bounded time and says to wait again while the job runs", async () => {
    const { mcp } = await start();
    // A 3D job: the area's typical two minutes, 12 s at the sandbox's pace.
    const created = await mcp.callTool({
      name: "create",
      arguments: { model: "D-A", input: { image: "https://example.com/chair.png" } },
    });
    const { job_id: jobId } = created.structuredContent as { job_id: string };
    const waited = await mcp.callTool({ name: "wait_job", arguments: { job_id: jobId, max_seconds: 1 } });
    expect(waited.isError).toBeFalsy();
    expect(textOf(waited)).toMatch(/after waiting 1 s; call wait_job again/);
    const tooLong = await mcp.callTool({ name: "wait_job", arguments: { job_id: jobId, max_seconds: 51 } });
    expect(tooLong.isError).toBe(true);
    expect(textOf(tooLong)).toMatch(/max_seconds: a whole number from 1 to 50/);
  });
});

describe("money first", () => {
  it("refuses a create past the session budget before any request, naming the quote and the budget", async () => {
    const { mcp, sent } = await start({ settings: { budget: 30 } });
    expect((await mcp.callTool({ name: "create", arguments: IMAGE })).isError).toBeFalsy();
    const refused = await mcp.callTool({
      name: "create",
      arguments: { ...IMAGE, input: { prompt: "Another", num_images: 1 } },
    });
    expect(refused.isError).toBe(true);
    // 24 committed by the first create; the second is quoted 12: 36 > 30.
    expect(textOf(refused)).toMatch(
      /quoted at 12 credits, and the session budget is 30 credits with 24 committed \(6 left\)/,
    );
    expect(creates(sent)).toHaveLength(1);
    const just = await mcp.callTool({
      name: "create",
      arguments: { model: "I-A", input: { prompt: "Fits", size: "768px" } },
    });
    // 11 would pass 30 too (24 + 11 = 35): refused as well; the boundary is exact.
    expect(just.isError).toBe(true);
  });

  it("lets a create fill the budget exactly, and gives a failed job's quote back", async () => {
    const { mcp } = await start({ settings: { budget: 24 } });
    const failing = await mcp.callTool({
      name: "create",
      arguments: { model: "I-A", input: { prompt: "x [sandbox:failed]", num_images: 2 } },
    });
    const { job_id: jobId } = failing.structuredContent as { job_id: string };
    const ended = await mcp.callTool({ name: "wait_job", arguments: { job_id: jobId } });
    expect(ended.structuredContent).toMatchObject({ status: "failed", session: { committed: 0 } });
    expect(textOf(ended)).toMatch(/nothing is charged/);
    const exact = await mcp.callTool({ name: "create", arguments: IMAGE });
    expect(exact.isError).toBeFalsy();
    expect(exact.structuredContent).toMatchObject({ session: { budget: 24, committed: 24, remaining: 0 } });
  });

  it("refuses every priced create when no budget is set, and sends nothing", async () => {
    const { mcp, sent } = await start({ settings: { budget: undefined } });
    const refused = await mcp.callTool({ name: "create", arguments: IMAGE });
    expect(textOf(refused)).toMatch(/No credit budget is set.*MEDIA_MCP_BUDGET/);
    expect(sent).toEqual([]);
  });

  it("asks the user above the threshold where the client can elicit: a decline sends nothing, an accept sends once", async () => {
    const { mcp, sent } = await start({
      settings: { confirmAbove: 20 },
      client: { capabilities: { elicitation: {} } },
    });
    const asked: string[] = [];
    let accept = false;
    mcp.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return accept ? { action: "accept", content: { confirm: true } } : { action: "decline" };
    });
    const declined = await mcp.callTool({ name: "create", arguments: IMAGE });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toMatch(/declined/);
    expect(asked[0]).toMatch(/quoted at 24 credits/);
    expect(creates(sent)).toEqual([]);
    const cheap = await mcp.callTool({
      name: "create",
      arguments: { model: "I-A", input: { prompt: "One", num_images: 1 } },
    });
    expect(cheap.isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    accept = true;
    expect((await mcp.callTool({ name: "create", arguments: IMAGE })).isError).toBeFalsy();
    expect(asked).toHaveLength(2);
    expect(creates(sent)).toHaveLength(2);
  });

  it("quotes offline, and asks POST /v1/cost where the price needs it (a media duration not given)", async () => {
    const { mcp, sent } = await start();
    const offline = await mcp.callTool({ name: "quote", arguments: IMAGE });
    expect(offline.structuredContent).toMatchObject({ credits: 24, source: "offline" });
    expect(sent).toEqual([]);
    // LS-A: 84 credits a second of audio, whole seconds, 4 s minimum; the sandbox reads 7.2 s from the URL: 8 s, 672.
    const lipSync = {
      model: "LS-A",
      input: { audio: "https://example.com/speech.mp3#duration=7.2", image: "https://example.com/face.png" },
    };
    const online = await mcp.callTool({ name: "quote", arguments: lipSync });
    expect(online.structuredContent).toMatchObject({ credits: 672, source: "service" });
    expect(sent).toEqual(["POST /v1/cost"]);
    const given = await mcp.callTool({ name: "quote", arguments: { ...lipSync, media: { audio: 7.2 } } });
    expect(given.structuredContent).toMatchObject({ credits: 672, source: "offline" });
  });
});

describe("errors an agent can act on", () => {
  it("names the moderation block's restriction_reason and says to reword, with nothing charged", async () => {
    const started = await start();
    const { mcp } = started;
    const before = await available(started);
    const blocked = await mcp.callTool({
      name: "create",
      arguments: { model: "I-A", input: { prompt: "x [sandbox:moderation=input_celebrity_likeness]" } },
    });
    expect(blocked.isError).toBe(true);
    expect(textOf(blocked)).toMatch(
      /restriction_reason = input_celebrity_likeness .*Reword the prompt or change the input media/,
    );
    expect(await available(started)).toBe(before);
  });

  it("refuses input outside the model's schema before any request, naming the field", async () => {
    const { mcp, sent } = await start();
    const refused = await mcp.callTool({
      name: "create",
      arguments: { model: "I-A", input: { prompt: "x", num_images: 5 } },
    });
    expect(textOf(refused)).toMatch(/input\.num_images: must be <= 4/);
    const unknown = await mcp.callTool({ name: "quote", arguments: { model: "I-Z", input: {} } });
    expect(textOf(unknown)).toMatch(/is no model of this service/);
    expect(sent).toEqual([]);
  });

  it("puts a full queue first while the session has jobs running, and names the spend limit too", async () => {
    const { mcp } = await start({ account: "queue" });
    const model3d = { model: "D-A", input: { image: "https://example.com/chair.png" } };
    expect((await mcp.callTool({ name: "create", arguments: model3d })).isError).toBeFalsy();
    const full = await mcp.callTool({ name: "create", arguments: { model: "I-A", input: { prompt: "Second" } } });
    expect(textOf(full)).toMatch(
      /^Too many requests, without Retry-After: .* Either the account's queue is full .*wait_job.*\(this session has 1 job\(s\) running\), or the monthly spend limit/,
    );
  });

  it("gives the model family's cooldown in seconds", async () => {
    const { mcp, sent } = await start();
    for (let failure = 0; failure < 3; failure += 1) {
      const created = await mcp.callTool({
        name: "create",
        arguments: { model: "I-B", input: { prompt: `fail ${failure} [sandbox:failed]`, quality: "low", size: "1K" } },
      });
      const { job_id: jobId } = created.structuredContent as { job_id: string };
      expect((await mcp.callTool({ name: "wait_job", arguments: { job_id: jobId } })).structuredContent).toMatchObject({
        status: "failed",
      });
    }
    const cooling = await mcp.callTool({
      name: "create",
      arguments: { model: "I-B", input: { prompt: "now", quality: "low", size: "1K" } },
    });
    expect(textOf(cooling)).toMatch(/cooling down .*wait \d+ seconds/);
    // Every later call waits the cooldown out too: none is sent before it ends, and the agent is told how long.
    const sentBefore = sent.length;
    const held = await mcp.callTool({ name: "credits", arguments: {} });
    expect(textOf(held)).toMatch(/^Not sent: an earlier 429 asked to wait, .* for \d+ more seconds/);
    expect(sent.length).toBe(sentBefore);
  });

  it("says the key was refused without showing it, in any message", async () => {
    const wrong = "sk-live-not-this-account-5b2e9c";
    const { mcp, messages, fromServer } = await start({ apiKey: wrong, client: { capabilities: {} } });
    const refused = await mcp.callTool({ name: "credits", arguments: {} });
    expect(textOf(refused)).toMatch(/refused the API key \(401\).*MEDIA_API_KEY/);
    const create = await mcp.callTool({
      name: "create",
      arguments: { model: "I-A", input: { prompt: `echo ${wrong}` } },
    });
    expect(create.isError).toBe(true);
    // The agent's own arguments carried it; nothing the server sent does.
    expect(JSON.stringify(messages)).toContain(wrong);
    expect(JSON.stringify(fromServer)).not.toContain(wrong);
  });

  it("says to stop at the spend limit, and never shows the key", async () => {
    const { mcp, messages, key } = await start({ account: "capped" });
    const limited = await mcp.callTool({ name: "create", arguments: IMAGE });
    // No job of this session runs: the spend limit is named first.
    expect(textOf(limited)).toMatch(/Either the monthly spend limit .*stop creating.*, or the account's queue is full/);
    expect(JSON.stringify(messages)).not.toContain(key);
  });
});
