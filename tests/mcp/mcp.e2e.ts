/**
 * The MCP package as an agent's host runs it: built, packed, installed from its tarball into a fresh
 * project, its bin started by the SDK's own client over stdio and over Streamable HTTP, against the
 * sandbox at its default pace (jobs of 3 s, images polled at the client's 5 s). It lists the tools,
 * creates an image as a task and as plain tools and follows each to its URLs, the charge equal to
 * the quote; a create over the budget is refused before any request, a moderation marker gives the
 * restriction reason, and the key appears in no message and no log line. It prints tools/list's
 * size and the time from create to result.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../../packages/mcp/bin.ts";
import { buildMcpPackage } from "../../packages/mcp/build.ts";
import { startSandbox, type RunningSandbox } from "../../sandbox/server.ts";
import { output, until } from "../support/processes.ts";
import { pack, PROJECT, run, TEST_RELEASE } from "../support/packages.ts";

const KEY = "sk-live-e2e-mcp-9d41b7f0a3c6";
let work: string;
let project: string;
let sandbox: RunningSandbox;
const bin = () => join(project, "node_modules", ".bin", BIN);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "mcp-package-test-"));
  const built = await buildMcpPackage(join(PROJECT, "generated"), join(work, "package"), TEST_RELEASE);
  // Its dependencies (the MCP SDK's among them) come from the npm registry, as for any user; the
  // other packages' tests install offline, having none.
  project = join(work, "agent-host");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "agent-host", private: true, type: "module" }));
  await run(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", ...(await pack([built.dir], work))],
    {
      cwd: project,
    },
  );
  sandbox = await startSandbox({
    port: 0,
    // The default config's pace: the clock at real time, jobs of 3 s.
    config: {
      accounts: { main: { keys: [KEY], plan: "paid", credits: { monthlyLimit: 10_000, extra: 0 } } },
      clock: { speed: 1 },
      jobs: { defaultDurationSeconds: 3 },
    },
  });
}, 300_000);

afterAll(async () => {
  await sandbox?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const env = (budget: string) => ({
  PATH: process.env.PATH ?? "",
  MEDIA_API_KEY: KEY,
  MEDIA_BASE_URL: sandbox.url,
  MEDIA_MCP_BUDGET: budget,
});

/** Every message the client receives, recorded from its transport. */
function recorded(transport: Transport, into: JSONRPCMessage[]): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    into.push(message);
    deliver?.(message, extra);
  };
}

/** The account's balance and what is left of the key's request window, read with the key directly. */
async function account(): Promise<{ available: number; remaining: number }> {
  const response = await fetch(`${sandbox.url}/v1/account/credits`, { headers: { authorization: `Bearer ${KEY}` } });
  return {
    available: ((await response.json()) as { total_available: number }).total_available,
    remaining: Number(response.headers.get("x-ratelimit-remaining")),
  };
}

const text = (result: unknown) =>
  (result as { content: Array<{ type: string; text?: string }> }).content.find((block) => block.type === "text")
    ?.text ?? "";

describe("the installed bin over stdio", () => {
  let client: Client;
  let transport: StdioClientTransport;
  const received: JSONRPCMessage[] = [];
  let stderr = "";

  beforeAll(async () => {
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin()],
      env: env("100"),
      stderr: "pipe",
      cwd: project,
    });
    transport.stderr?.on("data", (chunk) => (stderr += String(chunk)));
    client = new Client({ name: "e2e-agent", version: "1.0.0" }, { capabilities: { tasks: { requests: {} } } });
    await client.connect(transport);
    recorded(transport, received);
  }, 60_000);
  afterAll(() => client?.close());

  it("lists the tools: a handful, their size printed", async () => {
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual([
      "list_models",
      "describe_model",
      "quote",
      "create",
      "get_job",
      "wait_job",
      "credits",
    ]);
    console.log(`tools/list: ${Buffer.byteLength(JSON.stringify(listed))} bytes`);
    expect(client.getServerVersion()).toEqual({ name: "media-service", version: TEST_RELEASE.version });
  });

  it("creates an image as a task and follows it to its URLs; the charge equals the quote", async () => {
    const quoted = await client.callTool({
      name: "quote",
      arguments: { model: "I-A", input: { prompt: "Dawn", num_images: 2 } },
    });
    // I-A at 1K: 12 credits an image, two images.
    expect(quoted.structuredContent).toMatchObject({ credits: 24 });
    const before = await account();
    const started = Date.now();
    let urls: string[] = [];
    for await (const message of client.experimental.tasks.callToolStream(
      { name: "create", arguments: { model: "I-A", input: { prompt: "Dawn", num_images: 2 } } },
      undefined,
      { task: { ttl: 120_000 } },
    )) {
      if (message.type === "error") throw message.error;
      if (message.type === "result")
        urls = (message.result.content as Array<{ type: string; uri?: string }>)
          .filter((block) => block.type === "resource_link")
          .map((block) => block.uri!);
    }
    console.log(`create to result as a task, against the sandbox at its default pace: ${Date.now() - started} ms`);
    expect(urls).toHaveLength(2);
    expect(before.available - (await account()).available).toBe(24);
  }, 60_000);

  it("creates an image as plain tools: create, then wait_job to the URLs", async () => {
    const started = Date.now();
    const created = await client.callTool({ name: "create", arguments: { model: "I-A", input: { prompt: "Dusk" } } });
    const { job_id: jobId } = created.structuredContent as { job_id: string };
    let result = await client.callTool({ name: "wait_job", arguments: { job_id: jobId } });
    while ((result.structuredContent as { status: string }).status !== "succeeded")
      result = await client.callTool({ name: "wait_job", arguments: { job_id: jobId } });
    console.log(`create to result with create and wait_job: ${Date.now() - started} ms`);
    expect((result.structuredContent as { urls: unknown[] }).urls).toHaveLength(1);
  }, 60_000);

  it("refuses a create over the budget before any request, and names the moderation block's reason", async () => {
    const before = await account();
    const refused = await client.callTool({
      name: "create",
      arguments: { model: "I-A", input: { prompt: "Big", size: "4K", num_images: 4 } },
    });
    expect(text(refused)).toMatch(/quoted at 192 credits, and the session budget is 100 credits with 36 committed/);
    const after = await account();
    // Only this check's own request counted in the key's window: the server sent nothing.
    expect(after.remaining).toBe(before.remaining - 1);
    const blocked = await client.callTool({
      name: "create",
      arguments: { model: "I-A", input: { prompt: "x [sandbox:moderation=input_explicit_adult]" } },
    });
    expect(text(blocked)).toMatch(/restriction_reason = input_explicit_adult/);
  });

  it("shows the key in no message and no log line", () => {
    expect(received.length).toBeGreaterThan(5);
    expect(JSON.stringify(received)).not.toContain(KEY);
    expect(stderr).toContain(`${BIN}: stdio for ${sandbox.url}`);
    expect(stderr).not.toContain(KEY);
  });
});

describe("the installed bin over Streamable HTTP", () => {
  it("serves on 127.0.0.1, refuses another site's page, and stops on SIGTERM", async () => {
    const child = spawn(process.execPath, [bin(), "--http", "--port", "0"], { cwd: project, env: env("500") });
    const { stderr } = output(child);
    const line = await until(() => /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr())?.[1], "the address line", 30_000);
    const client = new Client({ name: "e2e-http", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(line)));
    const created = await client.callTool({ name: "create", arguments: { model: "I-A", input: { prompt: "Noon" } } });
    expect(created.structuredContent).toMatchObject({ quoted_credits: 12 });
    // A 3D job runs the area's typical minimum (2 minutes) in the sandbox: a wait longer than the HTTP
    // layer's idle timeout (10 s) with no byte sent meanwhile is answered, not cut.
    const model = await client.callTool({
      name: "create",
      arguments: { model: "D-A", input: { image: "https://example.com/chair.png" } },
    });
    const { job_id: jobId } = model.structuredContent as { job_id: string };
    const waited = await client.callTool({ name: "wait_job", arguments: { job_id: jobId, max_seconds: 12 } });
    expect(text(waited)).toMatch(/after waiting 12 s; call wait_job again/);
    const page = await fetch(line, {
      method: "POST",
      headers: { origin: "https://elsewhere.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(page.status).toBe(403);
    await client.close();
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stderr()).not.toContain(KEY);
  }, 60_000);
});
