/**
 * generators/index.ts: every generator's files from one service model, written only once all of them
 * succeeded, each beside its target first and then renamed into place, so that a failure leaves no
 * half-written output; a failure names the generator and where it failed.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { generateAll, GeneratorError, PROJECT_ROOT, writeGenerated } from "../../generators/index.ts";
import { model } from "../support/description.ts";
import { withVariant } from "./models.ts";

const ROOT = new URL("../../", import.meta.url);

describe("generateAll", () => {
  it("makes every generated file, each as committed", async () => {
    const files = await generateAll(model);
    expect(Object.keys(files).sort()).toEqual([
      "docs/pricing.md",
      "docs/rules.md",
      "generated/client.ts",
      "generated/costs.ts",
      "generated/mcp-catalog.ts",
      "generated/media-inputs.ts",
      "generated/models.ts",
      "generated/rules.json",
      "generated/types.ts",
    ]);
    for (const [file, text] of Object.entries(files))
      expect(text, file).toBe(readFileSync(new URL(file, ROOT), "utf8"));
  });

  it("names the generator that failed, with the error's stack", async () => {
    const broken = withVariant("cooldown", { secondsField: null });
    const failure = await generateAll(broken).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GeneratorError);
    expect((failure as Error).message).toMatch(
      /^generator client failed: Error: generators\/client\.ts: the cooldown 429 variant carries no seconds field\n\s+at /,
    );
  });

  it("refuses two generators making the same file", async () => {
    await expect(generateAll(model, ["costs", "costs"])).rejects.toThrow(
      /^generator costs failed: Error: (docs\/pricing\.md|generated\/costs\.ts) is produced twice/,
    );
  });
});

describe("writeGenerated", () => {
  let root: string | undefined;
  afterEach(() => root && rmSync(root, { recursive: true, force: true }));

  it("writes each file in place and leaves no temporary file behind", () => {
    root = mkdtempSync(join(tmpdir(), "generated-"));
    mkdirSync(join(root, "generated"));
    writeGenerated({ "generated/a.ts": "export const a = 1;\n", "generated/b.json": "{}\n" }, root);
    expect(readdirSync(join(root, "generated")).sort()).toEqual(["a.ts", "b.json"]);
    expect(readFileSync(join(root, "generated/a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(readFileSync(join(root, "generated/b.json"), "utf8")).toBe("{}\n");
  });
});

describe("where generated files go", () => {
  it("is the project's root unless a caller names another", () => {
    expect(PROJECT_ROOT).toBe(fileURLToPath(ROOT));
  });
});
