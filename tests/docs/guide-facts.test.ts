/**
 * The guides' facts that come from the description match the bundle: job states and terminal
 * states, cadences, moderation reasons, the 429 variants and the not-shown list are read here
 * straight from generated/openapi.json (not through the docs code) and looked up in the built
 * guides. Hand-written prose may only name identifiers the description holds.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import extensions from "../../model/extensions.schema.json" with { type: "json" };
import { fillPlaceholders } from "../../docs-src/guide-placeholders.ts";
import { generate as generatePricing } from "../../generators/costs.ts";
import { guideMarkdown, PROJECT_ROOT } from "../../docs-src/site.ts";
import { SITE_PAGES } from "../../docs-src/site-pages.ts";
import {
  deref,
  HTTP_METHODS,
  loadBundle,
  operations,
  type JsonSchema,
  type ResponseObject,
} from "../../model/document.ts";
import { readServiceModel } from "../../model/service-model.ts";

const doc = loadBundle();
const schemas = doc.components.schemas ?? {};
const guide = (name: string): string => guideMarkdown(`docs/guides/${name}.md`, doc);
const guideSources = SITE_PAGES.flatMap((page) =>
  page.kind === "markdown" && page.source.startsWith("docs/guides/") ? [page.source] : [],
);

/** Table rows of a Markdown text, as arrays of trimmed cells. */
function rows(markdown: string): string[][] {
  return markdown
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| ---"))
    .map((line) =>
      line
        .slice(2, -2)
        .split(" | ")
        .map((cell) => cell.trim()),
    );
}

describe("guides", () => {
  it("have every placeholder filled", () => {
    for (const source of guideSources) expect(guideMarkdown(source, doc), source).not.toMatch(/\{\{|\}\}/);
  });

  it("fail the build on an unknown placeholder or on facts missing from the description", () => {
    expect(() => fillPlaceholders("{{no-such-fact}}", doc, "test.md")).toThrow(/unknown placeholder/);
    const withoutTerminal = structuredClone(doc);
    delete (withoutTerminal.components.schemas!.JobStatus as JsonSchema)["x-terminal-values"];
    expect(() => fillPlaceholders("{{job-states}}", withoutTerminal, "test.md")).toThrow(/JobStatus/);
    expect(() => fillPlaceholders("{{sample curl noSuchOperation}}", doc, "test.md")).toThrow(/noSuchOperation/);
  });

  it("state every job state with its terminal flag", () => {
    const jobStatus = schemas.JobStatus as JsonSchema;
    const terminal = jobStatus["x-terminal-values"] as string[];
    const table = rows(guide("jobs-and-polling"));
    for (const state of jobStatus.enum as string[]) {
      expect(table).toContainEqual(expect.arrayContaining([`\`${state}\``, terminal.includes(state) ? "yes" : "no"]));
    }
    expect(terminal.length).toBeGreaterThan(0);
    expect(guide("getting-started")).toContain(terminal.map((state) => `\`${state}\``).join(", "));
  });

  it("give every poll route with the cadence and retention of its x-polling", () => {
    const table = rows(guide("jobs-and-polling"));
    const polled = operations(doc).filter(({ operation }) => operation["x-polling"] !== undefined);
    expect(polled.length).toBeGreaterThan(0);
    for (const { path, operation } of polled) {
      const polling = operation["x-polling"] as {
        cadence?: string;
        resultRetentionHours?: number;
        resultRetentionApproximate?: boolean;
      };
      const row = table.find((cells) => cells[0] === `\`GET ${path}\``);
      expect(row, path).toBeDefined();
      if (polling.cadence) expect(row?.[1]).toBe(polling.cadence);
      if (polling.resultRetentionHours !== undefined) {
        expect(row?.[4]).toBe(
          `${polling.resultRetentionApproximate ? "about " : ""}${polling.resultRetentionHours} hours`,
        );
      }
    }
  });

  it("give every error status an operation of the description answers a row of the errors guide's status table, with that answer's meaning", () => {
    // Each error answer (status 400 and above) of each operation, read from the bundle itself.
    const answers = new Map<string, Set<string>>();
    for (const item of Object.values(doc.paths)) {
      for (const method of HTTP_METHODS) {
        const operation = (item as Record<string, { responses?: Record<string, ResponseObject> } | undefined>)[method];
        for (const [status, raw] of Object.entries(operation?.responses ?? {})) {
          if (!/^[45]\d\d$/.test(status)) continue;
          const meaning = deref(doc, raw).description.trim().replace(/\s+/g, " ");
          answers.set(status, (answers.get(status) ?? new Set()).add(meaning));
        }
      }
    }
    expect(answers.has("400")).toBe(true);
    const errors = guide("errors");
    const start = errors.indexOf("## Status codes");
    expect(start).toBeGreaterThanOrEqual(0);
    const table = rows(errors.slice(start, errors.indexOf("\n## ", start + 1)));
    expect(table[0]).toEqual(["HTTP status", "Meaning"]);
    const statusRows = table.slice(1);
    expect([...new Set(statusRows.map(([status]) => status))].sort()).toEqual([...answers.keys()].sort());
    for (const [status, meaning = ""] of statusRows) {
      // The row states the start of one of that status's answers (its first paragraph, a closing colon made a full stop).
      const stated = meaning.replace(/[.:]$/, "");
      expect(
        [...(answers.get(status ?? "") ?? [])].some((description) => description.startsWith(stated)),
        `${status} | ${meaning}`,
      ).toBe(true);
    }
  });

  it("list every moderation reason with its description", () => {
    const reason = schemas.RestrictionReason as JsonSchema;
    const descriptions = reason["x-enumDescriptions"] as Record<string, string>;
    const table = rows(guide("errors"));
    for (const value of reason.enum as string[]) expect(table).toContainEqual([`\`${value}\``, descriptions[value]]);
  });

  it("explain the four 429 variants with an example of each", () => {
    const tooMany = deref(doc, operations(doc)[0]?.operation.responses["429"] as ResponseObject);
    const variants = (schemas.TooManyRequestsBody as JsonSchema).anyOf as unknown[];
    const examples = Object.values(tooMany.content?.["application/json"]?.examples ?? {}).map((raw) => deref(doc, raw));
    expect(variants).toHaveLength(4);
    expect(examples).toHaveLength(variants.length);
    const errors = guide("errors");
    expect(errors).toContain(tooMany.description.trim());
    for (const example of examples)
      expect(errors).toContain(`**${example.summary}**\n\n\`\`\`json\n${JSON.stringify(example.value, null, 2)}`);
  });

  it("list every x-not-shown marker of the description, grouped by where it sits", () => {
    const markers: Array<{ path: string[]; key: string; sentence: string }> = [];
    const walk = (node: unknown, path: string[]): void => {
      if (typeof node !== "object" || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if (key === "x-not-shown")
          for (const [what, sentence] of Object.entries(value as object))
            markers.push({ path, key: what, sentence: String(sentence) });
        else walk(value, [...path, key]);
      }
    };
    walk(doc, []);
    expect(markers.length).toBeGreaterThan(0);

    const page = guide("not-shown");
    expect(page).toContain(`**${markers.length}** \`x-not-shown\` markers`);
    const table = rows(page);
    expect(table).toHaveLength(markers.length + page.split("\n### ").length - 1); // one header row per section
    for (const marker of markers)
      expect(table).toContainEqual(
        expect.arrayContaining([`\`${marker.key}\``, marker.sentence.replace(/\|/g, "\\|")]),
      );

    // Markers on operations sit under that operation's heading.
    const sections = new Map(
      page
        .split("\n### ")
        .slice(1)
        .map((section) => [section.split("\n")[0] ?? "", section]),
    );
    for (const marker of markers) {
      const [area, path, method] = marker.path;
      if (area !== "paths" || !method || !(HTTP_METHODS as readonly string[]).includes(method)) continue;
      expect(sections.get(`${method.toUpperCase()} ${path}`), `${method} ${path}`).toContain(marker.sentence);
    }
  });

  it("say for every operation when it is charged, from its x-pricing, and claim no price marker the description lacks", () => {
    const table = rows(guide("billing"));
    for (const { path, method, operation } of operations(doc)) {
      const charged = (operation["x-pricing"] as { charged?: string } | undefined)?.charged;
      const marked = (operation["x-not-shown"] as Record<string, unknown> | undefined)?.price !== undefined;
      const rule = charged === undefined ? (marked ? "price not shown" : "no price stated") : `\`${charged}\``;
      const row = table.find((cells) => cells[0] === rule);
      expect(row?.[2], `${method} ${path}`).toContain(`\`${method.toUpperCase()} ${path}\``);
      expect(row?.[1], rule).not.toBe("");
    }
    // Each charging mode is explained in the words of its definition in the extension schema.
    const chargedDefinition = extensions.$defs["x-pricing"].properties.charged;
    const modeRows = table.filter((cells) => chargedDefinition.enum.some((mode) => cells[0] === `\`${mode}\``));
    expect(modeRows.length).toBeGreaterThan(0);
    for (const [mode, meaning] of modeRows)
      expect(chargedDefinition.description).toContain(`${mode?.replace(/`/g, "")}: ${meaning}`);
  });

  it("show price tables that are the pricing generator's output for this bundle", () => {
    const expected = generatePricing(readServiceModel(doc))["docs/pricing.md"];
    expect(expected).toBeDefined();
    expect(
      readFileSync(join(PROJECT_ROOT, "docs", "pricing.md"), "utf8") === expected,
      "docs/pricing.md is stale: run npm run generate",
    ).toBe(true);
  });

  it("name in their hand-written prose only identifiers the description holds", () => {
    const description = JSON.stringify(doc);
    const named = guideSources.flatMap((source) => {
      const prose = readFileSync(join(PROJECT_ROOT, source), "utf8").replace(/\{\{[^}]*\}\}/g, "");
      return [...prose.matchAll(/`([^`]+)`/g)].map((match) => ({ source, identifier: match[1] ?? "" }));
    });
    expect(named.length).toBeGreaterThan(0);
    for (const { source, identifier } of named)
      expect(description, `${source} names \`${identifier}\``).toContain(identifier);
  });
});

describe("the limits guide", () => {
  it("gives every limit of the description's Limits section a section of its own, with the item's text", () => {
    const limits = String(doc.info.description ?? "")
      .split(/^## /m)
      .find((section) => section.startsWith("Limits\n"));
    const items = (limits ?? "").split(/^- /m).slice(1);
    expect(items.length).toBeGreaterThan(4);
    const text = guide("limits");
    for (const item of items) {
      const lead = /^\*\*([^*:]+):?\*\*/.exec(item)?.[1];
      // Its words (the bold lead aside), on one line as the guide shows them.
      const words = item
        .replace(/^\*\*[^*]+\*\*\s*/, "")
        .replace(/\s+/g, " ")
        .trim();
      expect(text.replace(/\s+/g, " ").toLowerCase(), lead ?? words).toContain(words.toLowerCase());
      if (lead) expect(text, lead).toMatch(new RegExp(`^## ${lead}$`, "m"));
    }
  });
});
