/**
 * Smoke run of the client against the Prism mock of the bundled description: every create route
 * with its first named request example, then one poll of the job it names, and every other
 * operation's method.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningPrism } from "../../mock/prism.ts";
import { createClient, routeTable, type MediaServiceClient } from "../../generated/client.ts";
import type { AreaClient } from "../../runtime/client/media-client.ts";
import { createPath, type RouteTable } from "../../runtime/client/route-table.ts";
import { Contract } from "../../contract/contract.ts";
import { firstRequestExample } from "../support/description.ts";

const contract = new Contract();
const statuses = contract.model.jobStatus.values;

/** The first named example of the 200 response of `method` `path`: what Prism answers when no Prefer header chooses. */
function documentedAnswer(path: string, method: "get" | "post"): unknown {
  const response = contract.byPath(method, path)?.responses["200"];
  const value = response ? contract.responseExamples(response)[0]?.value : undefined;
  if (value === undefined)
    throw new Error(`${method.toUpperCase()} ${path} shows no named example of its 200 response`);
  return value;
}

/** An area client seen without its per-slug body types: the bodies here are read from the description. */
type AnyAreaClient = AreaClient<unknown, RouteTable, string>;

let prism: RunningPrism;
let client: MediaServiceClient;

beforeAll(async () => {
  prism = await startMock();
  client = createClient({ apiKey: "live_smoke_test_key", baseUrl: prism.baseUrl, maxRetries: 0 });
});
afterAll(() => prism?.stop());

describe("the client against the Prism mock", () => {
  for (const [area, { pollPath, routes }] of Object.entries(routeTable.areas)) {
    for (const [slug, route] of Object.entries(routes)) {
      const path = createPath(pollPath, slug);
      it(`${area}.create("${slug}") with POST ${path}'s example, then a poll of its job`, async () => {
        const areaClient = (client as unknown as Record<string, AnyAreaClient>)[area] as AnyAreaClient;
        const { jobId, created } = await areaClient.create(slug, firstRequestExample(path) as never);
        expect(created).toEqual(documentedAnswer(path, "post"));
        if (route === null) {
          expect(jobId).toBeNull();
          return;
        }
        expect(jobId).toMatch(/\S/);
        const job = (await areaClient.get(jobId as string)) as { status: string };
        expect(statuses).toContain(job.status);
        expect(client.rateLimit).not.toBeNull();
      });
    }
  }

  for (const [operationId, [method, path, input]] of Object.entries(routeTable.operations)) {
    it(`${operationId}: ${method.toUpperCase()} ${path} answers with its documented response`, async () => {
      const call = (client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[operationId]!;
      const result = await call(...(input === "body" ? [firstRequestExample(path, method)] : []));
      expect(result).toEqual(documentedAnswer(path, method));
    });
  }
});
