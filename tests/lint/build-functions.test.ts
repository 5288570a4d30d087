import { readFileSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildSpectralFunctions } from "../../lint/build-functions.ts";

const built = fileURLToPath(new URL("../../lint/.functions/house-rules.js", import.meta.url));
const inputs = `${built}.inputs.json`;

describe("building the house rules for Spectral", () => {
  it("rebuilds only when a file the build read has changed", async () => {
    await buildSpectralFunctions();
    const first = statSync(built).mtimeMs;
    await buildSpectralFunctions();
    expect(statSync(built).mtimeMs).toBe(first);
    const recorded = JSON.parse(readFileSync(inputs, "utf8")) as Record<string, string>;
    expect(Object.keys(recorded)).toEqual(
      expect.arrayContaining(["lint/spectral/house-rules.ts", "lint/rules/index.ts", "model/read-routes.ts"]),
    );
    writeFileSync(inputs, JSON.stringify({ ...recorded, "lint/rules/index.ts": "an older digest" }));
    await buildSpectralFunctions();
    expect(statSync(built).mtimeMs).toBeGreaterThan(first);
    expect(JSON.parse(readFileSync(inputs, "utf8"))).toEqual(recorded);
  });
});
