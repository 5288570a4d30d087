/**
 * The guides' placeholders. A guide line such as `{{job-states}}` or `{{sample curl createImageIA}}`
 * is replaced at build time by Markdown generated from the bundled description, so the facts the
 * guides state cannot drift from it. An unknown placeholder, or one whose facts are missing from
 * the description, fails the build.
 */
import { deref, operations, type OpenApiDocument } from "../model/document.ts";
import { chargeRows } from "./charging.ts";
import { codeSamples, type SampleKind } from "./code-samples.ts";
import { errorBodySchema, errorResponses, infoSection, responsesWithStatus } from "./description-facts.ts";
import { readServiceModel, type PollFacts } from "../model/service-model.ts";
import { firstParagraph, jsonBlock, markdownTable } from "./markdown-table.ts";
import { collectNotShown } from "../model/not-shown.ts";
import { SANDBOX_DEFAULT_URL, sandboxDemoKey } from "./sandbox-facts.ts";

type Render = (doc: OpenApiDocument, args: string) => string;

const PLACEHOLDER = /\{\{([a-z-]+)(?: ([^}]*))?\}\}/g;

const SAMPLE_FENCE: Record<SampleKind, string> = { curl: "sh", client: "ts", python: "python", fetch: "js" };

/**
 * One item of a list in an info section, by how it starts (`**Cooldown:**`, or its first words),
 * on one line: whole, or (`text`) without its bold lead, for a guide that gives it a heading.
 */
function infoItem(doc: OpenApiDocument, args: string, form: "whole" | "text"): string {
  const [heading, lead] = args.split("|").map((part) => part.trim());
  if (!heading || !lead)
    throw new Error(`{{info-item ${args}}}: give the section's heading and the item's first words, "heading | lead"`);
  const items = infoSection(doc, heading)
    .split(/^(?:\d+\.|-) /m)
    .slice(1);
  const item = items.find((candidate) => candidate.startsWith(`**${lead}`) || candidate.startsWith(lead));
  if (!item) throw new Error(`{{info-item ${args}}}: no item starting "**${lead}" or "${lead}" under "## ${heading}"`);
  const line = item.trim().replace(/\s*\n\s*/g, " ");
  if (form === "whole") return line;
  const text = line.replace(/^\*\*[^*]+\*\*\s*/, "");
  // Stryker disable next-line Regex: equivalent: without its anchor the first character is still the first match
  return text.replace(/^./, (first) => first.toUpperCase());
}

const RENDERERS: Record<string, Render> = {
  version: (doc) => `\`${doc.info.version}\``,
  "info-section": (doc, heading) => infoSection(doc, heading),
  "info-item": (doc, args) => infoItem(doc, args, "whole"),
  "info-item-text": (doc, args) => infoItem(doc, args, "text"),
  "env-setup": (doc) => `\`\`\`sh\nexport BASE_URL=${defaultServer(doc)}\nexport API_KEY=...  # your API key\n\`\`\``,
  "local-servers": (doc) => {
    const mock = defaultServer(doc);
    const key = sandboxDemoKey();
    return [
      markdownTable(
        ["Command", "Serves", "Address", "Key"],
        [
          ["`npm run mock`", "the contract mock: the description's examples, no state", `\`${mock}\``, "any"],
          [
            "`npm run sandbox`",
            "the stateful sandbox: jobs run, credits charged, limits enforced",
            `\`${SANDBOX_DEFAULT_URL}\``,
            `\`${key}\` (its demo account)`,
          ],
        ],
      ),
      `To use the sandbox:\n\n\`\`\`sh\nnpm run sandbox   # in another terminal\nexport BASE_URL=${SANDBOX_DEFAULT_URL}\nexport API_KEY=${key}\n\`\`\``,
    ].join("\n\n");
  },
  authentication: (doc) => {
    const schemes = Object.values((doc.components.securitySchemes ?? {}) as Record<string, { description?: string }>);
    if (schemes.length === 0) throw new Error("the description has no security scheme");
    return schemes.map((scheme) => (scheme.description ?? "").trim()).join("\n\n");
  },
  "job-states": (doc) => {
    const { values, terminal, descriptions } = readServiceModel(doc).jobStatus;
    const rows = values.map((value) => [
      `\`${value}\``,
      terminal.includes(value) ? "yes" : "no",
      descriptions[value] ?? "",
    ]);
    return markdownTable(["State", "Terminal", "Meaning"], rows);
  },
  "terminal-states": (doc) =>
    readServiceModel(doc)
      .jobStatus.terminal.map((state) => `\`${state}\``)
      .join(", "),
  polling: (doc) =>
    markdownTable(
      ["Poll route", "Cadence", "Interval", "Typical duration", "Result files kept"],
      readServiceModel(doc).areas.map((area) => pollingRow(area.poll)),
    ),
  "error-body": (doc) => {
    const error = (
      errorBodySchema(doc).properties as Record<
        string,
        { required?: string[]; properties?: Record<string, { type?: string; description?: string }> }
      >
    ).error;
    if (!error?.properties) throw new Error("ErrorBody has no error object");
    const required = new Set(error.required ?? []);
    const rows = Object.entries(error.properties).map(([name, field]) => [
      `\`error.${name}\``,
      field.type ?? "",
      required.has(name) ? "yes" : "no",
      field.description ?? "",
    ]);
    return markdownTable(["Field", "Type", "Required", "Meaning"], rows);
  },
  "error-responses": (doc) =>
    markdownTable(
      ["HTTP status", "Meaning"],
      errorResponses(doc).map(({ status, response }) => [
        status,
        firstParagraph(response.description).replace(/:$/, "."),
      ]),
    ),
  "moderation-reasons": (doc) => {
    const { reasonField, reasons, description, reasonDescriptions } = readServiceModel(doc).errors.moderation;
    const rows = reasons.map((reason) => [`\`${reason}\``, reasonDescriptions[reason] ?? ""]);
    return `${description}\n\n${markdownTable([reasonField, "Meaning"], rows)}`;
  },
  "too-many-requests": (doc) =>
    responsesWithStatus(doc, "429")
      .map((response) => {
        const examples = Object.values(response.content?.["application/json"]?.examples ?? {}).map((raw) =>
          deref(doc, raw),
        );
        const shown = examples.map((example) => `**${example.summary ?? ""}**\n\n${jsonBlock(example.value)}`);
        return [response.description.trim(), ...shown].join("\n\n");
      })
      .join("\n\n"),
  "rate-limit-headers": (doc) => {
    const headers = new Map<string, string>();
    for (const response of responsesWithStatus(doc, "429")) {
      for (const [name, raw] of Object.entries(response.headers ?? {}))
        headers.set(name, firstParagraph(deref(doc, raw as { description?: string }).description));
    }
    return markdownTable(
      ["Header", "Meaning"],
      [...headers].map(([name, meaning]) => [`\`${name}\``, meaning]),
    );
  },
  "charged-when": (doc) =>
    markdownTable(
      ["Charged", "When", "Operations"],
      chargeRows(doc).map(({ label, meaning, operations: routes }) => [
        label,
        meaning,
        routes.map((route) => `\`${route}\``).join(", "),
      ]),
    ),
  sample: (doc, args) => {
    const [kind, operationId] = args.split(" ") as [SampleKind, string];
    const sample = codeSamples(doc).get(operationId)?.[kind];
    if (!sample || !(kind in SAMPLE_FENCE))
      throw new Error(`{{sample ${args}}}: no ${kind} sample for operation ${operationId}`);
    return `\`\`\`${SAMPLE_FENCE[kind]}\n${sample.source}\n\`\`\``;
  },
  example: (doc, args) => {
    const [operationId, status, name] = args.split(" ");
    const found = operations(doc).find(({ operation }) => operation.operationId === operationId);
    const raw = found?.operation.responses[status ?? ""];
    const examples = (raw ? deref(doc, raw) : undefined)?.content?.["application/json"]?.examples ?? {};
    const example = name ? examples[name] : Object.values(examples)[0];
    if (!example) throw new Error(`{{example ${args}}}: no such response example`);
    return jsonBlock(deref(doc, example).value);
  },
  "not-shown": (doc) => {
    const markers = collectNotShown(doc);
    const owners = [...new Set(markers.map((marker) => marker.owner))];
    const sections = owners.map((owner) => {
      const rows = markers
        .filter((marker) => marker.owner === owner)
        .map((marker) => [marker.where || "(itself)", `\`${marker.key}\``, marker.sentence]);
      return `### ${owner}\n\n${markdownTable(["Where", "What", "Left unstated"], rows)}`;
    });
    return [`The description carries **${markers.length}** \`x-not-shown\` markers.`, ...sections].join("\n\n");
  },
};

/** The description's first server, its variables at their defaults. */
function defaultServer(doc: OpenApiDocument): string {
  const server = doc.servers?.[0];
  const base = server?.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? name);
  if (!base) throw new Error("the description has no server");
  return base;
}

export function retention(hours: number, approximate = false): string {
  return `${approximate ? "about " : ""}${hours} hours`;
}

function pollingRow({ path, cadence, intervalSeconds, typicalDurationSeconds, retention: kept }: PollFacts): string[] {
  const interval = intervalSeconds ? `${intervalSeconds.min} to ${intervalSeconds.max} s` : "—";
  const typical = typicalDurationSeconds
    ? `${typicalDurationSeconds.min / 60} to ${typicalDurationSeconds.max / 60} min`
    : "—";
  return [`\`GET ${path}\``, cadence ?? "—", interval, typical, kept ? retention(kept.hours, kept.approximate) : "—"];
}

export const PLACEHOLDER_NAMES = Object.keys(RENDERERS);

/** Replaces every placeholder of a guide; throws on an unknown one. */
export function fillPlaceholders(markdown: string, doc: OpenApiDocument, guide: string): string {
  return markdown.replace(PLACEHOLDER, (_, name: string, args: string | undefined) => {
    const render = RENDERERS[name];
    if (!render) throw new Error(`${guide}: unknown placeholder {{${name}}}`);
    return render(doc, args?.trim() ?? "");
  });
}
