/**
 * The docs-only copies of the bundle the reference is made from (the description itself is never
 * changed): every operation with its code samples, its description's raw HTML shown as text, the
 * contract mock's documented answers, and create answers whose samples name the operation's own
 * model. The whole copy is the site's openapi.json and reference.md; the page's copy (Redoc) folds
 * the mock's choices and keeps the introduction to its lead and links to the guides that show its
 * sections, so that the first operation is in view when the page opens.
 */
import { deref, operations, type OpenApiDocument, type Operation, type ResponseObject } from "../model/document.ts";
import { preferSelections } from "../model/prefer-selections.ts";
import { readServiceModel } from "../model/service-model.ts";
import { withCodeSamples } from "./code-samples.ts";
import { makeDescriptionsInert } from "./inert-descriptions.ts";
import { headingSlug } from "./markdown-page.ts";

/** The mock's choices in one sentence, for readers that are programs (reference.md). */
function mockSentence(choices: readonly string[]): string {
  return `**Contract mock** (\`npm run mock\`): ask for a documented answer with ${choices.map((choice) => `\`Prefer: ${choice}\``).join(", ")}.`;
}

/** The mock's choices folded under one line, one a line when opened (the reference page). */
function mockFolded(choices: readonly string[]): string {
  return [
    `<details class="mock-choices"><summary>Contract mock: ${choices.length} documented answers on request</summary>`,
    "",
    "`npm run mock` answers with any of them when the request carries its `Prefer` header:",
    "",
    ...choices.map((choice) => `- \`Prefer: ${choice}\``),
    "",
    "</details>",
  ].join("\n");
}

/**
 * The operation's own create answer: the description's example of the shared answer, its `model`
 * set to the route's slug (the model's identifier in the route, and what the sandbox answers).
 */
function ownCreateAnswer(doc: OpenApiDocument, operation: Operation, slug: string): void {
  const raw = operation.responses["200"];
  if (!raw) return;
  const answer = structuredClone(deref<ResponseObject>(doc, raw));
  const examples = answer.content?.["application/json"]?.examples ?? {};
  let changed = false;
  for (const [name, rawExample] of Object.entries(examples)) {
    const example = structuredClone(deref(doc, rawExample as { value?: unknown }));
    const value = example.value as Record<string, unknown> | undefined;
    if (typeof value !== "object" || value === null || !("model" in value)) continue;
    example.value = { ...value, model: slug };
    examples[name] = example;
    changed = true;
  }
  if (changed) operation.responses["200"] = answer;
}

export interface ReferenceCopies {
  /** openapi.json and reference.md. */
  readonly whole: OpenApiDocument;
  /** What Redoc renders. */
  readonly page: OpenApiDocument;
}

/** The guides, where the introduction's sections may be read instead: each page's file, name and sections. */
export type GuideSections = ReadonlyArray<{
  file: string;
  nav: string;
  sections: readonly { id: string; title: string }[];
}>;

/**
 * The introduction as the reference page shows it: its lead, and each of its `##`
 * sections as a link to the guide that shows it (a section of the same name, or a page named so);
 * a section no guide shows stays as it is.
 */
function shortIntroduction(description: string, guides: GuideSections): string {
  // The newline makes the first part the lead even when the description opens with a section.
  const [lead = "", ...rest] = `\n${description}`.split(/^(?=## )/m);
  const links: string[] = [];
  const kept: string[] = [];
  for (const section of rest) {
    const heading = /^## (.+)$/m.exec(section)?.[1]?.trim() ?? "";
    const id = headingSlug(heading);
    const inSection = guides.find((guide) => guide.sections.some((candidate) => candidate.id === id));
    const asPage = guides.find((guide) => guide.nav === heading);
    if (inSection) links.push(`[${heading}](${inSection.file}#${id})`);
    else if (asPage) links.push(`[${heading}](${asPage.file})`);
    else kept.push(section.trim());
  }
  return [lead.trim(), ...(links.length > 0 ? [`In the guides: ${links.join(" · ")}.`] : []), ...kept]
    .filter(Boolean)
    .join("\n\n");
}

export function referenceCopies(doc: OpenApiDocument, guides: GuideSections): ReferenceCopies {
  const samples = withCodeSamples(doc);
  // The description's text is data: its raw HTML is shown as text, as on the guides.
  makeDescriptionsInert(samples);
  const model = readServiceModel(doc);
  for (const route of model.createRoutes) {
    const operation = operations(samples).find((candidate) => candidate.operation.operationId === route.operationId);
    if (operation) ownCreateAnswer(samples, operation.operation, route.slug);
  }
  const whole = structuredClone(samples);
  const page = structuredClone(samples);
  for (const [copy, form] of [
    [whole, mockSentence],
    [page, mockFolded],
  ] as const) {
    for (const { operation } of operations(copy)) {
      const choices = preferSelections(doc, operation);
      if (choices.length > 0) operation.description = `${operation.description ?? ""}\n\n${form(choices)}`.trim();
    }
  }
  page.info.description = shortIntroduction(String(doc.info.description ?? ""), guides);
  makeDescriptionsInert(page.info);
  return { whole, page };
}
