/**
 * Each guide placeholder, one at a time (docs-src/guide-placeholders.ts): what it is replaced by,
 * table headers included, written here from the description's fields (the bundle's, read
 * directly, or a small change of it), and the build errors a wrong placeholder gives. The guides
 * as built are checked in guide-facts.test.ts.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fillPlaceholders } from "../../docs-src/guide-placeholders.ts";
import { deref, loadBundle, operations, type JsonSchema, type OpenApiDocument } from "../../model/document.ts";
import { DEFAULT_CONFIG_FILE, DEFAULT_SANDBOX_PORT } from "../../sandbox/config.ts";

const bundle = loadBundle();
const fill = (placeholder: string, doc: OpenApiDocument = bundle): string =>
  fillPlaceholders(placeholder, doc, "guide.md");

/** The bundle with `change` made to a copy of it. */
function changed(change: (doc: OpenApiDocument) => void): OpenApiDocument {
  const doc = structuredClone(bundle);
  change(doc);
  return doc;
}

/** A Markdown table's lines, as the guide shows them. */
const table = (header: string[], rows: string[][]): string =>
  [header, header.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");

const schema = (name: string): JsonSchema => bundle.components.schemas?.[name] as JsonSchema;

describe("fillPlaceholders", () => {
  it("replaces every placeholder of a text and leaves the rest as written", () => {
    expect(fill(`Version {{version}} and {{terminal-states}}.\n`)).toBe(
      `Version \`${bundle.info.version}\` and \`succeeded\`, \`failed\`, \`timeout\`.\n`,
    );
  });

  it("refuses an unknown placeholder, naming the guide and the placeholder", () => {
    expect(() => fill("{{no-such-fact}}")).toThrow("guide.md: unknown placeholder {{no-such-fact}}");
  });

  it("reads a placeholder's arguments whatever the spaces around them", () => {
    expect(fill("{{example  getImageJob 200 processing }}")).toBe(fill("{{example getImageJob 200 processing}}"));
  });
});

describe("info-item and info-item-text", () => {
  const limits = (section: string): OpenApiDocument =>
    changed((doc) => {
      doc.info.description = `Intro.\n\n## Limits\n\n${section}\n\n## Other\n\n- **Requests:** not this one.\n`;
    });

  it("give an item of a numbered or a bulleted list whole, on one line, however its lines are broken", () => {
    const doc = limits(
      "Requests are limited as follows.\n\n" +
        "1. **Requests:** 600 per minute - per key,\nin fixed windows;  \n   whichever comes first.\n" +
        "10. **Tenth:** the tenth item.\n" +
        "- Stock searches count  \n  once each.\n",
    );
    expect(fill("{{info-item Limits | Requests}}", doc)).toBe(
      "**Requests:** 600 per minute - per key, in fixed windows; whichever comes first.",
    );
    expect(fill("{{info-item Limits | Tenth}}", doc)).toBe("**Tenth:** the tenth item.");
    expect(fill("{{info-item Limits | Stock searches}}", doc)).toBe("Stock searches count once each.");
  });

  it("give an item's text without its bold lead, first letter capital, for a guide that heads it", () => {
    const doc = limits("- **Cooldown:**   ten minutes,\n  then ten more.\n- plain words with **bold** inside.\n");
    expect(fill("{{info-item-text Limits | Cooldown}}", doc)).toBe("Ten minutes, then ten more.");
    expect(fill("{{info-item-text Limits | plain words}}", doc)).toBe("Plain words with **bold** inside.");
  });

  it("fail the build naming the section and the lead when no item starts so", () => {
    const doc = limits("- **Requests:** 600 per minute.\n");
    expect(() => fill("{{info-item Limits | Uploads}}", doc)).toThrow(
      '{{info-item Limits | Uploads}}: no item starting "**Uploads" or "Uploads" under "## Limits"',
    );
    expect(() => fill("{{info-item Nowhere | Requests}}", doc)).toThrow('info.description has no "## Nowhere" section');
  });

  it("fail the build on a placeholder without a lead, instead of taking the first item", () => {
    const doc = limits("- **Requests:** 600 per minute.\n");
    for (const placeholder of ["{{info-item Limits}}", "{{info-item Limits | }}", "{{info-item-text  | Requests}}"])
      expect(() => fill(placeholder, doc), placeholder).toThrow(
        "give the section's heading and the item's first words, \"heading | lead\"",
      );
  });
});

describe("the set-up placeholders", () => {
  const sandboxKey = (): string =>
    (Object.values(JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, "utf8")).accounts)[0] as { keys: string[] }).keys[0] ??
    "";
  const sandboxUrl = `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}`;
  const mockUrl = (bundle.servers?.[0]?.variables?.base_url?.default ?? "") as string;

  it("env-setup exports the first server's address, its variables at their defaults, and a key to fill in", () => {
    const doc = changed((d) => {
      d.servers = [
        {
          url: "http://{host}:{port}/{rest}",
          variables: { host: { default: "127.0.0.1" }, port: { default: "4010" } },
        },
        { url: "http://elsewhere" },
      ];
    });
    expect(fill("{{env-setup}}", doc)).toBe(
      "```sh\nexport BASE_URL=http://127.0.0.1:4010/rest\nexport API_KEY=...  # your API key\n```",
    );
  });

  it("env-setup fails the build on a description without a server", () => {
    const doc = changed((d) => {
      delete d.servers;
    });
    expect(() => fill("{{env-setup}}", doc)).toThrow("the description has no server");
  });

  it("local-servers tables the mock and the sandbox with their addresses and keys, then how to use the sandbox", () => {
    expect(mockUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(fill("{{local-servers}}")).toBe(
      `${table(
        ["Command", "Serves", "Address", "Key"],
        [
          ["`npm run mock`", "the contract mock: the description's examples, no state", `\`${mockUrl}\``, "any"],
          [
            "`npm run sandbox`",
            "the stateful sandbox: jobs run, credits charged, limits enforced",
            `\`${sandboxUrl}\``,
            `\`${sandboxKey()}\` (its demo account)`,
          ],
        ],
      )}\n\nTo use the sandbox:\n\n` +
        `\`\`\`sh\nnpm run sandbox   # in another terminal\nexport BASE_URL=${sandboxUrl}\nexport API_KEY=${sandboxKey()}\n\`\`\``,
    );
  });

  it("authentication gives each security scheme's whole description, trimmed, a paragraph each", () => {
    const doc = changed((d) => {
      d.components.securitySchemes = {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "\n  Send a bearer key.\n\nKeys start with a prefix.  \n",
        },
        plain: { type: "http", scheme: "basic" },
        other: { type: "apiKey", in: "header", name: "X-Key", description: "Or a header key." },
      };
    });
    expect(fill("{{authentication}}", doc)).toBe(
      "Send a bearer key.\n\nKeys start with a prefix.\n\n\n\nOr a header key.",
    );
    const none = changed((d) => {
      d.components.securitySchemes = {};
    });
    expect(() => fill("{{authentication}}", none)).toThrow("the description has no security scheme");
  });
});

describe("the jobs placeholders", () => {
  it("job-states tables each state with its terminal flag and meaning", () => {
    const status = schema("JobStatus");
    const terminal = status["x-terminal-values"] as string[];
    const meanings = status["x-enumDescriptions"] as Record<string, string>;
    expect(fill("{{job-states}}")).toBe(
      table(
        ["State", "Terminal", "Meaning"],
        (status.enum as string[]).map((state) => [
          `\`${state}\``,
          terminal.includes(state) ? "yes" : "no",
          meanings[state] ?? "",
        ]),
      ),
    );
  });

  it("polling tables each poll route with its cadence, interval, typical duration in minutes and retention, a dash where unstated", () => {
    // Every area's poll route (GET of a job by id), with or without x-polling.
    const rows = operations(bundle).flatMap(({ path, method, operation }) => {
      if (method !== "get" || !path.endsWith("/{id}")) return [];
      const polling = operation["x-polling"] as
        | {
            cadence?: string;
            minIntervalSeconds?: number;
            maxIntervalSeconds?: number;
            typicalDurationSeconds?: { min: number; max: number };
            resultRetentionHours?: number;
            resultRetentionApproximate?: boolean;
          }
        | undefined;
      const kept = polling?.resultRetentionHours;
      return [
        [
          `\`GET ${path}\``,
          polling?.cadence ?? "—",
          polling?.minIntervalSeconds ? `${polling.minIntervalSeconds} to ${polling.maxIntervalSeconds} s` : "—",
          polling?.typicalDurationSeconds
            ? `${polling.typicalDurationSeconds.min / 60} to ${polling.typicalDurationSeconds.max / 60} min`
            : "—",
          kept === undefined ? "—" : `${polling?.resultRetentionApproximate ? "about " : ""}${kept} hours`,
        ],
      ];
    });
    // The table covers each case: stated and unstated interval, duration and retention, about and exact.
    expect(rows.some((row) => row[3] !== "—")).toBe(true);
    expect(rows.some((row) => row[4]?.startsWith("about "))).toBe(true);
    expect(rows.some((row) => /^\d+ hours$/.test(row[4] ?? ""))).toBe(true);
    expect(rows.some((row) => row.slice(1).every((cell) => cell === "—"))).toBe(true);
    expect(fill("{{polling}}")).toBe(
      table(["Poll route", "Cadence", "Interval", "Typical duration", "Result files kept"], rows),
    );
  });
});

/** The error body's `error` object, in `doc`. */
const errorObject = (doc: OpenApiDocument): JsonSchema =>
  deref<{ properties: Record<string, JsonSchema> }>(doc, { $ref: "#/components/schemas/ErrorBody" }).properties
    .error as JsonSchema;

describe("the errors placeholders", () => {
  it("error-body tables the error object's fields with their type, requiredness and meaning", () => {
    const error = errorObject(bundle);
    const required = error.required as string[];
    const rows = Object.entries(error.properties as Record<string, JsonSchema>).map(([name, field]) => [
      `\`error.${name}\``,
      String(field.type),
      required.includes(name) ? "yes" : "no",
      String(field.description),
    ]);
    expect(fill("{{error-body}}")).toBe(table(["Field", "Type", "Required", "Meaning"], rows));
  });

  it("error-body says no for a field the error object does not require, and an empty cell for what a field does not state", () => {
    const doc = changed((d) => {
      const error = errorObject(d);
      error.required = ["type"];
      error.properties = { type: { type: "string", description: "The type." }, detail: {} };
    });
    expect(fill("{{error-body}}", doc)).toBe(
      table(
        ["Field", "Type", "Required", "Meaning"],
        [
          ["`error.type`", "string", "yes", "The type."],
          ["`error.detail`", "", "no", ""],
        ],
      ),
    );
  });

  it("error-body fails the build when the error body has no error object", () => {
    const doc = changed((d) => {
      const error = errorObject(d);
      delete error.properties;
    });
    expect(() => fill("{{error-body}}", doc)).toThrow("ErrorBody has no error object");
  });

  it("error-responses tables each error status with its answer's first paragraph, a closing colon made a full stop", () => {
    const filled = fill("{{error-responses}}");
    expect(filled.startsWith("| HTTP status | Meaning |\n| --- | --- |\n| 400 | ")).toBe(true);
    const doc = changed((d) => {
      for (const { operation } of operations(d)) {
        const answer = operation.responses["410"];
        if (answer) operation.responses["410"] = { description: "Retired: use another model:\n\n- one\n- two\n" };
      }
    });
    expect(fill("{{error-responses}}", doc)).toContain("\n| 410 | Retired: use another model. |\n");
  });

  it("moderation-reasons gives the reason's description, then tables each reason with its meaning", () => {
    const reason = schema("RestrictionReason");
    const meanings = reason["x-enumDescriptions"] as Record<string, string>;
    expect(fill("{{moderation-reasons}}")).toBe(
      `${reason.description}\n\n${table(
        ["restriction_reason", "Meaning"],
        (reason.enum as string[]).map((value) => [`\`${value}\``, meanings[value] ?? ""]),
      )}`,
    );
  });

  it("too-many-requests gives the 429 answer's whole description, trimmed, then each example under its summary", () => {
    const answer = deref(bundle, operations(bundle)[0]?.operation.responses["429"] ?? { description: "" });
    const examples = Object.values(answer.content?.["application/json"]?.examples ?? {}).map((raw) =>
      deref(bundle, raw),
    );
    expect(examples.length).toBe(4);
    expect(answer.description).not.toBe(answer.description.trim());
    expect(fill("{{too-many-requests}}")).toBe(
      [
        answer.description.trim(),
        ...examples.map(
          (example) => `**${example.summary}**\n\n\`\`\`json\n${JSON.stringify(example.value, null, 2)}\n\`\`\``,
        ),
      ].join("\n\n"),
    );
  });

  it("rate-limit-headers tables each header a 429 answer carries, once, with its description's first paragraph", () => {
    const answer = deref(bundle, operations(bundle)[0]?.operation.responses["429"] ?? { description: "" });
    const rows = Object.entries(answer.headers ?? {}).map(([name, raw]) => {
      const description = String(deref(bundle, raw as { description?: string }).description);
      return [`\`${name}\``, (description.trim().split(/\n\s*\n/)[0] ?? "").replace(/\s*\n\s*/g, " ")];
    });
    expect(rows.map(([name]) => name)).toEqual([
      "`X-RateLimit-Limit`",
      "`X-RateLimit-Remaining`",
      "`X-RateLimit-Reset`",
      "`Retry-After`",
    ]);
    expect(fill("{{rate-limit-headers}}")).toBe(table(["Header", "Meaning"], rows));
  });
});

describe("the billing, sample, example and not-shown placeholders", () => {
  it("charged-when tables each charging rule with its meaning and its operations", () => {
    const filled = fill("{{charged-when}}");
    expect(filled.split("\n").slice(0, 2)).toEqual(["| Charged | When | Operations |", "| --- | --- | --- |"]);
    expect(filled).toContain(
      "| `per-request` | every request, including empty results | `GET /v1/stock/images`, `GET /v1/stock/sound-effects`, `GET /v1/stock/music` |",
    );
  });

  it("sample fences an operation's code sample in its language and refuses a kind or operation it has none for", () => {
    const sample = fill("{{sample curl getImageJob}}");
    expect(sample).toMatch(
      /^```sh\ncurl "\$BASE_URL\/v1\/images\/[^"]+" \\\n {2}-H "Authorization: Bearer \$API_KEY"\n```$/,
    );
    expect(fill("{{sample client getImageJob}}")).toMatch(/^```ts\n[\s\S]+\n```$/);
    expect(fill("{{sample python getImageJob}}")).toMatch(/^```python\n[\s\S]+\n```$/);
    expect(fill("{{sample fetch getImageJob}}")).toMatch(/^```js\n[\s\S]+\n```$/);
    expect(() => fill("{{sample ruby getImageJob}}")).toThrow(
      "{{sample ruby getImageJob}}: no ruby sample for operation getImageJob",
    );
    expect(() => fill("{{sample curl noSuchOperation}}")).toThrow("no curl sample for operation noSuchOperation");
  });

  it("example shows a named response example, or the answer's first, as JSON, and refuses one the description lacks", () => {
    const answer = deref(
      bundle,
      operations(bundle).find(({ operation }) => operation.operationId === "getImageJob")?.operation.responses[
        "200"
      ] ?? { description: "" },
    );
    const examples = answer.content?.["application/json"]?.examples ?? {};
    const [first, second] = Object.entries(examples);
    expect(second).toBeDefined();
    const json = (raw: unknown): string =>
      `\`\`\`json\n${JSON.stringify(deref(bundle, raw as { value?: unknown }).value, null, 2)}\n\`\`\``;
    expect(fill(`{{example getImageJob 200 ${second?.[0]}}}`)).toBe(json(second?.[1]));
    expect(fill("{{example getImageJob 200}}")).toBe(json(first?.[1]));
    for (const wrong of ["getImageJob 200 no-such-example", "getImageJob 599", "noSuchOperation 200"])
      expect(() => fill(`{{example ${wrong}}}`), wrong).toThrow(`{{example ${wrong}}}: no such response example`);
  });

  it("not-shown counts the markers and tables them by owner, a marker on the owner itself shown as (itself)", () => {
    const doc = changed((d) => {
      d.info["x-not-shown"] = { "base-url": "The root is not shown." };
    });
    const filled = fill("{{not-shown}}", doc);
    expect(filled).toMatch(/^The description carries \*\*\d+\*\* `x-not-shown` markers\.\n\n### /);
    expect(filled).toContain("| Where | What | Left unstated |\n| --- | --- | --- |\n");
    expect(filled).toContain("| (itself) | `base-url` | The root is not shown. |");
    expect(filled).toMatch(/\| request body › `[^`]+` \| `[a-z-]+` \| /);
  });
});
