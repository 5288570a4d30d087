/**
 * A create with a slug that is no model of this build (a placeholder on a build with real slugs, a
 * typo) is the specification's "unavailable model": 400 with the description's invalid-request type
 * and code, not the 405 the area's poll route (`/v1/images/{id}`) would give; nothing is created or
 * charged. Other methods on such a path, and polls of unknown ids, answer as before.
 */
import { describe, expect, it } from "vitest";
import { example, KEY, model, checkedSandboxes } from "./support.ts";

const sandbox = checkedSandboxes();
const { invalidRequest } = model.errors;
const UNKNOWN = "no-such-model";

describe("a create path with a slug that is no model of this build", () => {
  it.each(model.areas.map((area) => [area.id, area] as const))(
    "%s: 400 with the description's invalid-request type and code, the error body and the rate-limit headers",
    async (_id, area) => {
      const sb = await sandbox();
      const [route] = area.createRoutes;
      const path = `${route!.path.slice(0, route!.path.lastIndexOf("/") + 1)}${UNKNOWN}`;
      const before = (await sb.send("GET", "/v1/account/credits")).json as unknown;
      const answer = await sb.send("POST", path, { body: example(route!.path) });
      expect(answer.status).toBe(invalidRequest.status);
      expect(answer.json).toEqual({
        error: { type: invalidRequest.type, code: invalidRequest.code, message: expect.any(String) },
      });
      const { message } = (answer.json as { error: { message: string } }).error;
      expect(message).toContain(`${UNKNOWN} is not a model of this build`);
      for (const known of area.createRoutes) expect(message).toContain(known.slug);
      for (const name of Object.values(model.rateLimitHeaders)) expect(answer.headers.has(name), name).toBe(true);
      expect(answer.headers.has("allow")).toBe(false);
      expect((await sb.send("GET", "/v1/account/credits")).json).toEqual(before);
    },
  );

  it("another method there still answers 405 with Allow: GET (the poll route's)", async () => {
    const sb = await sandbox();
    const answer = await sb.send("DELETE", `/v1/images/${UNKNOWN}`);
    expect([answer.status, answer.headers.get("allow")]).toEqual([405, "GET"]);
  });

  it("a poll of an unknown job id answers as before (403, the id is no job of this account)", async () => {
    const sb = await sandbox();
    expect((await sb.send("GET", `/v1/images/${UNKNOWN}`, { key: KEY })).status).toBe(403);
  });
});
