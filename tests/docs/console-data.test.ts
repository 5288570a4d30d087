/**
 * The try-it console's data (docs-src/console-operations.ts), checked against the description read
 * directly: each operation with its summary, route, path example, every query parameter (its example
 * or empty) and its named request examples; how a create route's job is followed (its id field, its
 * area's poll path, cadence, interval and result fields; none where the create answer shows no id);
 * the credits route, the rate-limit headers to highlight and the terminal statuses.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { consoleData, jobFollowing } from "../../docs-src/console-operations.ts";
import { deref, loadBundle, operations } from "../../model/document.ts";
import { loadServiceModel } from "../../model/service-model.ts";
import { DEFAULT_POLL_INTERVAL_MS } from "../../runtime/client/options.ts";

const bundle = loadBundle();
const model = loadServiceModel();
// In a beforeAll, so that the mutation run credits each test with it (tests/mutation/hook-coverage.ts).
let data: ReturnType<typeof consoleData>;
beforeAll(() => {
  data = consoleData(model);
});
const entry = (operationId: string) => data.operations.find((operation) => operation.operationId === operationId);

describe("consoleData", () => {
  it("lists every operation of the description with its summary (else its id), method and route", () => {
    const all = operations(bundle);
    expect(
      data.operations.map(({ operationId, method, template }) => `${method} ${template} ${operationId}`).sort(),
    ).toEqual(all.map(({ method, path, operation }) => `${method} ${path} ${operation.operationId}`).sort());
    for (const { operation } of all)
      expect(entry(operation.operationId)?.summary).toBe(operation.summary ?? operation.operationId);
  });

  it("prefills every query parameter with its example, or leaves it empty", () => {
    expect(entry("searchStockMusic")?.query).toEqual({
      query: "sunset over the sea",
      min_duration: "",
      max_duration: "",
      sort: "",
    });
    expect(entry("getAccountCredits")?.query).toEqual({});
  });

  it("offers each named request example with its summary, in the description's order", () => {
    const operation = operations(bundle).find(({ operation: o }) => o.operationId === "createVideoVA")?.operation;
    const examples = operation?.requestBody?.content["application/json"]?.examples ?? {};
    expect(Object.keys(examples).length).toBeGreaterThan(1);
    expect(entry("createVideoVA")?.examples).toEqual(
      Object.entries(examples).map(([name, raw]) => {
        const example = deref(bundle, raw);
        return { name, summary: example.summary ?? name, value: example.value };
      }),
    );
    expect(entry("getAccountCredits")?.examples).toEqual([]);
  });

  it("names the credits route, the rate-limit headers in lower case, the terminal and success statuses", () => {
    expect(data.creditsPath).toBe("/v1/account/credits");
    expect(data.highlightedHeaders).toEqual([
      "x-ratelimit-limit",
      "x-ratelimit-remaining",
      "x-ratelimit-reset",
      "retry-after",
    ]);
    expect(data.terminalStatuses).toEqual(["succeeded", "failed", "timeout"]);
    expect(data.successStatus).toBe("succeeded");
  });

  it("fails the build when the description has no credits operation, naming it", () => {
    const without = { ...model, account: { ...model.account, creditsOperationId: "noCredits" } };
    expect(() => consoleData(without)).toThrow("the description has no noCredits operation");
  });
});

describe("jobFollowing", () => {
  it("follows a create route's job at its own area's poll route, interval (the cadence's minimum) and result fields", () => {
    const video = model.areas.find((area) => area.id === "video");
    expect(video?.poll.intervalSeconds?.min).toBe(10);
    const route = model.createRoutes.find((candidate) => candidate.areaId === "video");
    expect(jobFollowing(model, route?.operationId ?? "")).toEqual({
      idField: route?.idField,
      pollPath: "/v1/videos/{id}",
      intervalMs: 10_000,
      cadence: "every 10 to 30 seconds",
      resultFields: [...(video?.resultFields ?? [])],
    });
  });

  it("polls at the client's default interval where the area states no cadence", () => {
    const route = model.createRoutes.find((candidate) => candidate.areaId === "audio");
    expect(jobFollowing(model, route?.operationId ?? "")).toMatchObject({
      pollPath: "/v1/audios/{id}",
      intervalMs: DEFAULT_POLL_INTERVAL_MS,
      cadence: null,
    });
  });

  it("follows nothing for a create answer without a job id, or for another operation", () => {
    const noId = model.createRoutes.find((candidate) => candidate.idField === null);
    expect(noId).toBeDefined();
    expect(jobFollowing(model, noId?.operationId ?? "")).toBeNull();
    expect(jobFollowing(model, "getAccountCredits")).toBeNull();
  });
});
