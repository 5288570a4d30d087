/**
 * Jobs through HTTP: statuses walk the running states on the sandbox clock to a terminal status,
 * result fields exactly on success, outcomes asked for with markers (prompt or media URL) and per
 * account, moderation blocks for every restriction reason, id prefixes, ownership and expiry.
 */
import { describe, expect, it } from "vitest";
import { areaOf, checkedSandboxes, configWith, example, KEY, model, routeWhere } from "./support.ts";

const sandbox = checkedSandboxes();

const { jobStatus } = model;
const image = routeWhere((route) => route.areaId === "image" && route.idType === "string" && route.family === null);
const imageArea = areaOf(image.areaId);
const pollOf = (route: { areaId: string }, id: string | number) =>
  areaOf(route.areaId).poll.path.replace("{id}", String(id));
const withPrompt = (path: string, marker: string) => {
  const body = example(path);
  return { ...body, prompt: `${String(body.prompt ?? "A sandbox test")} ${marker}` };
};

describe("job lifecycle", () => {
  it("walks the running statuses in order on the clock, then succeeds with the result fields, which are absent before", async () => {
    const sb = await sandbox(configWith({}, { jobs: { defaultDurationSeconds: 8 } }));
    const created = await sb.send("POST", image.path, { body: example(image.path) });
    expect(created.json.status).toBe(jobStatus.initial);
    const seen: string[] = [];
    for (let second = 0; second <= 8; second += 1) {
      const polled = await sb.send("GET", pollOf(image, created.json.id));
      if (seen.at(-1) !== polled.json.status) seen.push(polled.json.status);
      const done = polled.json.status === jobStatus.success;
      for (const field of imageArea.resultFields) expect(polled.json[field] !== undefined).toBe(done);
      sb.advance(1_000);
    }
    expect(seen).toEqual([
      ...jobStatus.values.filter((status) => !jobStatus.terminal.includes(status)),
      jobStatus.success,
    ]);
  });

  it("runs faster with the clock's speed", async () => {
    const sb = await sandbox(configWith({}, { clock: { speed: 10 }, jobs: { defaultDurationSeconds: 8 } }));
    const created = await sb.send("POST", image.path, { body: example(image.path) });
    sb.advance(800);
    expect((await sb.send("GET", pollOf(image, created.json.id))).json.status).toBe(jobStatus.success);
  });

  it("ends in the terminal status a prompt marker asks for, without result fields", async () => {
    const sb = await sandbox(configWith());
    for (const status of jobStatus.terminal) {
      const created = await sb.send("POST", image.path, { body: withPrompt(image.path, `[sandbox:${status}]`) });
      sb.advance(3_600_000);
      const polled = await sb.send("GET", pollOf(image, created.json.id));
      expect(polled.json.status).toBe(status);
      for (const field of imageArea.resultFields)
        expect(polled.json[field] !== undefined).toBe(status === jobStatus.success);
    }
  });

  it("reads the marker from a media URL on a route without a prompt, and the account's outcome when there is none", async () => {
    const noPrompt = routeWhere(
      (route) =>
        !("prompt" in ((example(route.path) as object) ?? {})) &&
        Object.keys(route.media).length > 0 &&
        !Object.values(route.media)[0]!.list,
    );
    const field = Object.keys(noPrompt.media)[0]!;
    const sb = await sandbox({
      accounts: {
        main: { keys: [KEY], plan: "paid", credits: { monthlyLimit: 100_000, extra: 0 } },
        failing: {
          keys: ["failing-key"],
          plan: "paid",
          credits: { monthlyLimit: 100_000, extra: 0 },
          outcome: jobStatus.timeout,
        },
      },
    });
    const failed = jobStatus.failure.find((status) => status !== jobStatus.timeout)!;
    const body = { ...example(noPrompt.path), [field]: `https://media.example/input#sandbox:${failed}` };
    const marked = await sb.send("POST", noPrompt.path, { body });
    const unmarked = await sb.send("POST", noPrompt.path, { body: example(noPrompt.path), key: "failing-key" });
    sb.advance(3_600_000);
    expect((await sb.send("GET", pollOf(noPrompt, marked.json.id))).json.status).toBe(failed);
    expect((await sb.send("GET", pollOf(noPrompt, unmarked.json.id), { key: "failing-key" })).json.status).toBe(
      jobStatus.timeout,
    );
  });

  it("answers the moderation block for each restriction reason, creating no job", async () => {
    const sb = await sandbox(configWith());
    for (const reason of model.errors.moderation.reasons) {
      const blocked = await sb.send("POST", image.path, {
        body: withPrompt(image.path, `[sandbox:moderation=${reason}]`),
      });
      expect(blocked.status).toBe(400);
      expect(blocked.json[model.errors.moderation.reasonField]).toBe(reason);
    }
    expect(sb.running.state.jobs.size).toBe(0);
  });

  it("rejects a marker that names nothing, naming the field", async () => {
    const sb = await sandbox(configWith());
    const rejected = await sb.send("POST", image.path, { body: withPrompt(image.path, "[sandbox:explode]") });
    expect(rejected.status).toBe(400);
    expect(rejected.json.error.message).toMatch(/^body\.prompt: "sandbox:explode" is not a sandbox marker/);
  });
});

describe("job ids", () => {
  it("carry the area's prefix where the description gives one (the area's path segment otherwise), and integer ids poll too", async () => {
    const sb = await sandbox(configWith({ concurrency: 100 }));
    for (const route of model.createRoutes) {
      const created = await sb.send("POST", route.path, { body: example(route.path) });
      const area = areaOf(route.areaId);
      const id = created.json[route.idField ?? "id"];
      if (route.idType === "integer") expect(Number.isInteger(id)).toBe(true);
      else expect(id).toMatch(new RegExp(`^${area.jobIdPrefix ?? `${area.segment}_`}`));
      expect((await sb.send("GET", pollOf(route, id))).status).toBe(200);
    }
  });

  it("are visible only to their account, and expire after the retention", async () => {
    const sb = await sandbox({
      accounts: {
        main: { keys: [KEY], plan: "paid", credits: { monthlyLimit: 100_000, extra: 0 } },
        other: { keys: ["other-key"], plan: "paid", credits: { monthlyLimit: 100_000, extra: 0 } },
      },
      jobs: { defaultDurationSeconds: 1, defaultRetentionHours: 1 },
    });
    const created = await sb.send("POST", image.path, { body: example(image.path) });
    expect((await sb.send("GET", pollOf(image, created.json.id), { key: "other-key" })).status).toBe(403);
    sb.advance(1_000 + 3_600_000 - 1);
    expect((await sb.send("GET", pollOf(image, created.json.id))).status).toBe(200);
    sb.advance(1);
    expect((await sb.send("GET", pollOf(image, created.json.id))).status).toBe(403);
    expect(sb.running.state.jobs.size).toBe(0);
  });
});
