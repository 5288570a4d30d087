/**
 * The reference as Markdown (reference.md, for readers that are programs): the description's
 * introduction, then each tag's operations with their route, description, parameters, request-body
 * fields, request examples, answers and code samples, all read off the docs-only copy of the
 * description, every text whole (a table cell holds its text on one line, never a first paragraph).
 */
import { deref, operations, type OpenApiDocument, type Operation } from "../model/document.ts";
import type { CodeSample } from "./code-samples.ts";
import { jsonBlock, markdownTable } from "./markdown-table.ts";

const FENCE: Record<string, string> = { Shell: "sh", TypeScript: "ts", Python: "python", JavaScript: "js" };

interface Schema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  description?: string;
  "x-not-shown"?: Record<string, string>;
  "x-enumDescriptions"?: Record<string, string>;
}

const code = (value: unknown): string => `\`${typeof value === "string" ? value : JSON.stringify(value)}\``;

/** A field's type with its bounds and values, as a reader checks a value against it. */
function typeOf(doc: OpenApiDocument, raw: Schema): string {
  const schema = deref(doc, raw);
  const type = [schema.type ?? (schema.enum ? "" : "any")].flat().join(" or ");
  const parts = [schema.type === "array" && schema.items ? `array of ${typeOf(doc, schema.items)}` : type];
  if (schema.format) parts.push(`format ${schema.format}`);
  if (schema.enum) parts.push(`one of ${schema.enum.map(code).join(", ")}`);
  if (schema.const !== undefined) parts.push(`exactly ${code(schema.const)}`);
  const range = (low: number | undefined, high: number | undefined, unit: string) =>
    low !== undefined && high !== undefined
      ? `${low} to ${high}${unit}`
      : low !== undefined
        ? `at least ${low}${unit}`
        : high !== undefined
          ? `at most ${high}${unit}`
          : "";
  parts.push(
    range(schema.minimum, schema.maximum, ""),
    range(schema.minLength, schema.maxLength, " characters"),
    range(schema.minItems, schema.maxItems, " items"),
  );
  return parts.filter(Boolean).join(", ");
}

function parameters(doc: OpenApiDocument, operation: Operation): string {
  const rows = (operation.parameters ?? []).map((raw) => {
    const parameter = deref(
      doc,
      raw as { name?: string; in?: string; required?: boolean; description?: string; schema?: Schema },
    );
    return [
      `\`${parameter.name ?? ""}\``,
      parameter.in ?? "",
      parameter.schema ? typeOf(doc, parameter.schema) : "",
      parameter.required ? "yes" : "no",
      parameter.description ?? "",
    ];
  });
  return rows.length === 0
    ? ""
    : `**Parameters**\n\n${markdownTable(["Name", "In", "Type", "Required", "Meaning"], rows)}`;
}

/**
 * The request body's fields: each with its type, whether it is required (or that this is not
 * shown), its default where one is shown and its meaning; the rules between fields; what the
 * description says is not shown of the body (defaults among it).
 */
function requestFields(doc: OpenApiDocument, operation: Operation): string {
  const raw = operation.requestBody?.content["application/json"]?.schema as Schema | undefined;
  if (!raw) return "";
  const schema = deref(doc, raw);
  const notShown = schema["x-not-shown"] ?? {};
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties ?? {}).map(([name, rawField]) => {
    const field = deref(doc, rawField);
    const requiredness = required.has(name) ? "yes" : notShown.requiredness ? "not shown" : "no";
    const fallback = field.default !== undefined ? code(field.default) : "";
    const values = Object.entries(field["x-enumDescriptions"] ?? {}).map(([value, text]) => `${code(value)}: ${text}`);
    const meaning = [field.description ?? "", ...values].filter(Boolean).join(" ");
    return [`\`${name}\``, typeOf(doc, field), requiredness, fallback, meaning];
  });
  const rules = (schema.allOf ?? []).flatMap((part) => (part.description ? [`- ${part.description}`] : []));
  return [
    `**Request body** (JSON${schema.description ? `): ${schema.description}` : ")"}`,
    rows.length > 0 ? markdownTable(["Field", "Type", "Required", "Default", "Meaning"], rows) : "",
    rules.length > 0 ? `Rules between fields:\n\n${rules.join("\n")}` : "",
    Object.keys(notShown).length > 0
      ? `Not shown:\n\n${Object.values(notShown)
          .map((text) => `- ${text}`)
          .join("\n")}`
      : "",
  ]
    .filter(Boolean)
    .join("\n\n");
}

function requestExamples(doc: OpenApiDocument, operation: Operation): string {
  const examples = Object.values(operation.requestBody?.content["application/json"]?.examples ?? {}).map((raw) =>
    deref(doc, raw),
  );
  return examples
    .map((example) => `**Request example: ${example.summary ?? ""}**\n\n${jsonBlock(example.value)}`)
    .join("\n\n");
}

/** Markdown as the content of a list item: its lines after the first indented under the item's text. */
const inItem = (text: string): string => text.trim().replace(/\n(?=.)/g, "\n  ");

/** Each answer with its whole description (lists and paragraphs kept, inside the answer's item) and its headers. */
function answers(doc: OpenApiDocument, operation: Operation): string {
  const items = Object.entries(operation.responses).map(([status, raw]) => {
    const response = deref(doc, raw);
    const headers = Object.keys(response.headers ?? {})
      .map((name) => `\`${name}\``)
      .join(", ");
    const described = inItem(response.description ?? "");
    return `- **${status}** ${described}${headers ? `\n\n  Headers: ${headers}.` : ""}`;
  });
  return `**Answers**\n\n${items.join("\n\n")}`;
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
        requestFields(reference, operation),
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
  ]
    .filter(Boolean)
    .join("\n\n")}\n`;
}
