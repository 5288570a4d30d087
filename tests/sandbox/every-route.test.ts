/**
 * Drives every operation of the description through the sandbox and checks every response, headers
 * included, against the description (support.ts's `send` checks each one): every create example,
 * every poll before and after the job ends, the other routes, and each error status each operation
 * documents.
 */
import { describe, expect, it } from "vitest";
import { checkedSandboxes, contract, example, KEY, model, routeWhere, type TestSandbox } from "./support.ts";
import { requestPath } from "../../contract/contract.ts";

const sandbox = checkedSandboxes();

const FREE_KEY = "free-key";
const RETIRING_KEY = "retiring-key";
const depthMap = routeWhere((route) => route.areaId === "depthMap");
const accounts = {
  main: { keys: [KEY], plan: "paid", credits: { monthlyLimit: 10_000_000, extra: 0 }, concurrency: 1_000 },
  free: { keys: [FREE_KEY], plan: "free", credits: { monthlyLimit: 0, extra: 1_000 } },
};

async function pollPath(sb: TestSandbox, path: string, body: unknown): Promise<string | null> {
  const created = await sb.send("POST", path, { body });
  expect(created.status, `POST ${path} ${JSON.stringify(body)}: ${created.text}`).toBe(200);
  const route = model.createRoutes.find((candidate) => candidate.path === path)!;
  const area = model.areas.find((candidate) => candidate.id === route.areaId)!;
  const id = created.json[route.idField ?? "id"];
  expect(id, `POST ${path} answers a job id`).toBeDefined();
  return area.poll.path.replace("{id}", encodeURIComponent(String(id)));
}

describe("every route of the description, every response valid", () => {
  it("answers every create example with 200, then polls each job to its end with result fields exactly on success", async () => {
    const sb = await sandbox({ accounts });
    const polls: string[] = [];
    for (const op of contract.operations.filter((candidate) => candidate.operation["x-model-label"])) {
      for (const example of op.requestExamples) {
        const poll = await pollPath(sb, op.path, example.value);
        if (poll) polls.push(poll);
      }
    }
    expect(polls.length).toBeGreaterThan(model.createRoutes.length);
    for (const poll of polls) {
      const running = await sb.send("GET", poll);
      expect(running.status).toBe(200);
      expect(model.jobStatus.terminal).not.toContain(running.json.status);
    }
    sb.advance(3_600_000);
    for (const poll of polls) {
      const ended = await sb.send("GET", poll);
      expect(ended.json.status).toBe(model.jobStatus.success);
      const area = model.areas.find((candidate) => poll.startsWith(candidate.poll.path.replace("{id}", "")))!;
      for (const field of area.resultFields) expect(ended.json[field], `${poll} ${field}`).toBeDefined();
    }
  });

  it("answers every other operation with 200 and its documented body", async () => {
    const sb = await sandbox({ accounts });
    const others = contract.operations.filter((op) => !op.operation["x-model-label"] && !op.path.includes("{"));
    for (const op of others) {
      // The quote request's shape is not shown: the sandbox's names the model and the request (sandbox/README.md).
      const body =
        op.operation.operationId === "quoteCost"
          ? { model: depthMap.slug, body: example(depthMap.path), ...(op.requestExamples[0]?.value as object) }
          : op.method === "post"
            ? (op.requestExamples[0]?.value ?? {})
            : undefined;
      const sent = await sb.send(op.method.toUpperCase(), requestPath(contract, op), { body });
      expect(sent.status, `${op.route}: ${sent.text}`).toBe(200);
    }
    const covered = new Set([
      ...others.map((op) => op.operation.operationId),
      ...model.operations.filter((op) => op.kind !== "other").map((op) => op.operationId),
    ]);
    expect([...covered].sort()).toEqual(model.operations.map((op) => op.operationId).sort());
  });

  it("answers a path outside the description with 404, still with the X-RateLimit-* headers", async () => {
    const sb = await sandbox({ accounts });
    const missing = await sb.send("GET", "/v1/not-a-route");
    expect(missing.status).toBe(404);
    for (const header of Object.values(model.rateLimitHeaders)) expect(missing.headers.has(header), header).toBe(true);
  });

  it("answers each documented error status of every operation with a valid body and headers", async () => {
    const sb = await sandbox({
      accounts: {
        ...accounts,
        // Every model retired for an account of its own: the main key's creates still reach validation.
        retiring: {
          ...accounts.main,
          keys: [RETIRING_KEY],
          retiredModels: model.createRoutes.map((route) => route.slug),
        },
      },
    });
    // The operations each error was provoked on: every branch below must have run (none passes by being skipped).
    const provoked: Record<string, string[]> = { 401: [], 403: [], 400: [], 410: [] };
    const provoke = async (
      status: string,
      op: (typeof contract.operations)[number],
      sent: Promise<{ status: number }>,
    ): Promise<void> => {
      expect((await sent).status, `${op.method.toUpperCase()} ${op.path}`).toBe(Number(status));
      provoked[status]!.push(op.operation.operationId!);
    };
    for (const op of contract.operations) {
      const path = requestPath(contract, op);
      const body = op.method === "post" ? (op.requestExamples[0]?.value ?? {}) : undefined;
      const statuses = Object.keys(op.responses);
      if (statuses.includes("401")) await provoke("401", op, sb.send(op.method, path, { key: null, body }));
      if (
        statuses.includes("403") &&
        !model.operations.find((m) => m.operationId === op.operation.operationId)!.freePlan
      ) {
        await provoke("403", op, sb.send(op.method, path, { key: FREE_KEY, body }));
      }
      if (statuses.includes("400") && op.requestSchema)
        await provoke("400", op, sb.send(op.method, path, { body: "{not json" }));
      if (statuses.includes("410")) await provoke("410", op, sb.send(op.method, path, { key: RETIRING_KEY, body }));
    }
    for (const status of ["401", "403", "400"]) expect(provoked[status]!.length, status).toBeGreaterThan(0);
    // A retired model answers 410 on each create route (the specification's errors), and only there.
    expect(provoked["410"]!.sort()).toEqual(model.createRoutes.map((route) => route.operationId).sort());
  });
});
