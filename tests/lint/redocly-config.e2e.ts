/**
 * The Redocly configuration (redocly.yaml) on the lint fixtures: each check a `redocly lint`
 * process (so in the end-to-end suite; `npm test`'s lint step runs Redocly on the bundle). The
 * Spectral ruleset's fixtures are rules.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { lintWithRedocly } from "../../lint/run-redocly.ts";
import { withoutSlugMap } from "../support/placeholder-slugs.ts";
import { applyPatch, GOLDEN_FILE, golden } from "./support.ts";

// The fixtures name placeholder slugs: a slug map the project builds with does not apply to them.
withoutSlugMap();

describe("the Redocly configuration (redocly.yaml)", () => {
  const tuned = Object.keys((parse(readFileSync("redocly.yaml", "utf8")) as { rules: Record<string, unknown> }).rules);

  it("reports nothing on the golden document", async () => {
    expect(await lintWithRedocly(GOLDEN_FILE)).toEqual([]);
  });

  it("tunes only rules that the plain recommended ruleset breaks on the golden document", async () => {
    const dir = mkdtempSync(join(tmpdir(), "redocly-"));
    try {
      writeFileSync(join(dir, "recommended.yaml"), "extends: [recommended]\n");
      const ruleIds = new Set(
        (await lintWithRedocly(GOLDEN_FILE, join(dir, "recommended.yaml"))).map((problem) => problem.ruleId),
      );
      expect([...ruleIds].sort()).toEqual([...tuned].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("still rejects an example that breaks its schema", async () => {
    const dir = mkdtempSync(join(tmpdir(), "redocly-"));
    try {
      const file = join(dir, "broken-example.yaml");
      const broken = applyPatch(golden(), [
        {
          op: "replace",
          path: "/components/responses/ImageJobAccepted/content/application~1json/examples/accepted/value/status",
          value: "lost",
        },
      ]);
      writeFileSync(file, stringify(broken));
      expect((await lintWithRedocly(file)).map((problem) => [problem.ruleId, problem.pointer])).toEqual([
        [
          "no-invalid-media-type-examples",
          "#/components/responses/ImageJobAccepted/content/application~1json/examples/accepted/value/status",
        ],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
