/**
 * The docs-only copies of the bundle (docs-src/reference-copy.ts): the description is never changed;
 * each operation the contract mock has documented answers for says how to ask for each (a sentence
 * in the whole copy, a folded list on the page); a create answer's examples name the route's own
 * model; and the page's introduction keeps its lead, links each section a guide shows to that guide,
 * and keeps the sections no guide shows.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type GuideSections, referenceCopies } from "../../docs-src/reference-copy.ts";
import { deref, loadBundle, type OpenApiDocument, operations, type ResponseObject } from "../../model/document.ts";
import { preferSelections } from "../../model/prefer-selections.ts";
import { readServiceModel } from "../../model/service-model.ts";

const bundle = loadBundle();
const GUIDES: GuideSections = [
  { file: "guides/overview.html", nav: "Overview", sections: [{ id: "conventions", title: "Conventions" }] },
  { file: "guides/limits.html", nav: "Limits", sections: [{ id: "requests", title: "Requests" }] },
];

const operation = (doc: OpenApiDocument, operationId: string) => {
  const found = operations(doc).find(({ operation: candidate }) => candidate.operationId === operationId)?.operation;
  if (!found) throw new Error(`no operation ${operationId}`);
  return found;
};

describe("referenceCopies", () => {
  const before = structuredClone(bundle);
  // In a beforeAll, so that the mutation run credits each test with it (tests/mutation/hook-coverage.ts).
  let whole: OpenApiDocument;
  let page: OpenApiDocument;
  beforeAll(() => {
    ({ whole, page } = referenceCopies(bundle, GUIDES));
  });

  it("leaves the description itself as it was", () => {
    expect(bundle).toEqual(before);
  });

  it("ends the description of each operation with documented answers with how to ask the mock for each, in the whole copy", () => {
    let withChoices = 0;
    for (const { operation: original } of operations(bundle)) {
      const choices = preferSelections(bundle, original);
      const description = operation(whole, original.operationId).description ?? "";
      if (choices.length === 0) {
        expect(description, original.operationId).not.toContain("Contract mock");
        continue;
      }
      withChoices += 1;
      const sentence = `**Contract mock** (\`npm run mock\`): ask for a documented answer with ${choices.map((choice) => `\`Prefer: ${choice}\``).join(", ")}.`;
      expect(description.endsWith(`\n\n${sentence}`) || description === sentence, original.operationId).toBe(true);
      // The operation's own description comes first, whole.
      if (original.description) expect(description.startsWith(original.description.trim().slice(0, 40))).toBe(true);
      else expect(description).toBe(sentence);
    }
    expect(withChoices).toBeGreaterThan(0);
  });

  it("folds the mock's answers under one line on the page, one answer a line when opened", () => {
    const original = operation(bundle, "getImageJob");
    const choices = preferSelections(bundle, original);
    expect(choices.length).toBeGreaterThan(1);
    const folded = [
      `<details class="mock-choices"><summary>Contract mock: ${choices.length} documented answers on request</summary>`,
      "",
      "`npm run mock` answers with any of them when the request carries its `Prefer` header:",
      "",
      ...choices.map((choice) => `- \`Prefer: ${choice}\``),
      "",
      "</details>",
    ].join("\n");
    expect(operation(page, "getImageJob").description?.endsWith(`\n\n${folded}`)).toBe(true);
  });

  it("makes each create answer's examples name the route's own model, and leaves answers without a model as they were", () => {
    const routes = readServiceModel(bundle).createRoutes;
    let named = 0;
    for (const route of routes) {
      const original = operation(bundle, route.operationId).responses["200"];
      const copied = operation(whole, route.operationId).responses["200"];
      expect(copied, route.operationId).toBeDefined();
      const examples = Object.values(
        deref<ResponseObject>(whole, copied!).content?.["application/json"]?.examples ?? {},
      );
      const withModel = examples.filter((raw) => {
        const value = deref(whole, raw).value;
        return typeof value === "object" && value !== null && "model" in value;
      });
      if (withModel.length === 0) {
        // The shared answer, still referenced: nothing of it was the route's own.
        expect(copied, route.operationId).toEqual(original);
        continue;
      }
      named += 1;
      for (const raw of withModel)
        expect(deref(whole, raw).value, route.operationId).toMatchObject({ model: route.slug });
    }
    expect(named).toBeGreaterThan(1);
    expect(named).toBeLessThan(routes.length);
  });

  it("keeps a create answer whose examples are not objects as it is", () => {
    const doc = structuredClone(bundle);
    const route = readServiceModel(doc).createRoutes[0]!;
    const plain = {
      description: "Accepted.",
      content: { "application/json": { examples: { text: { value: "ok" }, none: { value: null } } } },
    };
    operation(doc, route.operationId).responses["200"] = plain;
    expect(operation(referenceCopies(doc, GUIDES).whole, route.operationId).responses["200"]).toEqual(plain);
  });
});

describe("the page's introduction", () => {
  const introduction = (description: string, guides: GuideSections = GUIDES): string => {
    const doc = structuredClone(bundle);
    doc.info.description = description;
    return String(referenceCopies(doc, guides).page.info.description);
  };

  it("keeps the lead, links a section to the guide that has a section of its name or a page named so, and keeps the others", () => {
    expect(
      introduction(
        "\n  The lead, which may mention ## in a line.\n\n## Conventions\n\nHow routes look.\n\n## Limits  \n\nHow many.\n\n## Kept here\n\nNo guide shows this.\n\n",
      ),
    ).toBe(
      "The lead, which may mention ## in a line.\n\n" +
        "In the guides: [Conventions](guides/overview.html#conventions) · [Limits](guides/limits.html).\n\n" +
        "## Kept here\n\nNo guide shows this.",
    );
  });

  it("links a section by a guide's section before a page of the same name", () => {
    const guides: GuideSections = [
      { file: "guides/limits.html", nav: "Requests", sections: [] },
      { file: "guides/overview.html", nav: "Overview", sections: [{ id: "requests", title: "Requests" }] },
    ];
    expect(introduction("Lead.\n\n## Requests\n\nText.", guides)).toBe(
      "Lead.\n\nIn the guides: [Requests](guides/overview.html#requests).",
    );
  });

  it("has no links line when no guide shows a section, and no empty lead when the introduction opens with a section", () => {
    expect(introduction("Lead.\n\n## Kept\n\nText.")).toBe("Lead.\n\n## Kept\n\nText.");
    expect(introduction("\n## Conventions\n\nHow routes look.\n\n## Kept\n\nText.")).toBe(
      "In the guides: [Conventions](guides/overview.html#conventions).\n\n## Kept\n\nText.",
    );
  });

  it("shows raw HTML of the introduction as text", () => {
    expect(introduction("Lead <style>body{}</style>.\n\n## Kept\n\n<form>x</form>")).not.toMatch(/<style|<form/);
  });
});
