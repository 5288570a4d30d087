/**
 * The reference as Markdown (reference.md, for readers that are programs): the description's
 * introduction, then each tag's operations with their route, description, parameters, request
 * examples, answers and code samples, all read off the docs-only copy of the description.
 */
import { deref, operations, type OpenApiDocument, type Operation } from "../model/document.ts";
import type { CodeSample } from "./code-samples.ts";
import { firstParagraph, jsonBlock, markdownTable } from "./markdown-table.ts";

const FENCE: Record<string, string> = { Shell: "sh", TypeScript: "ts" };

function parameters(doc: OpenApiDocument, operation: Operation): string {
  const rows = (operation.parameters ?? []).map((raw) => {
    const parameter = deref(doc, raw as { name?: string; in?: string; required?: boolean; description?: string });
    return [
      `\`${parameter.name ?? ""}\``,
      parameter.in ?? "",
      parameter.required ? "yes" : "no",
      firstParagraph(parameter.description),
    ];
  });
  return rows.length === 0 ? "" : `**Parameters**\n\n${markdownTable(["Name", "In", "Required", "Meaning"], rows)}`;
}

function requestExamples(doc: OpenApiDocument, operation: Operation): string {
  const examples = Object.values(operation.requestBody?.content["application/json"]?.examples ?? {}).map((raw) =>
    deref(doc, raw),
  );
  return examples
    .map((example) => `**Request example: ${example.summary ?? ""}**\n\n${jsonBlock(example.value)}`)
    .join("\n\n");
}

function answers(doc: OpenApiDocument, operation: Operation): string {
  const rows = Object.entries(operation.responses).map(([status, raw]) => {
    const response = deref(doc, raw);
    const headers = Object.keys(response.headers ?? {})
      .map((name) => `\`${name}\``)
      .join(", ");
    return [status, firstParagraph(response.description), headers];
  });
  return `**Answers**\n\n${markdownTable(["Status", "Meaning", "Headers"], rows)}`;
}

function samples(operation: Operation): string {
  const own = (operation["x-codeSamples"] ?? []) as CodeSample[];
  return own
    .map((sample) => `**${sample.label}**\n\n\`\`\`${FENCE[sample.lang] ?? ""}\n${sample.source}\n\`\`\``)
    .join("\n\n");
}

export function referenceMarkdown(reference: OpenApiDocument): string {
  const tags = (reference.tags ?? []) as { name: string; description?: string }[];
  const all = operations(reference);
  const sections = tags.map((tag) => {
    const own = all.filter(({ operation }) => operation.tags?.includes(tag.name));
    const blocks = own.map(({ path, method, operation }) =>
      [
        `### ${operation.summary ?? operation.operationId}`,
        `\`${method.toUpperCase()} ${path}\` (operationId \`${operation.operationId}\`)`,
        (operation.description ?? "").trim(),
        parameters(reference, operation),
        requestExamples(reference, operation),
        answers(reference, operation),
        samples(operation),
      ]
        .filter(Boolean)
        .join("\n\n"),
    );
    return [`## ${tag.name}`, (tag.description ?? "").trim(), ...blocks].filter(Boolean).join("\n\n");
  });
  const untagged = all.filter(
    ({ operation }) => !operation.tags?.some((name) => tags.some((tag) => tag.name === name)),
  );
  if (untagged.length > 0)
    throw new Error(
      `operations without a tag of the description: ${untagged.map(({ operation }) => operation.operationId).join(", ")}`,
    );
  return `${[
    `# ${reference.info.title} API reference`,
    `Version ${reference.info.version}. The description itself: [openapi.json](openapi.json).`,
    String(reference.info.description ?? "").trim(),
    ...sections,
  ].join("\n\n")}\n`;
}
